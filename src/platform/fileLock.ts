/**
 * The one file lock: a record file that names its holder (pid, host, a random token), for the
 * reference server's data file and for the offline queue every editor window shares. Two policies
 * over one mechanism (see `lockForProcessLife` and `withShortLock` at the end).
 *
 * The record is written to a draft file and made the lock by a hard link, which fails when the lock
 * exists: a lock is never seen empty or half written. A lock whose holder is gone is stale and may
 * be taken over, but "check, then remove" races: two takers find the same dead lock, one removes it
 * and makes its own, the other removes that one too. So a lock file is removed only by whoever
 * holds the claim on that very file, `<lock>.claim-<hash of its identity>`, itself made by a hard
 * link (one remover at a time per lock file), and only while it is still that file: a lock made
 * since has another token and stays. Letting go of one's own lock goes the same way, so a holder
 * that stalled and was taken over never removes its successor's lock. A claim lasts a few file
 * operations; one left by a process that died meanwhile is cleared under a claim of its own.
 *
 * The lock file is read with the bounded read: a FIFO or a huge file put at its path is judged as
 * a file that is no lock, never waited on. A busy lock is a coded FileLockError; the sentence the
 * user reads is the caller's (the platform has no translations). The records and claims themselves
 * (who holds a file, whether it is still that file, when it is stale) are ./lockRecords.ts.
 */
import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import {
  claimPathFor,
  heldHere,
  holderState,
  inspect,
  judgeClaim,
  judgeLock,
  linkExclusive,
  removeFile,
  withDraft,
  type Found,
  type Owner,
  type Policy,
} from './lockRecords';
import { thisMachine, type ThisMachine } from './machine';
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
    readonly holder?: { readonly pid: number; readonly host: string },
  ) {
    super(message);
  }
}

/** Longest wait for takers that remove a stale lock (or a claim) meanwhile: their work lasts milliseconds. */
const CONTENDED_WAIT_MS = 2_000;
/** Claims on claims: each level needs a taker killed mid-way, so deep chains are not real. */
const MAX_CLAIM_DEPTH = 8;

/** A lock this process holds until `release()`. */
export class FileLock {
  private released = false;

  constructor(
    readonly path: string,
    private readonly owner: Owner,
    private readonly policy: Policy,
    private readonly here: ThisMachine,
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
          (await removeIfStill(this.path, this.path, this.owner.token, draft, this.policy, this.here, 0)) === 'busy' &&
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
  const here = await thisMachine();
  const token = randomBytes(16).toString('hex');
  const owner: Owner = { pid: process.pid, host: here.hostname, machine: here.id, token };
  heldHere.add(owner.token);
  let taken = false;
  try {
    const lock = await withDraft(path, owner, (draft) => takeWithDraft(path, draft, owner, policy, here));
    taken = true;
    return lock;
  } finally {
    if (!taken) heldHere.delete(owner.token);
  }
}

async function takeWithDraft(
  path: string,
  draft: string,
  owner: Owner,
  policy: Policy,
  here: ThisMachine,
): Promise<FileLock> {
  const started = Date.now();
  let held: Found | undefined;
  for (;;) {
    // While a lock is there, making one fails: look (a stat) until it is gone or stale.
    if (held === undefined && (await linkExclusive(draft, path))) return new FileLock(path, owner, policy, here);
    held = await inspect(path, held);
    if (held === undefined) continue;
    const verdict = judgeLock(held, policy, here);
    if (verdict === 'notALock') throw notALock(path);
    if (verdict === 'stale') {
      if ((await removeIfStill(path, path, held.identity, draft, policy, here, 0)) !== 'busy') {
        held = undefined;
        continue;
      }
      if (Date.now() - started > Math.max(policy.timeoutMs, CONTENDED_WAIT_MS)) throw contended(path);
    } else if (Date.now() - started >= policy.timeoutMs) {
      throw heldBy(path, held.owner, here);
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
  here: ThisMachine,
  depth: number,
): Promise<'removed' | 'gone' | 'busy'> {
  const claim = claimPathFor(lockPath, identity);
  if (!(await linkExclusive(draft, claim))) {
    const other = await inspect(claim);
    // A claim lasts a few file operations: one whose process is gone will never be let go of.
    if (other !== undefined && judgeClaim(other, policy, here) === 'stale' && depth < MAX_CLAIM_DEPTH) {
      await removeIfStill(lockPath, claim, other.identity, draft, policy, here, depth + 1);
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

function heldBy(path: string, owner: Owner | undefined, here: ThisMachine): FileLockError {
  if (owner === undefined)
    return new FileLockError(
      'LOCK_HELD',
      `${path} is held (by a file that is no lock record, not old enough to take over).`,
    );
  const where = owner.machine === here.id ? '' : ` on ${owner.host}`;
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
  const here = await thisMachine();
  const removed: string[] = [];
  for (const name of await readdir(folder)) {
    if (!leftover.test(name)) continue;
    const path = join(folder, name);
    const found = await inspect(path).catch(() => undefined);
    if (found?.owner === undefined || holderState(found.owner, here) !== 'gone') continue;
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
    staleMs: options.staleMs ?? 30_000,
    timeoutMs: options.timeoutMs ?? 5_000,
    retryMs: options.retryMs ?? 25,
  });
  try {
    return await work();
  } finally {
    await lock.release();
  }
}
