/**
 * A lock shared by every editor window on this machine: a file created with O_EXCL that names its
 * owner (pid, host name, a random token). A lock whose owner's process is gone is taken over at
 * once; any lock is taken over once it is older than `staleMs` (a pid the system gave to another
 * process since, an owner on another machine sharing the folder, a file an older version wrote).
 *
 * "Check, then remove" races (issue 12: two windows inside at once in 25 of 200 rounds): two
 * windows find the same dead lock, one removes it and makes its own, the other removes that one
 * too. So a lock file is removed only by whoever holds the claim on it,
 * `<lock>.claim-<hash of that file's contents>`, itself created with O_EXCL: one remover at a time
 * per lock file. The claim's holder reads the lock again and removes it only if it is still the
 * very file it meant; a lock made since has other contents (its own token) and stays. Letting go
 * of one's own lock goes the same way, so a window that stalled past `staleMs` and was taken over
 * never removes the lock of the window that took over. A claim lasts a few file operations; one
 * left by a process that died meanwhile is cleared by a claim of its own.
 */
import { createHash, randomUUID } from 'node:crypto';
import { open, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import * as l10n from '@vscode/l10n';
import { processIsRunning } from '../../client/processes';

export interface FileLockOptions {
  /** After this long any lock is taken over, even one whose owner seems to run (default 30 s). */
  readonly staleMs?: number;
  /** How long to wait for the lock before giving up with one sentence (default 5 s). */
  readonly timeoutMs?: number;
  /** How often to look again while another window holds it (default 25 ms). */
  readonly retryMs?: number;
}

type Settings = Required<FileLockOptions>;

/** Who made a lock or claim file, as written in it. */
interface Owner {
  readonly pid: number;
  readonly host: string;
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

export async function withFileLock<T>(path: string, work: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const settings = settingsOf(options);
  const mine = await acquire(path, settings);
  try {
    return await work();
  } finally {
    // The work is done and its result stands: a lock that cannot be removed is taken over later.
    await release(path, mine, settings).catch(() => undefined);
  }
}

/**
 * Removes the lock file at `path` only while it still has `contents` (as this version writes
 * them), one remover at a time: what taking over and letting go both do. Exported for the tests.
 */
export function removeLockIfStill(path: string, contents: string, options: FileLockOptions = {}): Promise<'removed' | 'gone' | 'busy'> {
  return removeIfStill(path, path, contents, settingsOf(options));
}

/** Where the claim on the lock file with these contents is (exported for the tests). */
export function claimFor(lockPath: string, contents: string): string {
  return `${lockPath}.claim-${createHash('sha256').update(contents).digest('hex').slice(0, 16)}`;
}

function settingsOf(options: FileLockOptions): Settings {
  return { staleMs: options.staleMs ?? 30_000, timeoutMs: options.timeoutMs ?? 5_000, retryMs: options.retryMs ?? 25 };
}

async function acquire(path: string, settings: Settings): Promise<string> {
  const deadline = Date.now() + settings.timeoutMs;
  let held: Found | undefined;
  for (;;) {
    // While a lock is there, making one fails: look (a stat) until it is gone or stale.
    if (held === undefined) {
      const mine = await create(path);
      if (mine !== undefined) return mine;
    }
    held = await inspect(path, held);
    if (held === undefined) continue;
    if (isStale(held, settings, true) && (await removeIfStill(path, path, held.identity, settings)) !== 'busy') {
      held = undefined;
      continue;
    }
    if (Date.now() > deadline) throw new Error(l10n.t('Another window holds {0}; try again in a moment.', path));
    await new Promise((resolve) => setTimeout(resolve, settings.retryMs));
  }
}

async function release(path: string, mine: string, settings: Settings): Promise<void> {
  const deadline = Date.now() + settings.timeoutMs;
  while ((await removeIfStill(path, path, mine, settings)) === 'busy' && Date.now() <= deadline) {
    await new Promise((resolve) => setTimeout(resolve, settings.retryMs));
  }
}

/**
 * Removes `path` only if it is still the file `identity`, under the claim on that file; `busy`
 * when another process holds the claim. Claims on claims are named after the lock (`base`).
 */
async function removeIfStill(base: string, path: string, identity: string, settings: Settings): Promise<'removed' | 'gone' | 'busy'> {
  const claim = claimFor(base, identity);
  if ((await create(claim)) === undefined) {
    const other = await inspect(claim);
    // A claim lasts a few file operations: one whose process is gone will never be let go of.
    if (other !== undefined && isStale(other, settings, false)) await removeIfStill(base, claim, other.identity, settings);
    return 'busy';
  }
  try {
    if ((await inspect(path))?.identity !== identity) return 'gone';
    await removeFile(path);
    return 'removed';
  } finally {
    // Ours: a claim is taken over only when its process is gone (`isStale(…, false)`).
    await removeFile(claim);
  }
}

/** Creates the file if there is none; its contents (the identity) when it did, else undefined. */
async function create(path: string): Promise<string | undefined> {
  const contents = JSON.stringify({ pid: process.pid, host: hostname(), token: randomUUID() } satisfies Owner);
  let handle;
  try {
    handle = await open(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw error;
  }
  try {
    await handle.writeFile(contents);
  } catch (error) {
    // Ours and empty: nobody else can have taken it yet, and an empty lock would hold for staleMs.
    await handle.close();
    await removeFile(path);
    throw error;
  }
  await handle.close();
  return contents;
}

/**
 * The file as it is now, or undefined if there is none. While it is the same file as `last`
 * (inode, size, time), it is not read again: waiting windows poll, and every read slows the
 * holder down. A wrong guess costs nothing, since a file is removed only after reading it again.
 */
async function inspect(path: string, last?: Found): Promise<Found | undefined> {
  if (last !== undefined) {
    const info = await stat(path).catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    });
    if (info === undefined) return undefined;
    if (`${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}` === last.file) return { ...last, ageMs: Date.now() - info.mtimeMs };
  }
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    // One open file for both: the contents and the age are of the same file.
    const info = await handle.stat();
    const contents = await handle.readFile('utf8');
    const owner = parseOwner(contents);
    // Without a token (empty, half written, an older version's `pid date`), the inode tells files apart.
    const identity = owner === undefined ? `${info.dev}:${info.ino}:${contents}` : contents;
    return { identity, owner, ageMs: Date.now() - info.mtimeMs, file: `${info.dev}:${info.ino}:${info.size}:${info.mtimeMs}` };
  } finally {
    await handle.close();
  }
}

/** Removes a file; one already gone is fine. */
async function removeFile(path: string): Promise<void> {
  await unlink(path).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  });
}

function parseOwner(contents: string): Owner | undefined {
  try {
    const parsed = JSON.parse(contents) as Partial<Owner> | null;
    if (typeof parsed?.pid === 'number' && typeof parsed.host === 'string' && typeof parsed.token === 'string') {
      return { pid: parsed.pid, host: parsed.host, token: parsed.token };
    }
  } catch {
    // Not written by this version: judged by its age alone.
  }
  return undefined;
}

/**
 * A lock or claim whose owner ran on this machine is stale once that process is gone; a lock also
 * once it is older than `staleMs` (`byAge`), a claim never while its process runs. What cannot be
 * checked (another machine, no owner written) is stale by age alone.
 */
function isStale(found: Found, settings: Settings, byAge: boolean): boolean {
  const old = found.ageMs > settings.staleMs;
  if (found.owner === undefined || found.owner.host !== hostname()) return old;
  return !processIsRunning(found.owner.pid) || (byAge && old);
}
