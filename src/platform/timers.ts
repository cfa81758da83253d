/**
 * Every timer of src/ is set here, so that every delay it is given is bounded. Node fires a timer
 * asked for more than 2^31−1 ms (about 24.8 days), or for NaN, after 1 ms instead: a number from a
 * setting or an answer that slipped past its own bound would turn a wait into a loop of requests.
 * ESLint refuses `setTimeout` and `setInterval` everywhere else in src/.
 */

/** The longest delay Node keeps as asked (a signed 32-bit count of milliseconds). */
export const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * A delay a timer keeps: at most MAX_TIMER_DELAY_MS, at least 0. NaN waits the longest, since a
 * wait that is too long is noticed and retried by the user, one that is too short repeats unseen.
 */
export function clampDelay(ms: number): number {
  if (Number.isNaN(ms)) return MAX_TIMER_DELAY_MS;
  return Math.min(MAX_TIMER_DELAY_MS, Math.max(0, ms));
}

/** The timers a part takes, so that tests move a clock instead of waiting. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Node's timer, with the delay bounded; unreferenced ones are `.unref()`ed by the caller. */
export function later(callback: () => void, ms: number): NodeJS.Timeout {
  return setTimeout(callback, clampDelay(ms));
}

/** Node's interval, with the period bounded. */
export function every(callback: () => void, ms: number): NodeJS.Timeout {
  return setInterval(callback, clampDelay(ms));
}

/** A promise that resolves after `ms`, bounded. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => later(resolve, ms));
}

export const realTimers: Timers = {
  setTimeout: later,
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * The timers a part uses: the given ones (a test's) or the real ones, each delay bounded before
 * it reaches them, so a test sees the very delay a real timer would be given.
 */
export function boundedTimers(timers: Timers = realTimers): Timers {
  if (timers === realTimers) return realTimers;
  return {
    setTimeout: (callback, ms) => timers.setTimeout(callback, clampDelay(ms)),
    clearTimeout: (handle) => timers.clearTimeout(handle),
  };
}

/**
 * Node's `AbortSignal.timeout`, with the delay bounded and made whole (it refuses a fraction or
 * anything outside 32 bits); unreferenced, as Node makes it.
 */
export function timeoutSignal(ms: number): AbortSignal {
  return AbortSignal.timeout(Math.ceil(clampDelay(ms)));
}
