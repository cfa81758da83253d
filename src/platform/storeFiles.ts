/**
 * The file operations of a store every window shares (the offline queue, the branch ledger) whose
 * failure decides what the store may do next: the short lock, the bounded read and the atomic
 * write. They are a port so that a test can make one of them fail at the moment that matters
 * (the write that removes a delivered entry fails, and the entry must not be sent again). The
 * stores use the platform's helpers through it; nothing here is a second lock, write or read.
 */
import { writeFileAtomic } from './atomicWrite';
import { readBoundedText, type BoundedReadOptions } from './boundedRead';
import { withShortLock, type ShortLockOptions } from './fileLock';
import { fileVersion } from './fileSystemPort';

export interface StoreFiles {
  /** Runs `work` while holding the lock at `path` (withShortLock). */
  withLock<T>(path: string, work: () => Promise<T>, options?: ShortLockOptions): Promise<T>;
  /** The file's text, read bounded (readBoundedText); ENOENT and FileReadError come as they are. */
  readText(path: string, options: BoundedReadOptions): Promise<string>;
  /** Replaces the file whole or not at all (writeFileAtomic); `durable` as there (default true). */
  writeAtomic(path: string, text: string, options?: { readonly durable?: boolean }): Promise<void>;
  /**
   * Which version of the file is there (fileVersion), undefined when none is: a store skips a read of what it already
   * has.
   */
  version(path: string): Promise<string | undefined>;
}

export const platformStoreFiles: StoreFiles = {
  withLock: withShortLock,
  readText: readBoundedText,
  writeAtomic: (path, text, options) => writeFileAtomic(path, text, options),
  version: fileVersion,
};
