/**
 * The one way to read a file that someone else controls: the app's capability file, git's HEAD
 * and config in a workspace, the offline queue and its lock in a folder every window shares. A
 * plain `readFile` of a FIFO waits for a writer forever on one of libuv's four threads (four such
 * files stall every extension of the host), and `/dev/zero` or a huge file is read into memory
 * whole. So the file is opened without blocking, only a regular file is read, and never more than
 * `maxBytes` of it, however it grows meanwhile.
 */
import { constants, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

export type FileReadProblem =
  /** A FIFO, a device, a folder, a socket: nothing this reader reads. */
  | 'NOT_A_REGULAR_FILE'
  /** Larger than the caller's cap, when opened or while it was read. */
  | 'FILE_TOO_LARGE';

/** A file this reader refused; the system's own failures (ENOENT, EACCES…) come as they are. */
export class FileReadError extends Error {
  override name = 'FileReadError';

  constructor(
    readonly code: FileReadProblem,
    message: string,
    /** The file's size when opened; for FILE_TOO_LARGE, so that the caller can say it. */
    readonly size: number,
  ) {
    super(message);
  }
}

export interface BoundedReadOptions {
  /** Reading stops here: a longer file is a FileReadError (FILE_TOO_LARGE). */
  readonly maxBytes: number;
  /**
   * Refuse a symbolic link at `path` itself (ELOOP from the system), for a file this process
   * made and nobody should have replaced. By default a link is followed, and what it points to
   * must pass the same checks.
   */
  readonly noFollow?: boolean;
}

export interface BoundedFile {
  readonly text: string;
  /** Of the file read (after any link): its owner, mode, inode and times, as one open saw them. */
  readonly stats: Stats;
}

/** Reads a regular file of at most `maxBytes` as UTF-8, without ever blocking on what is no file. */
export async function readBoundedFile(path: string, options: BoundedReadOptions): Promise<BoundedFile> {
  // O_NOFOLLOW does not exist on Windows (undefined there, whatever the types say), where links are rare and need
  // privileges.
  const noFollow = options.noFollow === true ? ((constants as Partial<typeof constants>).O_NOFOLLOW ?? 0) : 0;
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | noFollow);
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new FileReadError('NOT_A_REGULAR_FILE', `${path} is not a regular file.`, stats.size);
    if (stats.size > options.maxBytes) throw tooLarge(path, stats.size, options.maxBytes);
    const { buffer, length } = await readUpTo(handle, stats.size, options.maxBytes + 1);
    if (length > options.maxBytes) throw tooLarge(path, length, options.maxBytes);
    return { text: buffer.toString('utf8', 0, length), stats };
  } finally {
    await handle.close();
  }
}

/**
 * Reads at most `limit` bytes, from a buffer of the size the stat gave (plus one byte, to see the
 * end): a cap of megabytes must not cost megabytes of zeroed memory for a file of kilobytes (the
 * branch ledger reads its file once a minute). A file that grew since the stat, or that says it is
 * empty and is not (/proc), gets a buffer twice as large each time it fills, up to `limit`; one
 * byte more than allowed tells a file that grew past the cap.
 */
async function readUpTo(
  handle: FileHandle,
  statSize: number,
  limit: number,
): Promise<{ buffer: Buffer; length: number }> {
  let buffer = Buffer.allocUnsafe(Math.min(statSize + 1, limit));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (buffer.length >= limit) break;
      const larger = Buffer.allocUnsafe(Math.min(buffer.length * 2, limit));
      buffer.copy(larger, 0, 0, length);
      buffer = larger;
    }
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  return { buffer, length };
}

/** The text alone, for callers that need nothing of the file but what it says. */
export async function readBoundedText(path: string, options: BoundedReadOptions): Promise<string> {
  return (await readBoundedFile(path, options)).text;
}

function tooLarge(path: string, size: number, maxBytes: number): FileReadError {
  return new FileReadError('FILE_TOO_LARGE', `${path} is ${size} bytes, more than the ${maxBytes} it may have.`, size);
}
