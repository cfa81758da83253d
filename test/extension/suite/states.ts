/** Waiting on the extension from inside the extension host: on its events, never on blind sleeps. */
import type * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { TrackerState } from '../../../src/tracker/model/trackerState';

/**
 * Resolves with the first value of `current()` or of `event` that satisfies `predicate`. After
 * subscribing it calls `nudge`, if given, for a value that would otherwise wait for a timer.
 */
export function untilEvent<T>(
  event: vscode.Event<T>,
  current: () => T,
  predicate: (value: T) => boolean,
  timedOut: () => string,
  timeoutMs: number,
  nudge?: () => unknown,
): Promise<T> {
  const now = current();
  if (predicate(now)) return Promise.resolve(now);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(timedOut()));
    }, timeoutMs);
    const subscription = event((value) => {
      if (!predicate(value)) return;
      clearTimeout(timer);
      subscription.dispose();
      resolve(value);
    });
    nudge?.();
  });
}

/** Resolves once the state satisfies `predicate`, asking the app once at the start. */
export function until(api: TimeTrackerApi, predicate: (state: TrackerState) => boolean, what: string, timeoutMs = 10_000): Promise<TrackerState> {
  return untilEvent(
    api.onDidChangeState,
    () => api.details,
    predicate,
    () => `Timed out waiting for ${what}; the status bar shows ${api.state}: ${api.text}`,
    timeoutMs,
    () => void api.refresh(),
  );
}

export const kind =
  (expected: TrackerState['kind']) =>
  (state: TrackerState): boolean =>
    state.kind === expected;

/** Resolves once the offline queue holds `count` entries (read back from disk, or sent). */
export async function untilQueued(api: TimeTrackerApi, count: number, what: string, timeoutMs: number): Promise<void> {
  await untilEvent(
    api.onDidChangeQueuedEntries,
    () => api.queuedEntries,
    (now) => now === count,
    () => `Timed out after ${timeoutMs / 1000} s waiting for ${what}: ${api.queuedEntries} queued; the status bar shows ${api.text}`,
    timeoutMs,
  );
}
