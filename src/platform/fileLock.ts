/* eslint-disable max-lines -- TEMPORARY: over 400 lines since the Prettier reformat; split in the house-3 work */
/**
 * The one file lock: a record file that names its holder (pid, host, a random token), for the
 * reference server's data file and for the offline queue every editor window shares. Two policies
 * over one mechanism (see `lockForProcessLife` and `withShortLock` at the end).
 *
 * The record is written to a draft file and made the lock by a hard link, which fails when the
 * lock exists: a lock is never seen empty or half written. A lock whose holder is gone is stale and
 * may be taken over, but "check, then remove" races (issue 12: two windows inside at once in 25 of
 * 200 rounds): two takers find the same dead lock, one removes it and makes its own, the other
 * removes that one too. So a lock file is removed only by whoever holds the claim on that very
 * file, `<lock>.claim-<hash of its identity>`, itself made by a hard link (one remover at a time
 * per lock file), and only while it is still that file: a lock made since has another token and
 * stays. Letting go of one's own lock goes the same way, so a holder that stalled and was taken
 * over never removes its successor's lock. A claim lasts a few file operations; one left by a
 * process that died meanwhile is cleared under a claim of its own.
 *
 * The lock file is read with the bounded read: a FIFO or a huge file put at its path is judged as
 * a file that is no lock, never waited on. A busy lock is a coded FileLockError; the sentence the
 * user reads is the caller's (the platform has no translations).
 */
import { createHash, randomBytes } from 'node:crypto';
import { link, lstat, readdir, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { FileReadError, readBoundedFile } from './boundedRead';
import { errnoCode } from './errors';
import { processIsRunning } from './processes';
import { pause } from './timers';

export type FileLockProblem =
  /** A running holder has it (or, where it cannot be checked, a holder not yet stale by age). */
  | 'LOCK_HELD'
  /** The file at the lock's path is no lock record, and the policy does not judge such a file by age. */
  | 'LOCK_NOT_RECOGNISED'
  /** Other takers kept taking and leaving it for longer than the policy waits. */
  | 'LOCK_CONTENDED';

export class FileLockError extends Error {
  override name = 'FileLockError';

  constructor(
    readonly code: FileLockProblem,
    message: string,
    /** For LOCK_HELD: the holder's pid and host, as its record says. */
    readonly holder?: { readonly pid: number; readonly host: string | undefined },
  ) {
    super(message);
  }
}

/** Who made a lock or claim file, as written in it. */
interface Owner {
  readonly pid: number;
  /** Undefined in the records of servers before the one lock: they ran on this machine. */
  readonly host: string | undefined;
  readonly token: string;
}

/** A lock or claim file as found: `identity` tells it from any other file later made under its name. */
interface Found {
  readonly identity: string;
  readonly owner: Owner | undefined;
  readonly ageMs: number;
  /** Inode, size and time, to tell whether the file is still this one without reading it. */
  readonly file: string;
}

interface Policy {
  /** Any lock older than this is stale, even one whose holder seems to run; undefined: never by age. */
  readonly staleMs: number | undefined;
  /** How long to wait for a running holder; 0 fails at once. */
  readonly timeoutMs: number;
  readonly retryMs: number;
}

/** Longest wait for takers that remove a stale lock (or a claim) meanwhile: their work lasts milliseconds. */
const CONTENDED_WAIT_MS = 2_000;
/** Claims on claims: each level needs a taker killed mid-way, so deep chains are not real. */
const MAX_CLAIM_DEPTH = 8;
/** A record is a line of JSON; a file much larger than this is no record. */
const MAX_RECORD_BYTES = 4_096;

/**
 * Tokens of the locks and claims this process holds or is taking. Two holders in one process
 * (two servers in a test, two queues) share a pid, so a record with this pid runs exactly when
 * its token is here; with this pid and another token it is a dead process's whose pid the system
 * handed out again.
 */
const heldHere = new Set<string>();

/** A lock this process holds until `release()`. */
export class FileLock {
  private released = false;

  constructor(
    readonly path: string,
    private readonly owner: Owner,
    private readonly policy: Policy,
  ) {}

  /**
   * Removes the lock if it is still this one; never a lock another process has taken over since.
   * Never rejects: a lock that could not be removed is stale once this process is gone.
   */
  async release(): Promise<void> {
    if (this.released) return;
    this.released = true;
    try {
      await withDraft(this.path, this.owner, async (draft) => {
        const deadline = Date.now() + Math.max(this.policy.timeoutMs, CONTENDED_WAIT_MS);
        while (
          (await removeIfStill(this.path, this.path, this.owner.token, draft, this.policy, 0)) === 'busy' &&
          Date.now() <= deadline
        ) {
          await pause(this.policy.retryMs);
        }
      });
    } catch {
      // See above: left for the next taker to judge stale.
    } finally {
      heldHere.delete(this.owner.token);
    }
  }
}

/** Takes the lock at `path` under `policy`, taking over a stale one; a FileLockError says why not. */
async function acquire(path: string, policy: Policy): Promise<FileLock> {
  const owner: Owner = { pid: process.pid, host: hostname(), token: randomBytes(16).toString('hex') };
  heldHere.add(owner.token);
  let taken = false;
  try {
    const lock = await withDraft(path, owner, (draft) => takeWithDraft(path, draft, owner, policy));
    taken = true;
    return lock;
  } finally {
    if (!taken) heldHere.delete(owner.token);
  }
}

async function takeWithDraft(path: string, draft: string, owner: Owner, policy: Policy): Promise<FileLock> {
  const started = Date.now();
  let held: Found | undefined;
  for (;;) {
    // While a lock is there, making one fails: look (a stat) until it is gone or stale.
    if (held === undefined && (await linkExclusive(draft, path))) return new FileLock(path, owner, policy);
    held = await inspect(path, held);
    if (held === undefined) continue;
    const verdict = judgeLock(held, policy);
    if (verdict === 'notALock') throw notALock(path);
    if (verdict === 'stale') {
      if ((await removeIfStill(path, path, held.identity, draft, policy, 0)) !== 'busy') {
        held = undefined;
        continue;
      }
      if (Date.now() - started > Math.max(policy.timeoutMs, CONTENDED_WAIT_MS)) throw contended(path);
    } else if (Date.now() - started >= policy.timeoutMs) {
      throw heldBy(path, held.owner);
    }
    await pause(policy.retryMs);
  }
}

/**
 * Removes `path` (the lock, or a claim on it) only if it is still the file `identity`, under the
 * claim on that file; `busy` when another process holds the claim. Claims on claims are named
 * after the lock, so one folder listing finds them all.
 */
async function removeIfStill(
  lockPath: string,
  path: string,
  identity: string,
  draft: string,
  policy: Policy,
  depth: number,
): Promise<'removed' | 'gone' | 'busy'> {
  const claim = claimPathFor(lockPath, identity);
  if (!(await linkExclusive(draft, claim))) {
    const other = await inspect(claim);
    // A claim lasts a few file operations: one whose process is gone will never be let go of.
    if (other !== undefined && judgeClaim(other, policy) === 'stale' && depth < MAX_CLAIM_DEPTH) {
      await removeIfStill(lockPath, claim, other.identity, draft, policy, depth + 1);
    }
    return 'busy';
  }
  try {
    if ((await inspect(path))?.identity !== identity) return 'gone';
    await removeFile(path);
    return 'removed';
  } finally {
    await removeFile(claim);
  }
}

/** Where the claim on the lock (or claim) file with this identity is. */
export function claimPathFor(lockPath: string, identity: string): string {
  return `${lockPath}.claim-${createHash('sha256').update(identity).digest('hex').slice(0, 16)}`;
}

/** Runs `work` with a draft file holding `owner`'s record beside the lock, removed after. */
async function withDraft<T>(lockPath: string, owner: Owner, work: (draft: string) => Promise<T>): Promise<T> {
  const draft = `${lockPath}.${owner.token}.tmp`;
  await writeFile(draft, `${JSON.stringify(owner)}\n`, { flag: 'wx', mode: 0o600 });
  try {
    return await work(draft);
  } finally {
    await removeFile(draft).catch(() => undefined);
  }
}

/** A hard link that fails when the name exists: true when made, false when taken. */
async function linkExclusive(from: string, to: string): Promise<boolean> {
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
async function inspect(path: string, last?: Found): Promise<Found | undefined> {
  try {
    if (last !== undefined) {
      const info = await lstat(path);
      if (fileKey(info) === last.file) return { ...last, ageMs: Date.now() - info.mtimeMs };
    }
    const { text, stats } = await readBoundedFile(path, { maxBytes: MAX_RECORD_BYTES, noFollow: true });
    const owner = parseOwner(text);
    // Without a token (an older version's `pid date`, something else), the inode tells files apart.
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

function fileKey(info: {
  readonly dev: number;
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}): string {
  return `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}`;
}

/** Removes a file; one already gone is fine. */
async function removeFile(path: string): Promise<void> {
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
  const { pid, host, token, nonce } = parsed as Record<string, unknown>;
  // `nonce`: the records the reference server wrote before the one lock.
  const id = typeof token === 'string' ? token : nonce;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0 || typeof id !== 'string' || id === '')
    return undefined;
  if (host !== undefined && typeof host !== 'string') return undefined;
  return { pid, host, token: id };
}

/** Whether the holder named in a record runs: `unknown` where it cannot be checked (another machine). */
function holderState(owner: Owner): 'running' | 'gone' | 'unknown' {
  if (heldHere.has(owner.token)) return 'running';
  if (owner.host !== undefined && owner.host !== hostname()) return 'unknown';
  if (owner.pid === process.pid) return 'gone';
  return processIsRunning(owner.pid) ? 'running' : 'gone';
}

/**
 * A lock is stale once its holder is gone, and under a policy with `staleMs` also once it is
 * older than that, whoever holds it (a pid the system gave to another process since, a holder on
 * another machine, a file this mechanism did not write). Without `staleMs` a file that is no
 * record can never become stale: it is refused.
 */
function judgeLock(found: Found, policy: Policy): 'live' | 'stale' | 'notALock' {
  const old = policy.staleMs !== undefined && found.ageMs > policy.staleMs;
  if (found.owner === undefined) return policy.staleMs === undefined ? 'notALock' : old ? 'stale' : 'live';
  const state = holderState(found.owner);
  return state === 'gone' || old ? 'stale' : 'live';
}

/** A claim is stale only once its process is gone (or, where that cannot be checked, by age). */
function judgeClaim(found: Found, policy: Policy): 'live' | 'stale' {
  const old = policy.staleMs !== undefined && found.ageMs > policy.staleMs;
  if (found.owner === undefined) return old ? 'stale' : 'live';
  const state = holderState(found.owner);
  return state === 'gone' || (state === 'unknown' && old) ? 'stale' : 'live';
}

function heldBy(path: string, owner: Owner | undefined): FileLockError {
  if (owner === undefined)
    return new FileLockError(
      'LOCK_HELD',
      `${path} is held (by a file that is no lock record, not old enough to take over).`,
    );
  const where = owner.host === undefined || owner.host === hostname() ? '' : ` on ${owner.host}`;
  return new FileLockError('LOCK_HELD', `${path} is held by process ${owner.pid}${where}.`, {
    pid: owner.pid,
    host: owner.host,
  });
}

function notALock(path: string): FileLockError {
  return new FileLockError('LOCK_NOT_RECOGNISED', `${path} is not a lock record this program wrote.`);
}

function contended(path: string): FileLockError {
  return new FileLockError('LOCK_CONTENDED', `Other processes kept taking and leaving ${path}.`);
}

/**
 * Removes what takers killed mid-way left beside the lock at `lockPath`: drafts and claims whose
 * process is gone (never one a running taker may still need). Returns the paths removed.
 */
export async function removeLockLeftovers(lockPath: string): Promise<string[]> {
  const base = basename(lockPath).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const leftover = new RegExp(`^${base}\\.([0-9a-f]{32}\\.tmp|claim-[0-9a-f]{16})$`);
  const folder = dirname(lockPath);
  const removed: string[] = [];
  for (const name of await readdir(folder)) {
    if (!leftover.test(name)) continue;
    const path = join(folder, name);
    const found = await inspect(path).catch(() => undefined);
    if (found?.owner === undefined || holderState(found.owner) !== 'gone') continue;
    if (
      await removeFile(path).then(
        () => true,
        () => false,
      )
    )
      removed.push(path);
  }
  return removed;
}

/**
 * Removes the lock file at `lockPath` only while it is still the file `identity` (its token, as
 * a record says), one remover at a time: what taking over and letting go both do. For tests.
 */
export async function removeLockIfStill(lockPath: string, identity: string): Promise<'removed' | 'gone' | 'busy'> {
  const owner: Owner = { pid: process.pid, host: hostname(), token: randomBytes(16).toString('hex') };
  heldHere.add(owner.token);
  try {
    return await withDraft(lockPath, owner, (draft) =>
      removeIfStill(lockPath, lockPath, identity, draft, SHORT_DEFAULTS, 0),
    );
  } finally {
    heldHere.delete(owner.token);
  }
}

// ---- the two policies ------------------------------------------------------------------------

/**
 * Held for the process's life (the reference server's data file): a running holder makes it fail
 * at once with LOCK_HELD naming the holder's pid; only a holder that is gone makes it stale, and a
 * file at its path that is no lock is refused (LOCK_NOT_RECOGNISED), never taken over.
 */
export function lockForProcessLife(path: string): Promise<FileLock> {
  return acquire(path, { staleMs: undefined, timeoutMs: 0, retryMs: 10 });
}

export interface ShortLockOptions {
  /** After this long any lock is taken over, even one whose holder seems to run (default 30 s). */
  readonly staleMs?: number;
  /** How long to wait for the lock before failing with LOCK_HELD (default 5 s). */
  readonly timeoutMs?: number;
  /** How often to look again while another holds it (default 25 ms). */
  readonly retryMs?: number;
}

const SHORT_DEFAULTS: Policy = { staleMs: 30_000, timeoutMs: 5_000, retryMs: 25 };

/**
 * Held for a few file operations (the offline queue, shared by every window): waits a bounded
 * time for the holder, takes over a lock whose holder is gone at once and any lock older than
 * `staleMs`, runs `work`, and lets go. The work's result stands even when letting go fails.
 */
export async function withShortLock<T>(
  path: string,
  work: () => Promise<T>,
  options: ShortLockOptions = {},
): Promise<T> {
  const lock = await acquire(path, {
    staleMs: options.staleMs ?? SHORT_DEFAULTS.staleMs,
    timeoutMs: options.timeoutMs ?? SHORT_DEFAULTS.timeoutMs,
    retryMs: options.retryMs ?? SHORT_DEFAULTS.retryMs,
  });
  try {
    return await work();
  } finally {
    await lock.release();
  }
}
