/**
 * Writes and removes the capability file of the application's VS Code integration (PROTOCOL.md
 * §8), as the app does: mode 0600 because it holds the token, written to a temporary file in the
 * same directory and renamed over the old one so a reader never sees half a file, and removed on
 * the way out only while it still is this server's: a newer instance may have written its own
 * since, and that one must survive this one's exit.
 */
import { randomBytes } from 'node:crypto';
import { lstat, open, readFile, rename, rm, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { formatCapability, type Capability } from '../protocol/capability';

export class CapabilityFileError extends Error {
  override name = 'CapabilityFileError';
}

/** What was written where, so that only that very file is ever removed. */
export interface WrittenCapabilityFile {
  readonly path: string;
  readonly text: string;
  readonly dev: number;
  readonly ino: number;
}

export async function writeCapabilityFile(path: string, capability: Omit<Capability, 'version'>): Promise<WrittenCapabilityFile> {
  const text = formatCapability(capability);
  const directory = dirname(path);
  // Unique per write, so two servers writing the same path never share a temporary file.
  const temporary = join(directory, `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const handle = await open(temporary, 'wx', 0o600);
    try {
      // The umask may only take bits away; chmod makes it exactly 0600 whatever it is.
      await handle.chmod(0o600);
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
    const { dev, ino } = await lstat(path);
    return { path, text, dev, ino };
  } catch (error) {
    await rm(temporary, { force: true });
    // The sentence names the path and the reason, never the file's content (it holds the token).
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? `the directory ${directory} does not exist` : describe(error);
    throw new CapabilityFileError(`Cannot write the capability file ${path}: ${reason}.`);
  }
}

/**
 * Removes the file if it is still the one written (same inode, same text). Another server that
 * replaced it renamed a new inode into place, so its file is left alone. Between this check and
 * the unlink another rename could still slip in; closing takes microseconds, restarting the app
 * takes far longer, and the file is only ever rewritten by a start.
 */
export async function removeCapabilityFileIfUnchanged(written: WrittenCapabilityFile): Promise<boolean> {
  try {
    const { dev, ino } = await lstat(written.path);
    if (dev !== written.dev || ino !== written.ino) return false;
    if ((await readFile(written.path, 'utf8')) !== written.text) return false;
    await unlink(written.path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw new CapabilityFileError(`Cannot remove the capability file ${written.path}: ${describe(error)}.`);
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message.replace(/\.$/, '') : String(error);
}
