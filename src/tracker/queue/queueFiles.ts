/**
 * The file operations of the offline queue whose failure decides what the queue may do next: the
 * lock every window shares, the bounded read and the atomic write. They are a port so that a test
 * can make one of them fail at the moment that matters (issue 22: the write that removes a
 * delivered entry failed, and the entry was sent again). The queue uses the platform's helpers
 * through it; nothing here is a second lock, write or read.
 */
import { writeFileAtomic } from '../../platform/atomicWrite';
import { readBoundedText, type BoundedReadOptions } from '../../platform/boundedRead';
import { withShortLock, type ShortLockOptions } from '../../platform/fileLock';

export interface QueueFiles {
  /** Runs `work` while holding the lock at `path` (withShortLock). */
  withLock<T>(path: string, work: () => Promise<T>, options?: ShortLockOptions): Promise<T>;
  /** The file's text, read bounded (readBoundedText); ENOENT and FileReadError come as they are. */
  readText(path: string, options: BoundedReadOptions): Promise<string>;
  /** Replaces the file whole or not at all (writeFileAtomic). */
  writeAtomic(path: string, text: string): Promise<void>;
}

export const platformQueueFiles: QueueFiles = {
  withLock: withShortLock,
  readText: readBoundedText,
  writeAtomic: (path, text) => writeFileAtomic(path, text),
};
