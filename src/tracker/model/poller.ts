/**
 * When to ask GET /status next, and a poller that never overlaps its requests. Timers and the
 * clock are injected, so tests drive it without waiting.
 */
import { boundedTimers, type Timers } from '../../platform/timers';
import { signingPause } from './signingPause';
import type { TrackerState } from './trackerState';

export const MAX_BACKOFF_MS = 60_000;
/**
 * While something runs, a window in the background polls three times less often, but at least once
 * a minute (unless the interval itself is longer); a focused one keeps the interval, for the time
 * it credits to the branch and the stop it must show.
 */
const BACKGROUND_FACTOR = 3;
/**
 * While nothing runs, a window in the background, or a focused one nobody has used for a while
 * (VS Code's `WindowState.active`: no key, click or touch for about a minute), polls six times less
 * often, once a minute at the default: what it shows changes only when the user acts in the app,
 * and coming back to the window, or using it again, asks at once.
 */
const IDLE_UNUSED_FACTOR = 6;

/** What the window is doing, as VS Code says (`vscode.window.state`). */
export interface WindowUse {
  readonly focused: boolean;
  /** Used recently (`WindowState.active`): a key, a click. Absent: taken as used while focused. */
  readonly active?: boolean;
}

export interface PollTiming extends WindowUse {
  readonly intervalSeconds: number;
  /** Failed polls in a row, this one included; 0 after a good answer. */
  readonly failuresInARow: number;
}

/**
 * Milliseconds until the next poll, or undefined to stop until the user acts: after a rejected
 * token, more polls would only count as failed authentications, and the application locks
 * everyone out after ten of them (several editor windows included).
 */
export function nextPollDelayMs(state: TrackerState, timing: PollTiming, nowMs: number): number | undefined {
  const base = timing.intervalSeconds * 1000;
  switch (state.kind) {
    case 'noToken':
    case 'remoteHost':
    case 'tokenRejected':
      return undefined;
    case 'lockedOut':
      return Math.max(1_000, state.untilMs - nowMs);
    case 'starting':
      return 0;
    case 'idle':
      return timing.focused && timing.active !== false ? base : backgroundPollDelayMs(timing.intervalSeconds, false);
    case 'tracking':
      return timing.focused ? base : backgroundPollDelayMs(timing.intervalSeconds, true);
    case 'offline':
    case 'failed':
    case 'unavailable':
    case 'licenseLocked': {
      const doublings = Math.max(0, timing.failuresInARow - 1);
      return Math.min(MAX_BACKOFF_MS, Math.max(base, base * 2 ** Math.min(doublings, 10)));
    }
  }
}

/**
 * How long a window in the background (or, idle, one nobody uses) waits between polls while the
 * app answers: a few times the interval, but at least once a minute, and never more often than
 * the interval.
 */
export function backgroundPollDelayMs(intervalSeconds: number, running: boolean): number {
  const base = intervalSeconds * 1000;
  return Math.max(base, Math.min(base * (running ? BACKGROUND_FACTOR : IDLE_UNUSED_FACTOR), MAX_BACKOFF_MS));
}

/**
 * Whether polling is paused for a state: after a rejected token every poll would be one more
 * failed sign-in (eleven in 30 s lock every tool out), and during a lockout every poll is refused
 * anyway. Then neither focus nor the end of a command polls; only the user's explicit retry
 * (Check Connection, Set Token) or the lockout's end does. The rule is ./signingPause.ts, which
 * the pickers, the commands and the branch reports ask too.
 */
export function pollingPaused(state: TrackerState, nowMs: number): boolean {
  return signingPause(state, nowMs) !== undefined;
}

export interface PollerOptions {
  /** One poll: resolves to the new state, never rejects (errors are states). */
  readonly poll: () => Promise<TrackerState>;
  readonly onState: (state: TrackerState) => void;
  readonly timing: () => { readonly intervalSeconds: number } & WindowUse;
  readonly clock: () => number;
  readonly timers?: Timers;
}

export class Poller {
  private timer: unknown;
  private inFlight: Promise<void> | undefined;
  private rerun = false;
  private failuresInARow = 0;
  /** When the last poll's answer came (the clock's), for re-planning from it when the window changes. */
  private lastAnsweredAtMs: number | undefined;
  private disposed = false;
  private readonly timers: Timers;

  constructor(private readonly options: PollerOptions) {
    this.timers = boundedTimers(options.timers);
  }

  /**
   * Polls now: on start, on focus, after a command, after a setting or the token changed. If a
   * poll is under way, one more follows it instead of a second running beside it.
   */
  refresh(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    this.cancelTimer();
    if (this.inFlight) {
      this.rerun = true;
      return this.inFlight;
    }
    this.inFlight = this.run();
    return this.inFlight;
  }

  /** Re-plans the next poll, e.g. when focus changes, without polling now. */
  reschedule(state: TrackerState): void {
    if (this.disposed || this.inFlight) return;
    this.schedule(state);
  }

  /**
   * The window was used again, or left: the next regular poll is planned from the last answer
   * with the new pace, and runs at once when it is already due (a window used again after a
   * minute asks now; one used again after a second does not). Other states plan as `reschedule`.
   */
  windowChanged(state: TrackerState): void {
    if (this.disposed || this.inFlight) return;
    const regular = state.kind === 'idle' || state.kind === 'tracking';
    const since = this.lastAnsweredAtMs;
    if (!regular || since === undefined) {
      this.schedule(state);
      return;
    }
    const delay = this.delayFor(state);
    if (delay === undefined) return;
    const left = since + delay - this.options.clock();
    if (left <= 0) {
      void this.refresh();
      return;
    }
    this.cancelTimer();
    this.arm(left);
  }

  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
  }

  private async run(): Promise<void> {
    try {
      this.rerun = false;
      let state = await this.pollOnce();
      while (this.takeRerun()) state = await this.pollOnce();
      if (!this.disposed) this.schedule(state);
    } finally {
      this.inFlight = undefined;
    }
  }

  private async pollOnce(): Promise<TrackerState> {
    const state = await this.options.poll();
    if (this.disposed) return state;
    this.lastAnsweredAtMs = this.options.clock();
    this.failuresInARow = state.kind === 'idle' || state.kind === 'tracking' ? 0 : this.failuresInARow + 1;
    this.options.onState(state);
    return state;
  }

  /** A refresh asked for while a poll ran gets one more poll right after it. */
  private takeRerun(): boolean {
    const again = this.rerun && !this.disposed;
    this.rerun = false;
    return again;
  }

  private schedule(state: TrackerState): void {
    this.cancelTimer();
    const delay = this.delayFor(state);
    if (delay !== undefined) this.arm(delay);
  }

  private delayFor(state: TrackerState): number | undefined {
    return nextPollDelayMs(
      state,
      { ...this.options.timing(), failuresInARow: this.failuresInARow },
      this.options.clock(),
    );
  }

  private arm(delayMs: number): void {
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      void this.refresh();
    }, delayMs);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
