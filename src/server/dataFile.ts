/**
 * `--data FILE`: activities, sessions and entries kept across restarts, each save written whole
 * or not at all (src/platform/atomicWrite.ts). A server opens the file for its lifetime: it checks
 * the directory, takes the lock `FILE.lock` for as long as it runs (src/platform/fileLock.ts: two
 * servers on one file would each save their own state over the other's), removes what a killed
 * writer left, and loads what is there under the same rules as requests (src/protocol/rules.ts).
 */
import { readFile, readdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isAtomicWriteTemporary, writeFileAtomic } from '../platform/atomicWrite';
import { errnoCode, errorPhrase } from '../platform/errors';
import { FileLockError, lockForProcessLife, removeLockLeftovers, type FileLock } from '../platform/fileLock';
import { checkActivityName, checkDurationMinutes, checkNote, checkUUID } from '../protocol/rules';
import { DataFileError } from './errors';
import type { Activity } from './activities';
import type { Entry, RunningSession, Session, StateSnapshot } from './state';

const FORMAT_VERSION = 1;
/** The latest instant a JavaScript Date can hold. */
const MAX_DATE_MS = 8.64e15;

export class DataFile {
  private pending: Promise<void> = Promise.resolve();
  private lock: FileLock | undefined;

  constructor(readonly path: string) {}

  /**
   * What a server does once at start: refuses a directory that is missing or cannot be written
   * and a file another running server holds, each with one sentence, then locks the file until
   * `close()`, removes the temporary files a killed writer left, and loads it.
   */
  async open(): Promise<StateSnapshot | undefined> {
    if (this.lock) throw new Error(`The data file ${this.path} is already open.`);
    await this.checkDirectory();
    this.lock = await this.takeLock();
    try {
      await this.removeLeftovers();
      return await this.load();
    } catch (error) {
      await this.close();
      if (error instanceof DataFileError) throw error;
      throw new DataFileError(
        'unreadable',
        `Cannot clean up beside the data file ${this.path}: ${errorPhrase(error)}.`,
      );
    }
  }

  /** The lock for as long as this server runs, or the sentence that says who has it. */
  private async takeLock(): Promise<FileLock> {
    const lockPath = `${this.path}.lock`;
    try {
      return await lockForProcessLife(lockPath);
    } catch (error) {
      if (!(error instanceof FileLockError)) {
        // Creating the lock is the real test of the directory: root passes any permission check.
        throw new DataFileError(
          'not-writable',
          `Cannot write in the directory ${dirname(this.path)} of the data file: ${errorPhrase(error)}.`,
        );
      }
      switch (error.code) {
        case 'LOCK_HELD':
          throw new DataFileError(
            'in-use',
            `The data file ${this.path} is in use by another server (pid ${error.holder?.pid ?? '?'}); ` +
              'stop that server or pick another data file.',
          );
        case 'LOCK_NOT_RECOGNISED':
          throw new DataFileError(
            'in-use',
            `${lockPath} is not a lock this server wrote; remove it if no server uses the data file.`,
          );
        case 'LOCK_CONTENDED':
          throw new DataFileError(
            'in-use',
            `Could not lock the data file ${this.path}: other servers kept taking and leaving ${lockPath}.`,
          );
      }
    }
  }

  /**
   * What killed servers left beside the file: their temporary files of a save, and the drafts and
   * claims of the lock whose process is gone. Only the lock's holder writes beside its file.
   */
  private async removeLeftovers(): Promise<void> {
    await removeLockLeftovers(`${this.path}.lock`);
    const directory = dirname(this.path);
    for (const name of await readdir(directory)) {
      if (isAtomicWriteTemporary(name, basename(this.path))) await unlink(join(directory, name)).catch(() => undefined);
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
      if (errnoCode(error) === 'ENOENT') return undefined;
      throw new DataFileError('unreadable', `Cannot read the data file ${this.path}: ${errorPhrase(error)}.`);
    }
    try {
      return parseSnapshot(JSON.parse(text));
    } catch (error) {
      throw new DataFileError(
        'invalid',
        `The data file ${this.path} is not a data file of this server: ${errorPhrase(error)}.`,
      );
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
      if (errnoCode(error) === 'ENOENT' || errnoCode(error) === 'ENOTDIR') {
        throw new DataFileError('directory-missing', `The directory ${directory} of the data file does not exist.`);
      }
      throw new DataFileError(
        'not-writable',
        `Cannot look at the directory ${directory} of the data file: ${errorPhrase(error)}.`,
      );
    }
    if (!isDirectory)
      throw new DataFileError('directory-missing', `The directory ${directory} of the data file is not a directory.`);
  }

  private async writeAtomically(text: string): Promise<void> {
    try {
      await writeFileAtomic(this.path, text, { mode: 0o600 });
    } catch (error) {
      throw new DataFileError('write-failed', `Cannot write the data file ${this.path}: ${errorPhrase(error)}.`);
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
    // An empty group is none, as for seeds.
    const group = activity['groupName'];
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
    return {
      activityID: checkUUID(text(session['activityID'], `${at}.activityID`), `${at}.activityID`),
      startedAt,
      endedAt,
    };
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
    if (!seen.has(ref.activityID.toLowerCase()))
      throw new Error(`activity ${ref.activityID} is referenced but not listed`);
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
    const shown =
      typeof value === 'number'
        ? `, not ${value}`
        : value === undefined
          ? ''
          : `, not ${value === null ? 'null' : `a ${typeof value}`}`;
    throw new Error(`${what} must be a whole number of milliseconds since 1970${shown}`);
  }
  return value;
}
