/**
 * `--data FILE`: activities, sessions and entries kept across restarts. Writes go to a temporary
 * file that is flushed and then renamed over the old one, so a crash mid-write leaves either the
 * old file or the new one, never a torn one. A server opens the file for its lifetime: it checks
 * the directory, takes the lock (dataFileLock.ts), removes what a killed writer left, and loads
 * what is there under the same rules as requests (src/protocol/rules.ts).
 */
import { open, readFile, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { checkActivityName, checkDurationMinutes, checkNote, checkUUID } from '../protocol/rules';
import { DataFileLock, DataFileLockError } from './dataFileLock';
import type { Activity, Entry, RunningSession, Session, StateSnapshot } from './state';

const FORMAT_VERSION = 1;
/** The latest instant a JavaScript Date can hold. */
const MAX_DATE_MS = 8.64e15;

export type DataFileProblem = 'directory-missing' | 'not-writable' | 'in-use' | 'unreadable' | 'invalid' | 'write-failed';

export class DataFileError extends Error {
  override name = 'DataFileError';

  constructor(
    readonly code: DataFileProblem,
    message: string,
  ) {
    super(message);
  }
}

export class DataFile {
  private pending: Promise<void> = Promise.resolve();
  private lock: DataFileLock | undefined;

  constructor(readonly path: string) {}

  /**
   * What a server does once at start: refuses a directory that is missing or cannot be written
   * and a file another running server holds, each with one sentence, then locks the file until
   * `close()`, removes the temporary files a killed writer left, and loads it.
   */
  async open(): Promise<StateSnapshot | undefined> {
    if (this.lock) throw new Error(`The data file ${this.path} is already open.`);
    await this.checkDirectory();
    try {
      this.lock = await DataFileLock.acquire(this.path);
    } catch (error) {
      if (error instanceof DataFileLockError) throw new DataFileError('in-use', error.message);
      // Creating the lock is the real test of the directory: root passes any permission check.
      throw new DataFileError('not-writable', `Cannot write in the directory ${dirname(this.path)} of the data file: ${describe(error)}.`);
    }
    try {
      await this.lock.removeLeftovers(this.path);
      return await this.load();
    } catch (error) {
      await this.close();
      if (error instanceof DataFileError) throw error;
      throw new DataFileError('unreadable', `Cannot clean up beside the data file ${this.path}: ${describe(error)}.`);
    }
  }

  /** Waits for the last save, then releases the lock (only if it is still this server's). */
  async close(): Promise<void> {
    await this.pending;
    const lock = this.lock;
    this.lock = undefined;
    await lock?.release();
  }

  /** The saved state, or undefined when the file does not exist yet. */
  async load(): Promise<StateSnapshot | undefined> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return undefined;
      throw new DataFileError('unreadable', `Cannot read the data file ${this.path}: ${describe(error)}.`);
    }
    try {
      return parseSnapshot(JSON.parse(text));
    } catch (error) {
      throw new DataFileError('invalid', `The data file ${this.path} is not a data file of this server: ${describe(error)}.`);
    }
  }

  /** Saves are chained so that two overlapping saves never interleave and the last one wins. */
  save(snapshot: StateSnapshot): Promise<void> {
    const text = `${JSON.stringify({ version: FORMAT_VERSION, ...snapshot }, null, 2)}\n`;
    const run = this.pending.then(() => this.writeAtomically(text));
    this.pending = run.catch(() => undefined);
    return run;
  }

  private async checkDirectory(): Promise<void> {
    const directory = dirname(this.path);
    let isDirectory: boolean;
    try {
      isDirectory = (await stat(directory)).isDirectory();
    } catch (error) {
      if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) {
        throw new DataFileError('directory-missing', `The directory ${directory} of the data file does not exist.`);
      }
      throw new DataFileError('not-writable', `Cannot look at the directory ${directory} of the data file: ${describe(error)}.`);
    }
    if (!isDirectory) throw new DataFileError('directory-missing', `The directory ${directory} of the data file is not a directory.`);
  }

  private async writeAtomically(text: string): Promise<void> {
    const temporary = join(dirname(this.path), `.${basename(this.path)}.${process.pid}.tmp`);
    try {
      const handle = await open(temporary, 'w', 0o600);
      try {
        await handle.writeFile(text, 'utf8');
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => undefined);
      throw new DataFileError('write-failed', `Cannot write the data file ${this.path}: ${describe(error)}.`);
    }
  }
}

/**
 * The file's content, under the rules a request must meet (src/protocol/rules.ts) plus those the
 * service keeps itself (ids unique, times whole milliseconds, no session ending before it began):
 * a file edited by hand or by another program cannot put into the state what no request could.
 */
function parseSnapshot(value: unknown): StateSnapshot {
  const root = record(value, 'the file');
  if (root['version'] !== FORMAT_VERSION) throw new Error(`version must be ${FORMAT_VERSION}`);
  const seen = new Map<string, string>();
  const activities = list(root['activities'], 'activities').map((item, index): Activity => {
    const at = `activities[${index}]`;
    const activity = record(item, at);
    const id = checkUUID(text(activity['id'], `${at}.id`), `${at}.id`);
    const earlier = seen.get(id.toLowerCase());
    if (earlier !== undefined) throw new Error(`${at}.id is also the id of ${earlier}`);
    seen.set(id.toLowerCase(), at);
    // Files written before activities had groups have no groupName: none. An empty group is none, as for seeds.
    const group = activity['groupName'] ?? null;
    if (group !== null && typeof group !== 'string') throw new Error(`${at}.groupName must be a string or null`);
    const groupName = group === null || group.trim() === '' ? null : checkActivityName(group, `${at}.groupName`);
    return { id, name: checkActivityName(text(activity['name'], `${at}.name`), `${at}.name`), groupName };
  });
  const sessions = list(root['sessions'], 'sessions').map((item, index): Session => {
    const at = `sessions[${index}]`;
    const session = record(item, at);
    const startedAt = instant(session['startedAt'], `${at}.startedAt`);
    const endedAt = instant(session['endedAt'], `${at}.endedAt`);
    if (endedAt < startedAt) throw new Error(`${at}.endedAt must not be before its startedAt`);
    return { activityID: checkUUID(text(session['activityID'], `${at}.activityID`), `${at}.activityID`), startedAt, endedAt };
  });
  const entries = list(root['entries'], 'entries').map((item, index): Entry => {
    const at = `entries[${index}]`;
    const entry = record(item, at);
    const note = entry['note'] ?? null;
    if (note !== null && typeof note !== 'string') throw new Error(`${at}.note must be a string or null`);
    return {
      entryID: checkUUID(text(entry['entryID'], `${at}.entryID`), `${at}.entryID`),
      activityID: checkUUID(text(entry['activityID'], `${at}.activityID`), `${at}.activityID`),
      durationMinutes: checkDurationMinutes(entry['durationMinutes'], `${at}.durationMinutes`),
      note: note === null ? null : checkNote(note, `${at}.note`),
      loggedAt: instant(entry['loggedAt'], `${at}.loggedAt`),
    };
  });
  let running: RunningSession | null = null;
  if (root['running'] !== null && root['running'] !== undefined) {
    const session = record(root['running'], 'running');
    running = {
      activityID: checkUUID(text(session['activityID'], 'running.activityID'), 'running.activityID'),
      startedAt: instant(session['startedAt'], 'running.startedAt'),
    };
  }
  // Ids are compared without regard to case, as every lookup of the service does.
  for (const ref of [...sessions, ...entries, ...(running ? [running] : [])]) {
    if (!seen.has(ref.activityID.toLowerCase())) throw new Error(`activity ${ref.activityID} is referenced but not listed`);
  }
  return { activities, sessions, running, entries };
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`${what} must be an object`);
  return value as Record<string, unknown>;
}

function list(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`${what} must be a list`);
  return value;
}

function text(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new Error(`${what} must be a string`);
  return value;
}

/** Milliseconds since the epoch, as the service's clock gives them: a whole number a Date can hold. */
function instant(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_DATE_MS) {
    const shown = typeof value === 'number' ? `, not ${value}` : value === undefined ? '' : `, not ${value === null ? 'null' : `a ${typeof value}`}`;
    throw new Error(`${what} must be a whole number of milliseconds since 1970${shown}`);
  }
  return value;
}

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
}
