/**
 * The session's state as the ledger reads it: an activity running (with its start on
 * this machine's clock), idle, or nothing known; and how far apart two polls may be and still
 * vouch for the time between them. Pure.
 */
import { backgroundPollDelayMs } from '../model/poller';
import type { TrackerState } from '../model/trackerState';
import type { PollObservation } from './attribution';

export function observationOf(state: TrackerState): PollObservation {
  switch (state.kind) {
    case 'tracking':
      return {
        kind: 'tracking',
        activity: { activityID: state.activity.activityID, activityName: state.activity.activityName },
        onBreak: state.onBreak,
        startedAtMs: state.startedAtMs === undefined ? undefined : state.startedAtMs - state.appClockOffsetMs,
      };
    case 'idle':
      return { kind: 'idle' };
    default:
      return { kind: 'unknown' };
  }
}

/**
 * Two of the longest intervals a window waits between polls while the app answers (a background
 * window's), after a poll that saw `previous`: while idle a window nobody uses polls slower than
 * while tracking, and a start the app reports after such a wait still counts from the start.
 */
export function maxPollGapMs(intervalSeconds: number, previous: PollObservation['kind'] = 'tracking'): number {
  return 2 * backgroundPollDelayMs(intervalSeconds, previous !== 'idle');
}
