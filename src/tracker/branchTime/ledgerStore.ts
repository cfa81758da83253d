/**
 * The branch-time ledger on disk: one file in the extension's global storage, shared
 * by the windows of this machine, changed only under the platform's one short lock and written
 * whole with its atomic write, read through its bounded read (never a second lock or write). It
 * keeps `keepDays` days; a row that would not fit in the file its reader accepts is refused and
 * named through `onRefused`, never a day of the history (./bookSize.ts). It is never sent anywhere.
 *
 * A file that cannot be read as a ledger (cut short, not JSON, a FIFO or a link where the file
 * should be) is moved aside under a name of its own and named once through `onCorrupt`, as the
 * offline queue does (src/tracker/queue/entryQueue.ts): the ledger starts again, and tracking
 * never stops because of it.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { FileReadError } from '../../platform/boundedRead';
import { errnoCode } from '../../platform/errors';
import { removeLockLeftovers, type ShortLockOptions } from '../../platform/fileLock';
import { keepAside } from '../../platform/keepAside';
import { platformStoreFiles, type StoreFiles } from '../../platform/storeFiles';
import { fitBook } from './bookSize';
import { clampToNow, EMPTY_BOOK, parseBook, pruneBook, type BookRead, type LedgerBook } from './ledgerBook';

export interface LedgerStoreOptions {
  readonly now?: () => number;
  /** How many days are kept (`timeTracker.branchTime.keepDays`), read at every write. */
  readonly keepDays: () => number;
  /** The file could not be read and was moved to `keptAs`; `problem` in English, for the log. Once per file. */
  readonly onCorrupt?: (keptAs: string, problem: string) => void;
  /**
   * `rows` rows of a write, the largest of `largestBytes`, were refused so that the file stays within
   * the `maxBytes` it may hold, the history as it was; said by the window that wrote, after the write.
   */
  readonly onRefused?: (rows: number, largestBytes: number, maxBytes: number) => void;
  /** The largest file read or written (default 8 MiB). */
  readonly maxBytes?: number;
  readonly lock?: ShortLockOptions;
  readonly files?: StoreFiles;
}

export const LEDGER_FILE = 'branch-time.json';
/**
 * Far more than 90 days of branches (a few hundred bytes a row): about eight years at ten rows a
 * day. A larger file is no ledger of ours, so none larger is ever written (./bookSize.ts).
 */
export const MAX_LEDGER_BYTES = 8 * 1024 * 1024;

export class LedgerStore {
  readonly file: string;
  private readonly lock: string;
  private readonly clock: () => number;
  private readonly files: StoreFiles;
  private readonly maxBytes: number;
  /** The version of the file (StoreFiles.version) this store last read whole or wrote. */
  private seenVersion: string | undefined;

  constructor(
    private readonly folder: string,
    private readonly options: LedgerStoreOptions,
  ) {
    this.file = join(folder, LEDGER_FILE);
    this.lock = join(folder, `${LEDGER_FILE}.lock`);
    this.clock = options.now ?? Date.now;
    this.files = options.files ?? platformStoreFiles;
    this.maxBytes = options.maxBytes ?? MAX_LEDGER_BYTES;
  }

  /** The ledger as on disk; a file that is no ledger is moved aside first (under the lock). */
  async read(): Promise<LedgerBook> {
    return this.bookOf(await this.readBook());
  }

  /**
   * The ledger as on disk, or undefined when the file is the very one this store last read or
   * wrote: a view that looks again every minute reads nothing while no window wrote.
   */
  async readIfChanged(): Promise<LedgerBook | undefined> {
    const version = await this.files.version(this.file);
    if (version !== undefined && version === this.seenVersion) return undefined;
    return this.bookOf(await this.readBook(version));
  }

  /** What was read, or, for a file that is no ledger, the empty one that replaced it (under the lock). */
  private bookOf(read: BookRead): Promise<LedgerBook> | LedgerBook {
    return 'book' in read ? read.book : this.update((book) => book);
  }

  /**
   * Read, change and write back under the lock, the days past `keepDays` dropped (ledgerBook.ts
   * pruneBook), and the rows `change` adds refused where the file would be larger than it may be
   * read. `change` sees no claim and no credit mark after this writer's now (ledgerBook.ts clampToNow).
   */
  async update(change: (book: LedgerBook) => LedgerBook): Promise<LedgerBook> {
    await mkdir(this.folder, { recursive: true });
    return this.files.withLock(
      this.lock,
      async () => {
        const read = await this.readBook();
        const before = 'book' in read ? read.book : await this.setAside(read.problem);
        const nowMs = this.clock();
        const found = clampToNow(before, nowMs);
        const after = pruneBook(change(found), this.options.keepDays(), nowMs, found);
        if (after === before && 'book' in read) return after;
        const fitted = fitBook(after, this.maxBytes, found);
        this.seenVersion = undefined;
        // Not synced: a summary whose last write a crash may lose, written at every focus change.
        await this.files.writeAtomic(this.file, fitted.text, { durable: false });
        // Under the lock: no other window can have written since.
        this.seenVersion = await this.files.version(this.file);
        const { refused } = fitted;
        if (refused) this.options.onRefused?.(refused.rows, refused.largestBytes, this.maxBytes);
        return fitted.book;
      },
      this.options.lock,
    );
  }

  /** Clear History: every row goes; which window owns the time stays (no names in it). */
  async clear(): Promise<void> {
    await this.update((book) => ({ ...EMPTY_BOOK, owners: book.owners, creditedUntilMs: book.creditedUntilMs }));
  }

  /** At start: drafts and claims of the lock that windows killed mid-way left behind. */
  async removeLeftovers(): Promise<void> {
    await removeLockLeftovers(this.lock).catch(() => undefined);
  }

  /** `version`: the file's, when the caller has just asked it (before this read, as it must be). */
  private async readBook(known?: string): Promise<BookRead> {
    // Asked before the read: a write between the two makes the next look read again, never miss it.
    const version = known ?? (await this.files.version(this.file));
    this.seenVersion = undefined;
    let text: string;
    try {
      // Ours alone: a link where the file should be is refused, not followed.
      text = await this.files.readText(this.file, { maxBytes: this.maxBytes, noFollow: true });
    } catch (error) {
      const code = errnoCode(error);
      if (code === 'ENOENT') return { book: EMPTY_BOOK };
      if (code === 'ELOOP') return { problem: 'is a symbolic link' };
      if (error instanceof FileReadError)
        return {
          problem:
            error.code === 'NOT_A_REGULAR_FILE' ? 'is not a regular file' : `is larger than ${this.maxBytes} bytes`,
        };
      throw error;
    }
    const read = parseBook(text);
    this.seenVersion = 'book' in read ? version : undefined;
    return read;
  }

  /** Under the lock: keeps the unreadable file beside the ledger under a name of its own, and says where. */
  private async setAside(problem: string): Promise<LedgerBook> {
    const keptAs = await keepAside(this.file, this.clock());
    this.options.onCorrupt?.(keptAs, problem);
    return EMPTY_BOOK;
  }
}
