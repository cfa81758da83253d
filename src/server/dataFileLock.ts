/**
 * The lock that makes one server the only writer of a data file for as long as it runs: two
 * servers on one file would each save their own state over the other's, and writes would be
 * lost. `FILE.lock` holds `{"pid", "nonce"}` of its holder. It is created whole by a hard link
 * from a draft file (never seen empty or half written), which fails if the lock exists.
 *
 * A lock whose holder no longer runs is stale and is taken over, but never by removing a lock one
 * did not take: to remove a stale record, a taker first creates `FILE.lock.takeover-<its nonce>`,
 * which only one taker can, and removes the record only while it is still that very record.
 * Nothing else replaces a lock its holder left, so between that check and the removal it cannot
 * change. A taker killed in the middle leaves a claim whose holder no longer runs: that claim is
 * stale in the same way and is taken over the same way.
 */
import { randomBytes } from 'node:crypto';
import { link, readFile, readdir, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

interface LockRecord {
  readonly pid: number;
  readonly nonce: string;
}

/** Why a lock was not taken; `holderPid` when another server holds it. */
export class DataFileLockError extends Error {
  override name = 'DataFileLockError';

  constructor(
    message: string,
    readonly holderPid?: number,
  ) {
    super(message);
  }
}

/** Rounds of "create, or see who holds it and take it over if stale"; a few suffice, the rest is a margin. */
const MAX_ROUNDS = 50;
/** How long to let a live taker finish its takeover before looking again. */
const TAKEOVER_PAUSE_MS = 10;
/** Claims on claims: each level needs a taker killed mid-way, so deep chains are not real. */
const MAX_CLAIM_DEPTH = 8;

/**
 * Nonces of the locks and claims this process holds or is taking. Two servers in one process
 * (tests) share a pid, so a record with this pid is alive exactly when its nonce is here; with
 * this pid and another nonce it is a dead process's whose pid the OS has handed out again.
 */
const liveHere = new Set<string>();

export class DataFileLock {
  private released = false;

  private constructor(
    readonly path: string,
    private readonly record: LockRecord,
  ) {}

  /**
   * Takes the lock of `dataPath`, taking over a stale one; throws a DataFileLockError naming the
   * holder's pid when a running server holds it. Errors of the file system (a directory that
   * cannot be written) come as they are, for the caller to put into words.
   */
  static async acquire(dataPath: string): Promise<DataFileLock> {
    const lockPath = `${dataPath}.lock`;
    const record: LockRecord = { pid: process.pid, nonce: randomBytes(16).toString('hex') };
    const draft = `${lockPath}.${record.nonce}.tmp`;
    liveHere.add(record.nonce);
    let taken = false;
    try {
      await writeFile(draft, `${JSON.stringify(record)}\n`, { flag: 'wx', mode: 0o600 });
      for (let round = 0; round < MAX_ROUNDS; round++) {
        if (await linkExclusive(draft, lockPath)) {
          taken = true;
          return new DataFileLock(lockPath, record);
        }
        const holder = await readRecord(lockPath);
        if (holder === undefined) continue;
        if (isRunning(holder)) {
          throw new DataFileLockError(
            `The data file ${dataPath} is in use by another server (pid ${holder.pid}); stop that server or pick another data file.`,
            holder.pid,
          );
        }
        await removeStale(lockPath, holder, draft, lockPath, 0);
      }
      throw new DataFileLockError(`Could not lock the data file ${dataPath}: other servers kept taking and leaving ${lockPath}.`);
    } finally {
      if (!taken) liveHere.delete(record.nonce);
      await unlink(draft).catch(ignoreMissing);
    }
  }

  /** Removes the lock if it is still this one; never a lock another server has taken since. */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    try {
      const current = await readRecord(this.path);
      if (current?.nonce === this.record.nonce) await unlink(this.path).catch(ignoreMissing);
    } catch {
      // A lock that cannot be read cannot be told apart from someone else's: leave it, stale.
    } finally {
      liveHere.delete(this.record.nonce);
    }
  }

  /**
   * Removes what killed servers left next to the data file: their atomic-write temporaries
   * (`.FILE.<pid>.tmp`), lock drafts, and takeover claims whose holder no longer runs. Only the
   * lock holder calls this, and no other server writes beside its file.
   */
  async removeLeftovers(dataPath: string): Promise<string[]> {
    const directory = dirname(dataPath);
    const base = basename(dataPath);
    const temporary = new RegExp(`^\\.${escapeRegExp(base)}\\.[0-9]+\\.tmp$`);
    const lockDraft = new RegExp(`^${escapeRegExp(base)}\\.lock\\.[0-9a-f]{32}\\.tmp$`);
    const claim = new RegExp(`^${escapeRegExp(base)}\\.lock\\.takeover-[0-9a-f]{32}$`);
    const removed: string[] = [];
    for (const name of await readdir(directory)) {
      const path = join(directory, name);
      let litter = temporary.test(name);
      if (lockDraft.test(name) || claim.test(name)) {
        const record = await readRecord(path).catch(() => undefined);
        litter = record !== undefined && !isRunning(record);
      }
      if (litter && (await unlink(path).then(() => true, () => false))) removed.push(path);
    }
    return removed;
  }
}

/**
 * Removes the stale `record` at `path` (the lock, or a dead taker's claim) if this taker is the
 * one allowed to; otherwise lets the live taker finish. Either way the caller looks again.
 */
async function removeStale(path: string, record: LockRecord, draft: string, lockPath: string, depth: number): Promise<void> {
  const claim = `${lockPath}.takeover-${record.nonce}`;
  if (await linkExclusive(draft, claim)) {
    try {
      // Still that very record: only the holder of this claim may remove it, and that is us.
      const current = await readRecord(path);
      if (current?.nonce === record.nonce) await unlink(path).catch(ignoreMissing);
    } finally {
      await unlink(claim).catch(ignoreMissing);
    }
    return;
  }
  const claimer = await readRecord(claim);
  if (claimer === undefined) return;
  if (isRunning(claimer)) {
    await new Promise((resolve) => setTimeout(resolve, TAKEOVER_PAUSE_MS));
    return;
  }
  if (depth < MAX_CLAIM_DEPTH) await removeStale(claim, claimer, draft, lockPath, depth + 1);
}

/** A hard link that fails when the name exists: true when created, false when taken. */
async function linkExclusive(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw error;
  }
}

/** The record at `path`, or undefined when there is none (any more). */
async function readRecord(path: string): Promise<LockRecord | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const record = value as Partial<LockRecord> | undefined;
  if (typeof record?.pid !== 'number' || !Number.isInteger(record.pid) || record.pid <= 0 || typeof record.nonce !== 'string') {
    throw new DataFileLockError(`${path} is not a lock this server wrote; remove it if no server uses the data file.`);
  }
  return { pid: record.pid, nonce: record.nonce };
}

function isRunning(record: LockRecord): boolean {
  if (liveHere.has(record.nonce)) return true;
  if (record.pid === process.pid) return false;
  try {
    process.kill(record.pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return errnoCode(error) === 'EPERM';
  }
}

function ignoreMissing(error: unknown): void {
  if (errnoCode(error) !== 'ENOENT') throw error;
}

function errnoCode(error: unknown): string | undefined {
  return error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
