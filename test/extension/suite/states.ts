/** Waiting on the status bar's state from inside the extension host, without blind sleeps. */
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { TrackerState } from '../../../src/tracker/trackerState';

/** Resolves once the state satisfies `predicate`, refreshing as needed; never sleeps blindly. */
export async function until(api: TimeTrackerApi, predicate: (state: TrackerState) => boolean, what: string, timeoutMs = 10_000): Promise<TrackerState> {
  if (predicate(api.details)) return api.details;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(`Timed out waiting for ${what}; the status bar shows ${api.state}: ${api.text}`));
    }, timeoutMs);
    const subscription = api.onDidChangeState((state) => {
      if (!predicate(state)) return;
      clearTimeout(timer);
      subscription.dispose();
      resolve(state);
    });
    void api.refresh();
  });
}

export const kind =
  (expected: TrackerState['kind']) =>
  (state: TrackerState): boolean =>
    state.kind === expected;
