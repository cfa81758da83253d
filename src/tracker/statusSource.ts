/**
 * One poll: GET /status, plus GET /current only when an activity starts running that we have not
 * seen yet (the status block has no elapsed time; after that the display counts on by itself).
 * Errors become states, so the poller never sees a rejection.
 */
import type { CurrentResult, StatusResult } from '../protocol/types';
import { needsElapsed, stateFromError, stateFromStatus, type TrackerState } from './trackerState';

export interface StatusReader {
  getStatus(): Promise<StatusResult>;
  getCurrent(): Promise<CurrentResult>;
}

export async function pollStatus(
  reader: StatusReader | undefined,
  previous: TrackerState,
  clock: () => number,
): Promise<TrackerState> {
  if (!reader) return { kind: 'noToken' };
  try {
    const status = await reader.getStatus();
    let elapsedSeconds: number | undefined;
    if (needsElapsed(status, previous)) {
      const current = await reader.getCurrent();
      // Another window may have stopped or switched it between the two requests.
      if (current && current.activityID === status.currentActivity?.activityID) elapsedSeconds = current.elapsedSeconds;
    }
    return stateFromStatus(status, previous, clock(), elapsedSeconds);
  } catch (error) {
    return stateFromError(error, clock());
  }
}
