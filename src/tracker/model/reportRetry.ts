/**
 * Branch reports the app could not take yet, tried again in memory with a growing pause, as the
 * app's own extension does: a lockout (429), an unwired endpoint (503) or a refused connection
 * says the report surely did not arrive, so sending it again cannot prompt twice; an attempt with
 * no connection to send over (`notConnected`) sent nothing and is tried again the same way.
 * Anything that may have arrived is never sent again. Per repository only the newest switch
 * matters: a newer one replaces one still waiting. After ten minutes a report is given up (the switch is old news).
 * Timers and the clock are injected, so tests drive it without waiting.
 */
import { classify } from './classify';
import { realTimers, type Timers } from './poller';

const REPORT_FIRST_RETRY_MS = 2_000;
const REPORT_MAX_RETRY_MS = 60_000;
export const REPORT_GIVE_UP_MS = 10 * 60_000;

/** What one attempt came to. */
export type AttemptOutcome = 'delivered' | 'retry' | 'failed' | 'replaced';

/** What `send` did when it did not throw: sent the report and the app took it, or sent nothing for want of a connection. */
export type SendResult = 'sent' | 'notConnected';

/** Why a report was not delivered: the last attempt's error, or no connection to send it over. */
export type Undelivered = { readonly kind: 'failed'; readonly error: unknown } | { readonly kind: 'notConnected' };

/** Whether a failed report may be sent again: only when it surely did not reach the app. */
export function retryable(error: unknown): boolean {
  const { kind } = classify(error);
  return kind === 'offline' || kind === 'unavailable' || kind === 'lockedOut';
}

export interface ReportRetryOptions<R> {
  /** One attempt; `notConnected` is tried again, and rejections are read with `retryable`. */
  readonly send: (report: R) => Promise<SendResult>;
  /**
   * Called once per report that stops being tried: delivered late, failed for good, replaced or
   * given up; `why` says what the last attempt met when it failed or was given up.
   */
  readonly onSettled?: (report: R, outcome: 'delivered' | 'failed' | 'replaced' | 'gaveUp', why?: Undelivered) => void;
  readonly clock?: () => number;
  readonly timers?: Timers;
}

interface Pending<R> {
  readonly report: R;
  /** Which submission for its key this is: only the newest is ever tried again. */
  readonly sequence: number;
  readonly since: number;
  attempts: number;
  timer: unknown;
}

export class ReportRetry<R> {
  private readonly waiting = new Map<string, Pending<R>>();
  /** Keys with an attempt on the wire: a newer report waits for it, so two never overlap. */
  private readonly inFlight = new Map<string, Promise<AttemptOutcome>>();
  /** The newest submission per key. */
  private readonly newest = new Map<string, number>();
  private submissions = 0;
  private readonly clock: () => number;
  private readonly timers: Timers;
  private disposed = false;

  constructor(private readonly options: ReportRetryOptions<R>) {
    this.clock = options.clock ?? Date.now;
    this.timers = options.timers ?? realTimers;
  }

  /** Reports waiting for another try. */
  get pending(): number {
    return this.waiting.size;
  }

  /**
   * Sends `report` for `key` now and resolves with how the first attempt went; on `retry` it
   * stays here and is tried again until it is delivered, fails for good, is replaced or expires.
   */
  async submit(key: string, report: R): Promise<AttemptOutcome> {
    const sequence = ++this.submissions;
    this.newest.set(key, sequence);
    const older = this.waiting.get(key);
    if (older) {
      this.timers.clearTimeout(older.timer);
      this.waiting.delete(key);
      this.options.onSettled?.(older.report, 'replaced');
    }
    // The attempt before this one may still be on the wire: wait, then go (newest last).
    await this.inFlight.get(key)?.catch(() => undefined);
    // Replaced while it waited its turn: the newer one goes instead, this one never.
    if (this.newest.get(key) !== sequence) {
      this.options.onSettled?.(report, 'replaced');
      return 'replaced';
    }
    return this.attempt(key, { report, sequence, since: this.clock(), attempts: 0, timer: undefined });
  }

  dispose(): void {
    this.disposed = true;
    for (const pending of this.waiting.values()) this.timers.clearTimeout(pending.timer);
    this.waiting.clear();
  }

  private attempt(key: string, pending: Pending<R>): Promise<AttemptOutcome> {
    const run = (async (): Promise<AttemptOutcome> => {
      pending.attempts++;
      try {
        if ((await this.options.send(pending.report)) === 'notConnected') {
          this.later(key, pending, { kind: 'notConnected' });
          return 'retry';
        }
        if (pending.attempts > 1) this.options.onSettled?.(pending.report, 'delivered');
        return 'delivered';
      } catch (error) {
        if (!retryable(error)) {
          if (pending.attempts > 1) this.options.onSettled?.(pending.report, 'failed', { kind: 'failed', error });
          return 'failed';
        }
        this.later(key, pending, { kind: 'failed', error });
        return 'retry';
      }
    })();
    this.inFlight.set(key, run);
    void run.finally(() => {
      if (this.inFlight.get(key) === run) this.inFlight.delete(key);
    });
    return run;
  }

  /** Plans the next try: 2 s, 4 s, 8 s… at most a minute apart, none after ten minutes. */
  private later(key: string, pending: Pending<R>, why: Undelivered): void {
    if (this.disposed) return;
    // A newer report for this key arrived during the attempt: it replaces this one.
    if (this.newest.get(key) !== pending.sequence) {
      this.options.onSettled?.(pending.report, 'replaced');
      return;
    }
    const delay = Math.min(REPORT_MAX_RETRY_MS, REPORT_FIRST_RETRY_MS * 2 ** (pending.attempts - 1));
    if (this.clock() + delay - pending.since > REPORT_GIVE_UP_MS) {
      this.options.onSettled?.(pending.report, 'gaveUp', why);
      return;
    }
    pending.timer = this.timers.setTimeout(() => {
      if (this.waiting.get(key) !== pending) return;
      this.waiting.delete(key);
      void this.attempt(key, pending);
    }, delay);
    this.waiting.set(key, pending);
  }
}
