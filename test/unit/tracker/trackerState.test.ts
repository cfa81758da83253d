import assert from 'node:assert/strict';
import {
  AuthenticationError,
  ConnectionError,
  HttpError,
  NotFoundError,
  UnavailableError,
} from '../../../src/client/errors';
import { needsElapsed, stateFromError, stateFromStatus, type TrackerState } from '../../../src/tracker/trackerState';

const activity = { activityID: 'a1', activityName: 'Docs' };
const tracking = { isTracking: true, isOnBreak: false, currentActivity: activity, todaySeconds: 600 };

describe('tracker/trackerState', () => {
  it('maps every client error to the state the user must see', () => {
    const cases: [unknown, TrackerState][] = [
      [new ConnectionError('refused', false), { kind: 'offline' }],
      [new ConnectionError('timed out', true), { kind: 'failed', message: 'timed out' }],
      [new AuthenticationError('bad token'), { kind: 'tokenRejected', clockSkewSeconds: undefined }],
      [new AuthenticationError('clock', -300), { kind: 'tokenRejected', clockSkewSeconds: -300 }],
      [new HttpError(423, 'locked', ''), { kind: 'licenseLocked' }],
      [new HttpError(429, 'out', '', 42), { kind: 'lockedOut', untilMs: 1_000 + 42_000 }],
      [new UnavailableError('not wired'), { kind: 'unavailable' }],
      [new NotFoundError('gone'), { kind: 'failed', message: 'gone' }],
      [new HttpError(500, 'boom', ''), { kind: 'failed', message: 'boom' }],
      [new Error('odd'), { kind: 'failed', message: 'odd' }],
    ];
    for (const [error, expected] of cases) assert.deepEqual(stateFromError(error, 1_000), expected);
  });

  it('asks for the elapsed time once per newly running activity and counts on locally after', () => {
    const starting: TrackerState = { kind: 'starting' };
    assert.equal(needsElapsed(tracking, starting), true);
    const first = stateFromStatus(tracking, starting, 10_000, 125);
    assert.deepEqual(first, { kind: 'tracking', activity, onBreak: false, elapsedSeconds: 125, todaySeconds: 600, observedAtMs: 10_000 });
    assert.equal(needsElapsed(tracking, first), false);
    const later = stateFromStatus({ ...tracking, todaySeconds: 610 }, first, 20_500);
    assert.equal(later.kind === 'tracking' && later.elapsedSeconds, 135);
    const other = { ...tracking, currentActivity: { activityID: 'a2', activityName: 'Other' } };
    assert.equal(needsElapsed(other, later), true);
  });

  it('is idle, with the break flag, when nothing runs', () => {
    assert.deepEqual(stateFromStatus({ isTracking: false, isOnBreak: true, currentActivity: null, todaySeconds: 5 }, { kind: 'starting' }, 7), {
      kind: 'idle',
      onBreak: true,
      todaySeconds: 5,
      observedAtMs: 7,
    });
  });
});
