/**
 * Time logged while the app could not be reached, kept on disk until it is delivered exactly once
 * (nothing a user logged is ever lost). The file is written before the user is told
 * "queued", and synced (file, then folder) before that counts as written; every change happens
 * under a lock shared by all editor windows, so two windows never send the same entry. An entry
 * whose fate is unknown is never re-sent on its own.
 *
 * An entry reaches the app at most once, even when the write after its delivery fails. A flush
 * sends only the entry it marked `sending` in that very update; one this window left `sending`
 * earlier without knowing what became of it is "unknown" from then on.
 * What became of a send is kept in memory until it is written: the write is tried again a few
 * times before anything else is sent, then by every later write, and until then the window shows
 * it as it is (a delivered entry as `delivered`, never as waiting, never silently gone).
 *
 * A file that cannot be read as a queue (empty, cut short by a crash, not JSON, another shape) is
 * moved aside, never overwritten: it may hold entries someone can still log by hand. The queue
 * starts empty and says where the old file went (`onCorrupt`); no operation fails because of it
 * (Log Time offline queues the entry at hand when the file is empty, too).
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import * as l10n from '@vscode/l10n';
import { FileReadError } from '../../platform/boundedRead';
import { errnoCode, errorMessage } from '../../platform/errors';
import { FileLockError, removeLockLeftovers, type ShortLockOptions } from '../../platform/fileLock';
import { keepAside } from '../../platform/keepAside';
import { platformStoreFiles, type StoreFiles } from '../../platform/storeFiles';
import type { EntryRequest } from '../../protocol/types';
import { classify } from '../model/classify';
import { parseQueue, withStatus, type QueuedEntry, type ReadResult } from './queueFormat';
import { pause } from '../../platform/timers';

/** What became of one send: the queue decides the entry's next status from it. */
export type SendOutcome =
  | { readonly kind: 'delivered' }
  /** Surely not received (connection refused): stop for now, keep it waiting. */
  | { readonly kind: 'notSent'; readonly reason: string }
  /** The app is there but refuses everything for now (401, 423, 429, 503): stop, keep waiting. */
  | { readonly kind: 'blocked'; readonly reason: string }
  | { readonly kind: 'unknown'; readonly reason: string }
  | { readonly kind: 'refused'; readonly reason: string };

export interface FlushResult {
  readonly delivered: number;
  readonly remaining: number;
  readonly newlyUnknown: readonly QueuedEntry[];
  readonly newlyRefused: readonly QueuedEntry[];
  /**
   * Why the write recording a send failed every time it was tried, for the log: the flush stopped
   * there, and the next write of this queue records it.
   */
  readonly unrecorded?: string;
}

export interface EntryQueueOptions {
  /** The time entries are queued at and a corrupt file is stamped with (default `Date.now`). */
  readonly now?: () => number;
  /**
   * A queue file could not be read and was moved to `keptAs`; `problem` says why, in English, for
   * the log. Called once per file, by the window that moved it.
   */
  readonly onCorrupt?: (keptAs: string, problem: string) => void;
  readonly lock?: ShortLockOptions;
  /** The lock, read and write the queue goes through (default: the platform's); tests make them fail. */
  readonly files?: StoreFiles;
  /** How often the write recording a send is tried before the flush stops (default 3 times, 250 ms apart). */
  readonly settle?: { readonly attempts?: number; readonly retryMs?: number };
}

const FILE = 'queued-entries.json';
/** Far more entries than anyone logs offline (a few hundred bytes each); a larger file is no queue of ours. */
const MAX_QUEUE_BYTES = 16 * 1024 * 1024;
const SETTLE_ATTEMPTS = 3;
const SETTLE_RETRY_MS = 250;

/** What became of a send, not yet written: the entry as it is now (undefined: delivered, to be removed). */
interface Unwritten {
  readonly entry: QueuedEntry | undefined;
  /** Why the last write failed, shown with a delivered entry. */
  problem: string | undefined;
}

export class EntryQueue {
  private readonly file: string;
  private readonly lock: string;
  private readonly me = `${process.pid}-${randomUUID()}`;
  private readonly clock: () => number;
  private readonly files: StoreFiles;
  /** Entries this queue marked `sending` and is sending now. */
  private readonly inFlight = new Set<string>();
  /** By id, what became of sends of this queue while the file could not be written; every write applies them. */
  private readonly unwritten = new Map<string, Unwritten>();

  constructor(
    private readonly folder: string,
    private readonly options: EntryQueueOptions = {},
  ) {
    this.file = join(folder, FILE);
    this.lock = join(folder, `${FILE}.lock`);
    this.clock = options.now ?? Date.now;
    this.files = options.files ?? platformStoreFiles;
  }

  async list(): Promise<readonly QueuedEntry[]> {
    const read = await this.read();
    if ('entries' in read) return this.withUnwritten(read.entries, 'shown');
    // Moved aside under the lock only: another window may have written a good file meanwhile.
    return this.update(
      (entries) => entries,
      (entries) => entries,
    );
  }

  /** Resolves only once the entry is on disk. Whole minutes only: the app takes nothing else, later or now. */
  async add(request: EntryRequest): Promise<QueuedEntry> {
    if (!Number.isInteger(request.durationMinutes)) {
      throw new RangeError(`Only whole minutes can be queued, not ${request.durationMinutes}.`);
    }
    const entry: QueuedEntry = {
      id: randomUUID(),
      request,
      queuedAt: new Date(this.clock()).toISOString(),
      status: 'waiting',
    };
    await this.update((entries) => [...entries, entry]);
    return entry;
  }

  async discard(id: string): Promise<void> {
    await this.update((entries) => entries.filter((entry) => entry.id !== id));
  }

  /** The user decided: send this one again, even if its fate was unknown or it was refused. */
  async retry(id: string): Promise<void> {
    await this.update((entries) => entries.map((entry) => (entry.id === id ? withStatus(entry, 'waiting') : entry)));
  }

  /**
   * Sends the waiting entries in order, one window at a time. An entry is marked `sending` on disk
   * before it goes out, so a crash mid-send leaves it `unknown` rather than sent twice.
   */
  async flush(send: (request: EntryRequest, id: string) => Promise<SendOutcome>): Promise<FlushResult> {
    const newlyUnknown: QueuedEntry[] = [];
    const newlyRefused: QueuedEntry[] = [];
    let delivered = 0;
    let unrecorded: string | undefined;
    for (;;) {
      const next = await this.claimNext(newlyUnknown);
      if (!next) break;
      const outcome = await send(next.request, next.id).catch((error: unknown): SendOutcome => ({
        kind: 'unknown',
        reason: String(error),
      }));
      const settled = this.settle(next, outcome);
      if (outcome.kind === 'delivered') delivered++;
      if (settled?.status === 'unknown') newlyUnknown.push(settled);
      if (settled?.status === 'refused') newlyRefused.push(settled);
      // Nothing else goes before this is on disk: the next flush must know what became of it.
      unrecorded = await this.writeSettled();
      // An unknown fate means the connection itself is suspect: the next entries wait for the
      // next flush rather than risk the same.
      if (unrecorded !== undefined || (outcome.kind !== 'delivered' && outcome.kind !== 'refused')) break;
    }
    const remaining = (await this.list()).length;
    return { delivered, remaining, newlyUnknown, newlyRefused, ...(unrecorded === undefined ? {} : { unrecorded }) };
  }

  /**
   * Marks the first waiting entry `sending` and returns it: the only entry this flush may send. An
   * entry this queue left `sending` before, and is not sending now, may have arrived: it becomes
   * `unknown` (added to `newlyUnknown`) and waits for the user.
   */
  private async claimNext(newlyUnknown: QueuedEntry[]): Promise<QueuedEntry | undefined> {
    let claimed: QueuedEntry | undefined;
    let stranded: QueuedEntry[] = [];
    const change = (entries: QueuedEntry[]): QueuedEntry[] => {
      stranded = [];
      const swept = entries.map((entry) => {
        if (entry.status !== 'sending' || entry.sender !== this.me || this.inFlight.has(entry.id)) return entry;
        const marked = withStatus(
          entry,
          'unknown',
          l10n.t('A send from this window stopped before its outcome was written; it may or may not have been logged.'),
        );
        stranded.push(marked);
        return marked;
      });
      const candidate = swept.find((entry) => entry.status === 'waiting');
      claimed = candidate && { ...withStatus(candidate, 'sending'), sender: this.me };
      if (claimed) this.inFlight.add(claimed.id);
      if (!claimed && stranded.length === 0) return entries;
      return swept.map((entry) => (entry.id === claimed?.id ? claimed : entry));
    };
    try {
      return await this.update(change, () => {
        newlyUnknown.push(...stranded);
        return claimed;
      });
    } catch (error) {
      if (claimed) this.inFlight.delete(claimed.id);
      throw error;
    }
  }

  /** What the entry is after this send (undefined: delivered, to be removed), kept until written. */
  private settle(sent: QueuedEntry, outcome: SendOutcome): QueuedEntry | undefined {
    const waits = outcome.kind === 'notSent' || outcome.kind === 'blocked';
    const entry =
      outcome.kind === 'delivered' ? undefined : withStatus(sent, waits ? 'waiting' : outcome.kind, outcome.reason);
    this.unwritten.set(sent.id, { entry, problem: undefined });
    this.inFlight.delete(sent.id);
    return entry;
  }

  /** Writes what became of the sends, a bounded number of tries: undefined once written, else the last failure. */
  private async writeSettled(): Promise<string | undefined> {
    const attempts = Math.max(1, this.options.settle?.attempts ?? SETTLE_ATTEMPTS);
    for (let attempt = 1; ; attempt++) {
      try {
        await this.update((entries) => entries);
        return undefined;
      } catch (error) {
        const problem = errorMessage(error);
        for (const unwritten of this.unwritten.values()) unwritten.problem = problem;
        if (attempt >= attempts) return problem;
      }
      await pause(this.options.settle?.retryMs ?? SETTLE_RETRY_MS);
    }
  }

  /**
   * Entries another process left `sending` when it died: their fate is unknown. Called at start;
   * only entries of senders that are gone are touched.
   */
  async recover(isAlive: (sender: string) => boolean): Promise<number> {
    // Drafts and claims of the lock that windows killed mid-way left: litter, never a lock.
    await removeLockLeftovers(this.lock).catch(() => undefined);
    let recovered = 0;
    await this.update((entries) =>
      entries.map((entry) => {
        if (entry.status !== 'sending' || (entry.sender !== undefined && isAlive(entry.sender))) return entry;
        recovered++;
        // Kept in the file as shown, in the language of the window that found it.
        return withStatus(
          entry,
          'unknown',
          l10n.t('The editor closed while this entry was being sent; it may or may not have been logged.'),
        );
      }),
    );
    return recovered;
  }

  private async read(): Promise<ReadResult> {
    let text: string;
    try {
      // The folder is shared by every window and writable by any process of this user.
      text = await this.files.readText(this.file, { maxBytes: MAX_QUEUE_BYTES });
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return { entries: [] };
      if (error instanceof FileReadError)
        return {
          problem:
            error.code === 'NOT_A_REGULAR_FILE' ? 'is not a regular file' : `is larger than ${MAX_QUEUE_BYTES} bytes`,
        };
      throw error;
    }
    return parseQueue(text);
  }

  /** Read, change and write back under the lock; `pick` reads a value off the new list. */
  private async update<T = undefined>(
    change: (entries: QueuedEntry[]) => QueuedEntry[],
    pick?: (entries: QueuedEntry[]) => T,
  ): Promise<T> {
    await mkdir(this.folder, { recursive: true });
    const work = async (): Promise<T> => {
      const read = await this.read();
      const before = 'entries' in read ? read.entries : await this.setAside(read.problem);
      const applying = new Map(this.unwritten);
      const after = change(this.withUnwritten(before, 'written'));
      // Whole or not at all, synced: a crash leaves the old queue or the new one.
      if (after !== before)
        await this.files.writeAtomic(this.file, `${JSON.stringify({ version: 1, entries: after }, null, 2)}\n`);
      // On disk now, or no longer in the file (discarded, moved aside): nothing left to write.
      for (const [id, unwritten] of applying) if (this.unwritten.get(id) === unwritten) this.unwritten.delete(id);
      return (pick ? pick(after) : undefined) as T;
    };
    try {
      return await this.files.withLock(this.lock, work, this.options.lock);
    } catch (error) {
      // The lock says what happened in codes; the sentence is this caller's, in the user's language.
      if (error instanceof FileLockError && error.code !== 'LOCK_NOT_RECOGNISED')
        throw new Error(l10n.t('Another window holds {0}; try again in a moment.', this.lock));
      throw error;
    }
  }

  /**
   * The entries with what became of this queue's sends that the file does not say yet: as they
   * are to be written, or as shown, where a delivered entry still in the file is `delivered`.
   */
  private withUnwritten(entries: QueuedEntry[], purpose: 'written' | 'shown'): QueuedEntry[] {
    if (!entries.some((entry) => this.unwritten.has(entry.id))) return entries;
    return entries.flatMap((entry) => {
      const unwritten = this.unwritten.get(entry.id);
      if (unwritten === undefined) return [entry];
      if (unwritten.entry !== undefined) return [unwritten.entry];
      return purpose === 'shown' ? [withStatus(entry, 'delivered', unwritten.problem)] : [];
    });
  }

  /** Under the lock: keeps the unreadable file next to the queue under a name of its own, and says where. */
  private async setAside(problem: string): Promise<QueuedEntry[]> {
    const keptAs = await keepAside(this.file, this.clock());
    this.options.onCorrupt?.(keptAs, problem);
    return [];
  }
}

/** How a failed send of a queued entry counts (PROTOCOL.md §7): only "surely not sent" waits as it was. */
export function outcomeOfError(error: unknown): SendOutcome {
  const failure = classify(error);
  const reason = failure.message;
  switch (failure.kind) {
    case 'offline':
      return { kind: 'notSent', reason };
    case 'invalid':
    case 'notFound':
      return { kind: 'refused', reason };
    // The app is there and refuses everything for now: the entry waits for the next flush.
    case 'tokenRejected':
    case 'unavailable':
    case 'licenseLocked':
    case 'lockedOut':
    case 'refused':
      return { kind: 'blocked', reason };
    case 'mayHaveArrived':
    case 'answerLost':
    case 'replayed':
    case 'configuration':
    case 'appFailed':
    case 'unexpected':
      return { kind: 'unknown', reason };
  }
}
