/**
 * The lock's records and claims, below the policies of ./fileLock.ts: who a lock or claim file
 * names (pid, host, token), how such a file is found and told from any file later made under its
 * name, whether its holder still runs, and when a lock or a claim is stale. The tokens of what this
 * process holds are kept here, so that two holders in one process tell each other apart.
 */
import { createHash } from 'node:crypto';
import { link, lstat, unlink, writeFile } from 'node:fs/promises';
import { FileReadError, readBoundedFile } from './boundedRead';
import { errnoCode } from './errors';
import type { ThisMachine } from './machine';
import { processIsRunning } from './processes';

/** Who made a lock or claim file, as written in it. */
export interface Owner {
  readonly pid: number;
  /** The writer's host name then: what messages name. */
  readonly host: string;
  /** The writer's machine id (./machine.ts): what tells this machine's records from another's. */
  readonly machine: string;
  readonly token: string;
}

/** A lock or claim file as found: `identity` tells it from any other file later made under its name. */
export interface Found {
  readonly identity: string;
  readonly owner: Owner | undefined;
  readonly ageMs: number;
  /** Inode, size and time, to tell whether the file is still this one without reading it. */
  readonly file: string;
}

export interface Policy {
  /** Any lock older than this is stale, even one whose holder seems to run; undefined: never by age. */
  readonly staleMs: number | undefined;
  /** How long to wait for a running holder; 0 fails at once. */
  readonly timeoutMs: number;
  readonly retryMs: number;
}

/** A record is a line of JSON; a file much larger than this is no record. */
const MAX_RECORD_BYTES = 4_096;

/**
 * Tokens of the locks and claims this process holds or is taking. Two holders in one process
 * (two servers in a test, two queues) share a pid, so a record with this pid runs exactly when
 * its token is here; with this pid and another token it is a dead process's whose pid the system
 * handed out again.
 */
export const heldHere = new Set<string>();

/** Where the claim on the lock (or claim) file with this identity is. */
export function claimPathFor(lockPath: string, identity: string): string {
  return `${lockPath}.claim-${createHash('sha256').update(identity).digest('hex').slice(0, 16)}`;
}

/** Runs `work` with a draft file holding `owner`'s record beside the lock, removed after. */
export async function withDraft<T>(lockPath: string, owner: Owner, work: (draft: string) => Promise<T>): Promise<T> {
  const draft = `${lockPath}.${owner.token}.tmp`;
  await writeFile(draft, `${JSON.stringify(owner)}\n`, { flag: 'wx', mode: 0o600 });
  try {
    return await work(draft);
  } finally {
    await removeFile(draft).catch(() => undefined);
  }
}

/** A hard link that fails when the name exists: true when made, false when taken. */
export async function linkExclusive(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw error;
  }
}

/**
 * The file as it is now, or undefined if there is none. While it is the same file as `last`
 * (inode, size, time), it is not read again: waiting takers poll, and every read slows the holder
 * down. A wrong guess costs nothing, since a file is removed only after reading it again.
 */
export async function inspect(path: string, last?: Found): Promise<Found | undefined> {
  try {
    if (last !== undefined) {
      const info = await lstat(path);
      if (fileKey(info) === last.file) return { ...last, ageMs: Date.now() - info.mtimeMs };
    }
    const { text, stats } = await readBoundedFile(path, { maxBytes: MAX_RECORD_BYTES, noFollow: true });
    const owner = parseOwner(text);
    // A file that is no record has no token: the inode tells such files apart.
    const identity = owner === undefined ? `${stats.dev}:${stats.ino}:${text}` : owner.token;
    return { identity, owner, ageMs: Date.now() - stats.mtimeMs, file: fileKey(stats) };
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    if (!(error instanceof FileReadError) && errnoCode(error) !== 'ELOOP') throw error;
    // A FIFO, a device, a link or a huge file at the lock's path: no lock, judged as such.
    const info = await lstat(path).catch(() => undefined);
    if (info === undefined) return undefined;
    return {
      identity: `${info.dev}:${info.ino}:`,
      owner: undefined,
      ageMs: Date.now() - info.mtimeMs,
      file: fileKey(info),
    };
  }
}

export function fileKey(info: {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}`;
}

/** Removes a file; one already gone is fine. */
export async function removeFile(path: string): Promise<void> {
  await unlink(path).catch((error: unknown) => {
    if (errnoCode(error) !== 'ENOENT') throw error;
  });
}

function parseOwner(text: string): Owner | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { pid, host, machine, token } = parsed as Record<string, unknown>;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0 || typeof token !== 'string' || token === '')
    return undefined;
  if (typeof host !== 'string' || typeof machine !== 'string') return undefined;
  return { pid, host, machine, token };
}

/** Whether the holder named in a record runs: `unknown` where it cannot be checked (another machine). */
export function holderState(owner: Owner, here: ThisMachine): 'running' | 'gone' | 'unknown' {
  if (heldHere.has(owner.token)) return 'running';
  if (owner.machine !== here.id) return 'unknown';
  if (owner.pid === process.pid) return 'gone';
  return processIsRunning(owner.pid) ? 'running' : 'gone';
}

/**
 * A lock is stale once its holder is gone, and under a policy with `staleMs` also once it is
 * older than that, whoever holds it (a pid the system gave to another process since, a holder on
 * another machine, a file this mechanism did not write). Without `staleMs` a file that is no
 * record can never become stale: it is refused.
 */
export function judgeLock(found: Found, policy: Policy, here: ThisMachine): 'live' | 'stale' | 'notALock' {
  const old = policy.staleMs !== undefined && found.ageMs > policy.staleMs;
  if (found.owner === undefined) return policy.staleMs === undefined ? 'notALock' : old ? 'stale' : 'live';
  const state = holderState(found.owner, here);
  return state === 'gone' || old ? 'stale' : 'live';
}

/** A claim is stale only once its process is gone (or, where that cannot be checked, by age). */
export function judgeClaim(found: Found, policy: Policy, here: ThisMachine): 'live' | 'stale' {
  const old = policy.staleMs !== undefined && found.ageMs > policy.staleMs;
  if (found.owner === undefined) return old ? 'stale' : 'live';
  const state = holderState(found.owner, here);
  return state === 'gone' || (state === 'unknown' && old) ? 'stale' : 'live';
}
