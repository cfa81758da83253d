/**
 * The offline queue of this window over src/tracker/queue/entryQueue.ts: its count for the status
 * bar, its flush when the app answers again, and what the user is told when an entry needs them.
 */
import * as vscode from 'vscode';
import type { ServiceClient } from '../client';
import type { EntryRequest } from '../protocol/types';
import { sentFromQueue, type QueueCause, type SentEntry } from '../tracker/statusBar/confirmations';
import { formatMinutes } from '../tracker/duration';
import { EntryQueue, outcomeOfError, type FlushResult, type SendOutcome } from '../tracker/queue/entryQueue';
import { FlushSchedule } from '../tracker/queue/flushSchedule';
import type { QueuedEntry } from '../tracker/queue/queueFormat';
import { ownProcessIsRunning } from '../platform/processes';
import type { Messages } from './messages';
import { errorMessage } from '../platform/errors';
import type { Log } from './oneLineLog';

/**
 * The offline queue in this window: the count the status bar shows, and the flush that runs when
 * the app answers again. The queue file lives in the extension's global storage, shared by all
 * windows; its lock makes sure only one of them sends a given entry. What runs in the background
 * (start, flush) never rejects: a failure is logged, the entries stay on disk for the next try.
 */
export class OfflineQueue implements vscode.Disposable {
  private readonly queue: EntryQueue;
  private readonly changed = new vscode.EventEmitter<number>();
  readonly onDidChangeCount = this.changed.event;
  private count = 0;
  /**
   * Of `count`, the entries a flush has work for when the app answers: those that go on their own
   * (`waiting`), and those delivered whose removal from the file is still to be written.
   */
  private sendable = 0;
  private readonly schedule = new FlushSchedule();
  private flushing: Promise<FlushResult | undefined> | undefined;
  /**
   * Why each entry this window queued waits, for the words when it is sent; another window's entries are not known
   * here.
   */
  private readonly causes = new Map<string, QueueCause>();
  /** Entries someone waits to see leave the queue (settled()), and how to tell them. */
  private readonly watched = new Map<string, () => void>();

  constructor(
    folder: string,
    private readonly log: Log,
    private readonly messages: Messages,
    /** timeTracker.statusBar.private as last read: the note of what was sent then names nothing. */
    private readonly isPrivate: () => boolean,
  ) {
    this.queue = new EntryQueue(folder, { onCorrupt: (keptAs, problem) => this.reportCorrupt(keptAs, problem) });
  }

  get waiting(): number {
    return this.count;
  }

  /** At start: entries a crashed window left mid-send become "unknown", and the count is read. */
  async start(): Promise<void> {
    try {
      const recovered = await this.queue.recover(isAlive);
      if (recovered > 0)
        this.log.warn(
          `${recovered} queued entr${recovered === 1 ? 'y was' : 'ies were'} being sent when an editor closed; see Show Queued Entries.`,
        );
    } catch (error) {
      this.log.error(`Could not look for entries a closed editor left mid-send: ${errorMessage(error)}`);
    }
    await this.recount();
  }

  /** On disk when this resolves: only then may the user be told "queued" (and why: `cause`). */
  async add(request: EntryRequest, cause: QueueCause): Promise<QueuedEntry> {
    const entry = await this.queue.add(request);
    this.causes.set(entry.id, cause);
    this.log.info(
      `Queued ${formatMinutes(request.durationMinutes)} on ${request.name ?? request.activityID ?? '?'} until the app answers.`,
    );
    await this.recount();
    return entry;
  }

  /**
   * Resolves once the entry no longer waits to be sent, as this window reads the queue: sent,
   * refused, of unknown fate or discarded (or the window closes).
   */
  settled(id: string): Promise<void> {
    return new Promise((resolve) => this.watched.set(id, resolve));
  }

  list(): Promise<readonly QueuedEntry[]> {
    return this.queue.list();
  }

  async discard(id: string): Promise<void> {
    await this.queue.discard(id);
    await this.recount();
  }

  /** The user chose to send this entry again (also one whose fate was unknown). */
  async retry(id: string): Promise<void> {
    await this.queue.retry(id);
    await this.recount();
  }

  /**
   * Each state the poll produces: sends what waits when the app takes entries again, while this
   * window knows of waiting entries, and now and then for entries other windows left (FlushSchedule).
   */
  stateChanged(answering: boolean, client: ServiceClient | undefined): void {
    if (this.schedule.shouldLook(answering, this.sendable)) void this.flush(client);
  }

  /** Sends what waits, in order; one flush at a time in this window. */
  flush(client: ServiceClient | undefined): Promise<FlushResult | undefined> {
    if (!client) return Promise.resolve(undefined);
    this.flushing ??= this.runFlush(client)
      .catch((error: unknown) => {
        // The entries stay on disk; the next answer from the app tries again.
        this.log.warn(`Could not send the queued entries now: ${errorMessage(error)}`);
        return undefined;
      })
      .finally(() => {
        this.flushing = undefined;
      });
    return this.flushing;
  }

  private async runFlush(client: ServiceClient): Promise<FlushResult | undefined> {
    const entries = await this.queue.list();
    // The file is shared: another window may have added or sent entries since this one counted.
    this.setCount(entries);
    if (!entries.some(needsFlush)) return undefined;
    const sent: SentEntry[] = [];
    const result = await this.queue.flush(async (request, id): Promise<SendOutcome> => {
      try {
        const logged = await client.logEntry(request);
        const entry = {
          minutes: logged.durationMinutes ?? request.durationMinutes,
          name: logged.activityName ?? request.name ?? request.activityID ?? '?',
          cause: this.causes.get(id),
        };
        this.causes.delete(id);
        sent.push(entry);
        this.log.info(`Sent the queued ${formatMinutes(entry.minutes)} on ${entry.name}.`);
        return { kind: 'delivered' };
      } catch (error) {
        return outcomeOfError(error);
      }
    });
    // Said once per flush, by the window that sent them, so that an entry does not leave the badge
    // unseen: what one entry was, or how many and how long in all (while private: how many).
    const said = sentFromQueue(sent, this.isPrivate());
    if (said !== undefined) void this.messages.info(said);
    // Withdraws the notices of what was queued (settle()), in the same moment.
    await this.recount();
    if (result.unrecorded !== undefined) {
      // Shown as it is in Show Queued Entries meanwhile (a delivered entry as such); the next write records it.
      this.log.warn(
        `Could not write to the queue file what became of a queued entry (${result.unrecorded}); ` +
          'this window keeps it and writes it before it sends anything else. ' +
          'An entry the app took is not sent again.',
      );
    }
    const attention = [...result.newlyUnknown, ...result.newlyRefused];
    if (attention.length > 0) {
      for (const entry of attention) this.log.warn(`Queued entry not sent (${entry.status}): ${entry.reason ?? ''}`);
      let what: string;
      if (result.newlyUnknown.length > 0) {
        what = vscode.l10n.t(
          'A queued entry may or may not have reached the app (the connection broke while sending); it was not sent again.',
        );
      } else if (attention.length === 1) {
        what = vscode.l10n.t('The app refused a queued entry; it is kept with the reason.');
      } else {
        what = vscode.l10n.t('The app refused {0} queued entries; they are kept with the reason.', attention.length);
      }
      void this.messages.warn(
        `${what} ${vscode.l10n.t('Decide in Show Queued Entries.')}`,
        this.messages.actions.showQueue(),
      );
    }
    return result;
  }

  /** The queue file could not be read and was kept aside (EntryQueue moved it): said once, where it went. */
  private reportCorrupt(keptAs: string, problem: string): void {
    this.log.warn(`The offline queue file ${problem}; it was kept as ${keptAs} and a new, empty queue started.`);
    void this.messages.warn(
      [
        vscode.l10n.t(
          'The offline queue file could not be read, so it was kept as {0} and a new queue started:',
          keptAs,
        ),
        vscode.l10n.t('log any entries it holds in the app by hand.'),
      ].join(' '),
      { label: vscode.l10n.t('Open File'), run: () => vscode.window.showTextDocument(vscode.Uri.file(keptAs)) },
    );
  }

  private async recount(): Promise<void> {
    const entries = await this.queue.list().catch(() => undefined);
    // An unreadable queue counts as empty, but tells no watcher that its entry left it.
    this.setCount(entries ?? [], entries !== undefined);
  }

  private setCount(entries: readonly QueuedEntry[], read = true): void {
    if (read) this.settle(entries);
    this.sendable = entries.filter(needsFlush).length;
    if (entries.length === this.count) return;
    this.count = entries.length;
    this.changed.fire(this.count);
  }

  /** Tells whoever waits for an entry that no longer waits in `entries`. */
  private settle(entries: readonly QueuedEntry[]): void {
    for (const [id, resolve] of this.watched) {
      if (entries.some((entry) => entry.id === id && (entry.status === 'waiting' || entry.status === 'sending')))
        continue;
      this.watched.delete(id);
      this.causes.delete(id);
      resolve();
    }
  }

  dispose(): void {
    for (const resolve of this.watched.values()) resolve();
    this.watched.clear();
    this.changed.dispose();
  }
}

/** Waiting to be sent, or delivered with its removal still to be written: what a flush does something with. */
function needsFlush(entry: QueuedEntry): boolean {
  return entry.status === 'waiting' || entry.status === 'delivered';
}

/** Senders are `<pid>-<uuid>`: a sender whose process is gone died mid-send. */
function isAlive(sender: string): boolean {
  return ownProcessIsRunning(Number(sender.split('-', 1)[0]));
}
