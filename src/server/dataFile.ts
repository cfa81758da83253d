/**
 * `--data FILE`: activities, sessions and entries kept across restarts. Writes go to a temporary
 * file that is flushed and then renamed over the old one, so a crash mid-write leaves either the
 * old file or the new one, never a torn one.
 */
import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Activity, Entry, RunningSession, Session, StateSnapshot } from './state';

const FORMAT_VERSION = 1;

export class DataFileError extends Error {
  override name = 'DataFileError';
}

export class DataFile {
  private pending: Promise<void> = Promise.resolve();

  constructor(readonly path: string) {}

  /** The saved state, or undefined when the file does not exist yet. */
  async load(): Promise<StateSnapshot | undefined> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if (isErrno(error, 'ENOENT')) return undefined;
      throw new DataFileError(`Cannot read the data file ${this.path}: ${describe(error)}.`);
    }
    try {
      return parseSnapshot(JSON.parse(text));
    } catch (error) {
      throw new DataFileError(`The data file ${this.path} is not a data file of this server: ${describe(error)}.`);
    }
  }

  /** Saves are chained so that two overlapping saves never interleave and the last one wins. */
  save(snapshot: StateSnapshot): Promise<void> {
    const text = `${JSON.stringify({ version: FORMAT_VERSION, ...snapshot }, null, 2)}\n`;
    const run = this.pending.then(() => this.writeAtomically(text));
    this.pending = run.catch(() => undefined);
    return run;
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
      await rm(temporary, { force: true });
      throw new DataFileError(`Cannot write the data file ${this.path}: ${describe(error)}.`);
    }
  }
}

function parseSnapshot(value: unknown): StateSnapshot {
  const root = record(value, 'the file');
  if (root['version'] !== FORMAT_VERSION) throw new Error(`version must be ${FORMAT_VERSION}`);
  const activities = list(root['activities'], 'activities').map((item, index): Activity => {
    const activity = record(item, `activities[${index}]`);
    // Files written before activities had groups have no groupName: none.
    const groupName = activity['groupName'] ?? null;
    if (groupName !== null && typeof groupName !== 'string') throw new Error(`activities[${index}].groupName must be a string or null`);
    return { id: text(activity['id'], `activities[${index}].id`), name: text(activity['name'], `activities[${index}].name`), groupName };
  });
  const sessions = list(root['sessions'], 'sessions').map((item, index): Session => {
    const session = record(item, `sessions[${index}]`);
    return {
      activityID: text(session['activityID'], `sessions[${index}].activityID`),
      startedAt: num(session['startedAt'], `sessions[${index}].startedAt`),
      endedAt: num(session['endedAt'], `sessions[${index}].endedAt`),
    };
  });
  const entries = list(root['entries'], 'entries').map((item, index): Entry => {
    const entry = record(item, `entries[${index}]`);
    const note = entry['note'];
    if (note !== null && typeof note !== 'string') throw new Error(`entries[${index}].note must be a string or null`);
    return {
      entryID: text(entry['entryID'], `entries[${index}].entryID`),
      activityID: text(entry['activityID'], `entries[${index}].activityID`),
      durationMinutes: num(entry['durationMinutes'], `entries[${index}].durationMinutes`),
      note,
      loggedAt: num(entry['loggedAt'], `entries[${index}].loggedAt`),
    };
  });
  let running: RunningSession | null = null;
  if (root['running'] !== null && root['running'] !== undefined) {
    const session = record(root['running'], 'running');
    running = { activityID: text(session['activityID'], 'running.activityID'), startedAt: num(session['startedAt'], 'running.startedAt') };
  }
  // Ids are compared without regard to case, as every lookup of the service does.
  const known = new Set(activities.map((activity) => activity.id.toLowerCase()));
  for (const ref of [...sessions, ...entries, ...(running ? [running] : [])]) {
    if (!known.has(ref.activityID.toLowerCase())) throw new Error(`activity ${ref.activityID} is referenced but not listed`);
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

function num(value: unknown, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Error(`${what} must be a number`);
  return value;
}

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
}
