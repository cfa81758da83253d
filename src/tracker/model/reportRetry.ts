/**
 * Branch reports the app could not take yet, tried again in memory with a growing pause, as the
 * app's own extension does: a lockout (429), an unwired endpoint (503) or a refused connection
 * says the report surely did not arrive, so sending it again cannot prompt twice; an attempt with
 * no connection to send over (`notConnected`) sent nothing and is tried again the same way.
 * Anything that may have arrived is never sent again. Per repository only the newest switch
 * matters: a newer one replaces one still waiting. After ten minutes a report is given up (the switch is old news).
 *
 * While signing is paused (`paused`: the app rejected the token or locks us out) nothing is sent:
 * a report waits, and so does one whose attempt met a 401 (the next would count as one more failed
 * sign-in). `resume()` sends what waits, the newest per repository, once the app takes requests
 * again; a report that waited two minutes after its switch is dropped instead.
 * Timers and the clock are injected, so tests drive it without waiting.
 */
import { classify } from './classify';
import { boundedTimers, type Timers } from '../../platform/timers';

const REPORT_FIRST_RETRY_MS = 2_000;
const REPORT_MAX_RETRY_MS = 60_000;
export const REPORT_GIVE_UP_MS = 10 * 60_000;
/** How long after its switch a report that waits for the pause to end is still worth sending. */
export const REPORT_WAIT_LIFE_MS = 2 * 60_000;

/** What one attempt came to; `waiting`: nothing was sent, it waits for `resume()`. */
export type AttemptOutcome = 'delivered' | 'retry' | 'waiting' | 'failed' | 'replaced';

/** How a report stopped being tried; `expired`: it waited out its life for the pause to end. */
export type Settlement = 'delivered' | 'failed' | 'replaced' | 'gaveUp' | 'expired';

/**
 * What `send` did when it did not throw: sent the report and the app took it, or sent nothing for want of a connection.
 */
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
   * Called once per report that stops being tried: delivered late, failed for good, replaced,
   * given up or expired; `why` says what the last attempt met when it failed or was given up.
   */
  readonly onSettled?: (report: R, outcome: Settlement, why?: Undelivered) => void;
  /** Whether nothing may be signed now; asked before every attempt (default: never paused). */
  readonly paused?: () => boolean;
  readonly clock?: () => number;
  readonly timers?: Timers;
}

interface Pending<R> {
  readonly report: R;
  /** Which submission for its key this is: only the newest is ever tried again. */
  readonly sequence: number;
  readonly since: number;
  attempts: number;
  /** The next try's timer, or the end of its life while it waits for `resume()`. */
  timer: unknown;
  /** Waits for `resume()` rather than for a timer. */
  held: boolean;
  /** `submit` has answered for it (retry, waiting): how it ends goes to `onSettled`. */
  answered: boolean;
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
  private readonly paused: () => boolean;
  private disposed = false;

  constructor(private readonly options: ReportRetryOptions<R>) {
    this.clock = options.clock ?? Date.now;
    this.timers = boundedTimers(options.timers);
    this.paused = options.paused ?? (() => false);
  }

  /** Reports waiting for another try or for the pause to end. */
  get pending(): number {
    return this.waiting.size;
  }

  /**
   * Sends `report` for `key` now and resolves with how the first attempt went; on `retry` it
   * stays here and is tried again until it is delivered, fails for good, is replaced or expires;
   * while paused nothing is sent and it resolves `waiting`.
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
    const pending: Pending<R> = {
      report,
      sequence,
      since: this.clock(),
      attempts: 0,
      timer: undefined,
      held: false,
      answered: false,
    };
    if (!this.paused()) return this.attempt(key, pending);
    this.hold(key, pending);
    return 'waiting';
  }

  /** The app takes requests again: what waits for it goes now, the newest per key. */
  resume(): void {
    if (this.disposed || this.paused()) return;
    for (const [key, pending] of [...this.waiting]) {
      if (!pending.held) continue;
      this.timers.clearTimeout(pending.timer);
      this.waiting.delete(key);
      pending.held = false;
      void this.attempt(key, pending);
    }
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
        if (pending.answered) this.options.onSettled?.(pending.report, 'delivered');
        return 'delivered';
      } catch (error) {
        // A rejected token: the report surely did not arrive, and the next try would count too.
        if (classify(error).kind === 'tokenRejected') {
          this.hold(key, pending);
          return 'waiting';
        }
        if (!retryable(error)) {
          if (pending.answered) this.options.onSettled?.(pending.report, 'failed', { kind: 'failed', error });
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
    pending.answered = true;
    const delay = Math.min(REPORT_MAX_RETRY_MS, REPORT_FIRST_RETRY_MS * 2 ** (pending.attempts - 1));
    if (this.clock() + delay - pending.since > REPORT_GIVE_UP_MS) {
      this.options.onSettled?.(pending.report, 'gaveUp', why);
      return;
    }
    pending.timer = this.timers.setTimeout(() => {
      if (this.waiting.get(key) !== pending) return;
      this.waiting.delete(key);
      if (this.paused()) this.hold(key, pending);
      else void this.attempt(key, pending);
    }, delay);
    this.waiting.set(key, pending);
  }

  /** Keeps `pending` until `resume()`, or drops it when its life after the switch is over first. */
  private hold(key: string, pending: Pending<R>): void {
    if (this.disposed) return;
    pending.answered = true;
    if (this.newest.get(key) !== pending.sequence) {
      this.options.onSettled?.(pending.report, 'replaced');
      return;
    }
    const left = pending.since + REPORT_WAIT_LIFE_MS - this.clock();
    if (left <= 0) {
      this.options.onSettled?.(pending.report, 'expired');
      return;
    }
    pending.held = true;
    pending.timer = this.timers.setTimeout(() => {
      if (this.waiting.get(key) !== pending) return;
      this.waiting.delete(key);
      this.options.onSettled?.(pending.report, 'expired');
    }, left);
    this.waiting.set(key, pending);
  }
}
