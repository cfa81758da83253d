/**
 * One poll: GET /status, plus GET /current only when an activity starts running that we have not
 * seen yet (the status block has no start time; after that the display counts on by itself).
 * App versions without GET /status (first releases answer it 404, PROTOCOL.md §8) are polled
 * through GET /current alone, until the app goes away and comes back (an update restarts it).
 * Errors become states, so the poller never sees a rejection.
 */
import type { CurrentAnswer, StatusAnswer } from '../../client/answerTypes';
import { classify } from './classify';
import {
  needsElapsed,
  sameActivity,
  startedAtOf,
  stateFromCurrent,
  stateFromError,
  stateFromStatus,
  type StartedAt,
  type TrackerState,
} from './trackerState';

export interface StatusReader {
  getStatus(): Promise<StatusAnswer>;
  getCurrent(): Promise<CurrentAnswer | null>;
}

/** Which endpoint the status comes from: GET /status, or GET /current where the app has no /status. */
export type PollSource = 'status' | 'current';

export interface PollOutcome {
  readonly state: TrackerState;
  /** Where the next poll asks. */
  readonly source: PollSource;
}

export async function pollStatus(
  reader: StatusReader | undefined,
  previous: TrackerState,
  clock: () => number,
  source: PollSource = 'status',
): Promise<PollOutcome> {
  if (!reader) return { state: { kind: 'noToken' }, source };
  try {
    if (source === 'current') return { state: stateFromCurrent(await reader.getCurrent(), previous, clock()), source };
    let status: StatusAnswer;
    try {
      status = await reader.getStatus();
    } catch (error) {
      // A 404 on GET /status can only mean that this version of the app does not offer it.
      if (classify(error).kind === 'notFound') return await pollStatus(reader, previous, clock, 'current');
      throw error;
    }
    let startedAt: StartedAt | undefined;
    if (needsElapsed(status, previous)) {
      const current = await reader.getCurrent();
      // Another window may have stopped or switched it between the two requests.
      if (current && status.currentActivity && sameActivity(current, status.currentActivity))
        startedAt = startedAtOf(current);
    }
    return { state: stateFromStatus(status, previous, clock(), startedAt), source };
  } catch (error) {
    const state = stateFromError(error, clock());
    return { state, source: state.kind === 'offline' ? 'status' : source };
  }
}
