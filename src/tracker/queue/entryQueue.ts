/**
 * Time logged while the app could not be reached, kept on disk until it is delivered exactly once
 * (issue: nothing a user logged is ever lost). The file is written before the user is told
 * "queued", and synced (file, then folder) before that counts as written; every change happens
 * under a lock shared by all editor windows, so two windows never send the same entry. An entry
 * whose fate is unknown is never re-sent on its own.
 *
 * A file that cannot be read as a queue (empty, cut short by a crash, not JSON, another shape) is
 * moved aside, never overwritten: it may hold entries someone can still log by hand. The queue
 * starts empty and says where the old file went (`onCorrupt`); no operation fails because of it
 * (issue 12: Log Time offline lost the entry at hand when the file was empty).
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, stat } from 'node:fs/promises';
import { join } from 'node:path';
import * as l10n from '@vscode/l10n';
import { syncFolder } from '../../platform/atomicWrite';
import { FileReadError } from '../../platform/boundedRead';
import { errnoCode, errorMessage } from '../../platform/errors';
import { FileLockError, removeLockLeftovers, type ShortLockOptions } from '../../platform/fileLock';
import type { EntryRequest } from '../../protocol/types';
import { classify } from '../model/classify';
import { platformQueueFiles, type QueueFiles } from './queueFiles';

export type QueuedStatus =
  /** Surely not received yet: sent automatically, in order, when the app answers again. */
  | 'waiting'
  /** Being sent by some window right now (or that window crashed while sending). */
  | 'sending'
  /** The app may or may not have logged it: only the user decides whether to send it again. */
  | 'unknown'
  /** The app refused it (400, 404): kept with the reason until the user sends or discards it. */
  | 'refused';

export interface QueuedEntry {
  readonly id: string;
  readonly request: EntryRequest;
  readonly queuedAt: string;
  readonly status: QueuedStatus;
  readonly reason?: string;
  /** Which process marked it `sending`, to tell a crashed sender from a live one. */
  readonly sender?: string;
}

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
  readonly files?: QueueFiles;
}

const FILE = 'queued-entries.json';
/** Far more entries than anyone logs offline (a few hundred bytes each); a larger file is no queue of ours. */
const MAX_QUEUE_BYTES = 16 * 1024 * 1024;
const STATUSES: readonly string[] = ['waiting', 'sending', 'unknown', 'refused'] satisfies readonly QueuedStatus[];

/** The queue file as read: its entries, or why it is no queue. */
type ReadResult = { readonly entries: QueuedEntry[] } | { readonly problem: string };

export class EntryQueue {
  private readonly file: string;
  private readonly lock: string;
  private readonly me = `${process.pid}-${randomUUID()}`;
  private readonly clock: () => number;
  private readonly files: QueueFiles;

  constructor(
    private readonly folder: string,
    private readonly options: EntryQueueOptions = {},
  ) {
    this.file = join(folder, FILE);
    this.lock = join(folder, `${FILE}.lock`);
    this.clock = options.now ?? Date.now;
    this.files = options.files ?? platformQueueFiles;
  }

  async list(): Promise<readonly QueuedEntry[]> {
    const read = await this.read();
    if ('entries' in read) return read.entries;
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
    const entry: QueuedEntry = { id: randomUUID(), request, queuedAt: new Date(this.clock()).toISOString(), status: 'waiting' };
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
  async flush(send: (request: EntryRequest) => Promise<SendOutcome>): Promise<FlushResult> {
    const newlyUnknown: QueuedEntry[] = [];
    const newlyRefused: QueuedEntry[] = [];
    let delivered = 0;
    for (;;) {
      const next = await this.update((entries) => {
        const candidate = entries.find((entry) => entry.status === 'waiting');
        if (!candidate) return entries;
        return entries.map((entry) => (entry.id === candidate.id ? { ...withStatus(entry, 'sending'), sender: this.me } : entry));
      }, (entries) => entries.find((entry) => entry.status === 'sending' && entry.sender === this.me));
      if (!next) break;
      const outcome = await send(next.request).catch((error: unknown): SendOutcome => ({ kind: 'unknown', reason: String(error) }));
      const stop = await this.update((entries) => {
        switch (outcome.kind) {
          case 'delivered':
            delivered++;
            return entries.filter((entry) => entry.id !== next.id);
          case 'notSent':
          case 'blocked':
            return entries.map((entry) => (entry.id === next.id ? withStatus(entry, 'waiting', outcome.reason) : entry));
          case 'unknown':
          case 'refused': {
            const status = outcome.kind;
            const marked = withStatus(next, status, outcome.reason);
            (status === 'unknown' ? newlyUnknown : newlyRefused).push(marked);
            return entries.map((entry) => (entry.id === next.id ? marked : entry));
          }
        }
        // An unknown fate means the connection itself is suspect: the next entries wait for the
        // next flush rather than risk the same.
      }, () => outcome.kind !== 'delivered' && outcome.kind !== 'refused');
      if (stop) break;
    }
    const remaining = (await this.list()).length;
    return { delivered, remaining, newlyUnknown, newlyRefused };
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
        return withStatus(entry, 'unknown', l10n.t('The editor closed while this entry was being sent; it may or may not have been logged.'));
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
      if (error instanceof FileReadError) return { problem: error.code === 'NOT_A_REGULAR_FILE' ? 'is not a regular file' : `is larger than ${MAX_QUEUE_BYTES} bytes` };
      throw error;
    }
    return parseQueue(text);
  }

  /** Read, change and write back under the lock; `pick` reads a value off the new list. */
  private async update<T = undefined>(change: (entries: QueuedEntry[]) => QueuedEntry[], pick?: (entries: QueuedEntry[]) => T): Promise<T> {
    await mkdir(this.folder, { recursive: true });
    const work = async (): Promise<T> => {
      const read = await this.read();
      const before = 'entries' in read ? read.entries : await this.setAside(read.problem);
      const after = change(before);
      // Whole or not at all, synced: a crash leaves the old queue or the new one.
      if (after !== before) await this.files.writeAtomic(this.file, `${JSON.stringify({ version: 1, entries: after }, null, 2)}\n`);
      return (pick ? pick(after) : undefined) as T;
    };
    try {
      return await this.files.withLock(this.lock, work, this.options.lock);
    } catch (error) {
      // The lock says what happened in codes; the sentence is this caller's, in the user's language.
      if (error instanceof FileLockError && error.code !== 'LOCK_NOT_RECOGNISED') throw new Error(l10n.t('Another window holds {0}; try again in a moment.', this.lock));
      throw error;
    }
  }

  /** Under the lock: keeps the unreadable file next to the queue under a name of its own, and says where. */
  private async setAside(problem: string): Promise<QueuedEntry[]> {
    const stamp = new Date(this.clock()).toISOString().replace(/[:.]/g, '-');
    let keptAs = `${this.file}.corrupt-${stamp}`;
    for (let n = 2; await exists(keptAs); n++) keptAs = `${this.file}.corrupt-${stamp}-${n}`;
    await rename(this.file, keptAs);
    await syncFolder(this.folder);
    try {
      this.options.onCorrupt?.(keptAs, problem);
    } catch {
      // Telling about it must not cost the entry at hand.
    }
    return [];
  }
}

/** The entries of a queue file, or why it is none: anything this version did not write is no queue. */
function parseQueue(text: string): ReadResult {
  if (text.trim() === '') return { problem: 'is empty' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { problem: `is not JSON (${errorMessage(error)})` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { problem: 'is not a JSON object' };
  const { entries } = parsed as { entries?: unknown };
  if (!Array.isArray(entries)) return { problem: 'has no list of entries' };
  const bad = entries.findIndex((entry) => !isQueuedEntry(entry));
  if (bad >= 0) return { problem: `has an entry ${bad + 1} that is not a queued entry` };
  return { entries: entries as QueuedEntry[] };
}

function isQueuedEntry(value: unknown): value is QueuedEntry {
  if (typeof value !== 'object' || value === null) return false;
  const entry = value as Partial<Record<keyof QueuedEntry, unknown>>;
  const request = entry.request as Partial<Record<keyof EntryRequest, unknown>> | null | undefined;
  return (
    typeof entry.id === 'string' &&
    typeof entry.queuedAt === 'string' &&
    typeof entry.status === 'string' &&
    STATUSES.includes(entry.status) &&
    (entry.reason === undefined || typeof entry.reason === 'string') &&
    (entry.sender === undefined || typeof entry.sender === 'string') &&
    typeof request === 'object' &&
    request !== null &&
    typeof request.durationMinutes === 'number' &&
    (request.name === undefined || typeof request.name === 'string') &&
    (request.activityID === undefined || typeof request.activityID === 'string') &&
    (request.createIfMissing === undefined || typeof request.createIfMissing === 'boolean') &&
    (request.note === undefined || typeof request.note === 'string')
  );
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

function withStatus(entry: QueuedEntry, status: QueuedStatus, reason?: string): QueuedEntry {
  // The old reason and sender go: they described the previous status.
  const { reason: _previousReason, sender: _previousSender, ...rest } = entry;
  return { ...rest, status, ...(reason === undefined ? {} : { reason }) };
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
