/**
 * What the offline queue's file holds, and how it is read: anything this version did not write
 * is no queue (entryQueue.ts moves such a file aside). Apart from the queue itself so that the
 * queue's file stays about what it does with the entries.
 */
import type { EntryRequest } from '../../protocol/types';
import { errorMessage } from '../../platform/errors';

export type QueuedStatus =
  /** Surely not received yet: sent automatically, in order, when the app answers again. */
  | 'waiting'
  /**
   * Being sent by some window right now (or that window crashed while sending, or could not yet
   * write what became of the send: it shows that itself).
   */
  | 'sending'
  /** The app may or may not have logged it: only the user decides whether to send it again. */
  | 'unknown'
  /** The app refused it (400, 404): kept with the reason until the user sends or discards it. */
  | 'refused'
  /**
   * The app logged it, but the write that removes it from the file failed: the window that sent it
   * shows it so (the file still says `sending`) until a write lands; never sent again.
   */
  | 'delivered';

export interface QueuedEntry {
  readonly id: string;
  readonly request: EntryRequest;
  readonly queuedAt: string;
  readonly status: QueuedStatus;
  readonly reason?: string;
  /** Which process marked it `sending`, to tell a crashed sender from a live one. */
  readonly sender?: string;
}

const STATUSES: readonly string[] = [
  'waiting',
  'sending',
  'unknown',
  'refused',
  'delivered',
] satisfies readonly QueuedStatus[];

/** The queue file as read: its entries, or why it is no queue. */
export type ReadResult = { readonly entries: QueuedEntry[] } | { readonly problem: string };

/** The entries of a queue file, or why it is none: anything this version did not write is no queue. */
export function parseQueue(text: string): ReadResult {
  if (text.trim() === '') return { problem: 'is empty' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { problem: `is not JSON (${errorMessage(error)})` };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { problem: 'is not a JSON object' };
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

export function withStatus(entry: QueuedEntry, status: QueuedStatus, reason?: string): QueuedEntry {
  // The old reason and sender go: they described the previous status.
  const { reason: _previousReason, sender: _previousSender, ...rest } = entry;
  return { ...rest, status, ...(reason === undefined ? {} : { reason }) };
}
