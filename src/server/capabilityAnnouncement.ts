/**
 * Writes and removes the capability file of the application's VS Code integration
 * (PROTOCOL.md §8), as the app does: mode 0600 because it holds the token, written whole or not at all
 * (src/platform/atomicWrite.ts) so a reader never sees half a file, and removed on the way out
 * only while it still is this server's: a newer instance may have written its own since, and that
 * one must survive this one's exit.
 */
import { lstat, readFile, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../platform/atomicWrite';
import { errnoCode, errorPhrase } from '../platform/errors';
import { formatCapability, type Capability } from '../protocol/capability';
import { CapabilityFileError } from './errors';

/** What was written where, so that only that very file is ever removed. */
export interface WrittenCapabilityFile {
  readonly path: string;
  readonly text: string;
  readonly dev: number;
  readonly ino: number;
}

export async function writeCapabilityFile(
  path: string,
  capability: Omit<Capability, 'version'>,
): Promise<WrittenCapabilityFile> {
  const text = formatCapability(capability);
  try {
    await writeFileAtomic(path, text, { mode: 0o600 });
    const { dev, ino } = await lstat(path);
    return { path, text, dev, ino };
  } catch (error) {
    // The sentence names the path and the reason, never the file's content (it holds the token).
    const reason = errnoCode(error) === 'ENOENT' ? `the directory ${dirname(path)} does not exist` : errorPhrase(error);
    throw new CapabilityFileError('write-failed', `Cannot write the capability file ${path}: ${reason}.`);
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
    if (errnoCode(error) === 'ENOENT') return false;
    throw new CapabilityFileError(
      'remove-failed',
      `Cannot remove the capability file ${written.path}: ${errorPhrase(error)}.`,
    );
  }
}
