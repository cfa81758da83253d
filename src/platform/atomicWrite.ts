/**
 * The one atomic write: the server's data file, the app's capability file, the offline queue. The
 * text goes to a new temporary file beside the target, is synced, and is renamed over the target,
 * then the folder is synced: a crash leaves the old file or the new one, never a torn one, and the
 * rename lasts a crash. The temporary file's name is random and it is created with `'wx'`, so two
 * writers never share one, and a link someone planted at a predictable name is never written
 * through. Its mode is set exactly (the umask may only take bits away), before any byte is in it.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export interface AtomicWriteOptions {
  /** The new file's permissions; default 0600, as everything written here is the user's alone. */
  readonly mode?: number;
  /**
   * Whether the write must last a crash of the machine (default true): the file and its folder
   * are synced. On macOS each sync is an F_FULLFSYNC, which flushes the drive's cache and holds one
   * of the four threads every extension shares; a summary that can lose its last write (the branch
   * ledger) passes false and is still replaced whole or not at all.
   */
  readonly durable?: boolean;
}

/** Replaces `path` with `text` (UTF-8) whole or not at all; a failure leaves no temporary file. */
export async function writeFileAtomic(path: string, text: string, options: AtomicWriteOptions = {}): Promise<void> {
  const mode = options.mode ?? 0o600;
  const durable = options.durable ?? true;
  const temporary = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, 'wx', mode);
    try {
      await handle.chmod(mode);
      await handle.writeFile(text, 'utf8');
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  if (durable) await syncFolder(dirname(path));
}

/**
 * Whether `name` is a temporary file this write (or an older version's, `.<base>.<pid>.tmp`) makes
 * for the target named `base`: what a writer killed mid-write leaves, for its successor to remove.
 */
export function isAtomicWriteTemporary(name: string, base: string): boolean {
  const escaped = base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^\\.${escaped}\\.[0-9]+(\\.[0-9a-f]+)?\\.tmp$`).test(name);
}

/**
 * A rename lasts a crash only once its folder is synced. Windows cannot open a folder for that,
 * nor can some network drives: there the file itself was synced, which is the most there is.
 */
export async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r').catch(() => undefined);
  try {
    await handle?.sync();
  } catch {
    // See above: not possible here.
  } finally {
    await handle?.close();
  }
}
