/**
 * Time logged while the app could not be reached, kept on disk until it is delivered exactly once
 * (issue: nothing a user logged is ever lost). The file is written before the user is told
 * "queued"; every change happens under a lock shared by all editor windows, so two windows never
 * send the same entry. An entry whose fate is unknown is never re-sent on its own.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as l10n from '@vscode/l10n';
import {
  AnswerLostError,
  AuthenticationError,
  ConnectionError,
  HttpError,
  NotFoundError,
  UnavailableError,
  ValidationError,
} from '../client/errors';
import type { EntryRequest } from '../protocol/types';
import { withFileLock } from './fileLock';

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

const FILE = 'queued-entries.json';

export class EntryQueue {
  private readonly file: string;
  private readonly lock: string;
  private readonly me = `${process.pid}-${randomUUID()}`;

  constructor(
    private readonly folder: string,
    private readonly clock: () => number = Date.now,
  ) {
    this.file = join(folder, FILE);
    this.lock = join(folder, `${FILE}.lock`);
  }

  async list(): Promise<readonly QueuedEntry[]> {
    return this.read();
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
    const remaining = (await this.read()).length;
    return { delivered, remaining, newlyUnknown, newlyRefused };
  }

  /**
   * Entries another process left `sending` when it died: their fate is unknown. Called at start;
   * only entries of senders that are gone are touched.
   */
  async recover(isAlive: (sender: string) => boolean): Promise<number> {
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

  private async read(): Promise<QueuedEntry[]> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const parsed = JSON.parse(text) as { entries?: QueuedEntry[] };
    return Array.isArray(parsed.entries) ? parsed.entries : [];
  }

  /** Read, change and write back under the lock; `pick` reads a value off the new list. */
  private async update<T = undefined>(change: (entries: QueuedEntry[]) => QueuedEntry[], pick?: (entries: QueuedEntry[]) => T): Promise<T> {
    await mkdir(this.folder, { recursive: true });
    return withFileLock(this.lock, async () => {
      const before = await this.read();
      const after = change(before);
      if (after !== before) {
        const temporary = `${this.file}.${process.pid}.tmp`;
        await writeFile(temporary, `${JSON.stringify({ version: 1, entries: after }, null, 2)}\n`);
        await rename(temporary, this.file);
      }
      return (pick ? pick(after) : undefined) as T;
    });
  }
}

function withStatus(entry: QueuedEntry, status: QueuedStatus, reason?: string): QueuedEntry {
  // The old reason and sender go: they described the previous status.
  const { reason: _previousReason, sender: _previousSender, ...rest } = entry;
  return { ...rest, status, ...(reason === undefined ? {} : { reason }) };
}

/** How a failed send of a queued entry counts (PROTOCOL.md §7): only "surely not sent" waits as it was. */
export function outcomeOfError(error: unknown): SendOutcome {
  const reason = error instanceof Error ? error.message : String(error);
  if (error instanceof ConnectionError) return error.sent ? { kind: 'unknown', reason } : { kind: 'notSent', reason };
  if (error instanceof AnswerLostError) return { kind: 'unknown', reason };
  if (error instanceof ValidationError || error instanceof NotFoundError) return { kind: 'refused', reason };
  if (error instanceof AuthenticationError || error instanceof UnavailableError) return { kind: 'blocked', reason };
  if (error instanceof HttpError && (error.status ?? 500) < 500) return { kind: 'blocked', reason };
  return { kind: 'unknown', reason };
}
