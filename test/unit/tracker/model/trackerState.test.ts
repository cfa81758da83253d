import assert from 'node:assert/strict';
import {
  AuthenticationError,
  ConnectionError,
  HttpError,
  NotFoundError,
  UnavailableError,
} from '../../../../src/client/errors';
import {
  elapsedSecondsAt,
  needsElapsed,
  sameState,
  stateFromCurrent,
  stateFromError,
  stateFromStatus,
  type TrackerState,
} from '../../../../src/tracker/model/trackerState';

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

  it('asks for the start once per newly running activity and carries it while the same one runs', () => {
    const starting: TrackerState = { kind: 'starting' };
    assert.equal(needsElapsed(tracking, starting), true);
    const first = stateFromStatus(tracking, starting, 10_000, {
      startedAtMs: 5_000 - 125_000,
      appClockOffsetMs: 5_000,
    });
    assert.deepEqual(first, {
      kind: 'tracking',
      activity,
      onBreak: false,
      startedAtMs: -120_000,
      appClockOffsetMs: 5_000,
      todaySeconds: 600,
      observedAtMs: 10_000,
      seenSinceMs: 10_000,
    });
    assert.equal(first.kind === 'tracking' && elapsedSecondsAt(first, 10_000), 135);
    assert.equal(needsElapsed(tracking, first), false);
    const later = stateFromStatus({ ...tracking, todaySeconds: 610 }, first, 20_500);
    assert.equal(later.kind === 'tracking' && elapsedSecondsAt(later, 20_500), 145);
    const other = { ...tracking, currentActivity: { activityID: 'a2', activityName: 'Other' } };
    assert.equal(needsElapsed(other, later), true);
    assert.equal(
      needsElapsed(
        { ...tracking, currentActivity: { ...activity, activityID: activity.activityID.toUpperCase() } },
        later,
      ),
      false,
      'ids in either case',
    );
  });

  it('reads GET /current alone for an app without GET /status: no total for today', () => {
    const current = {
      activityID: 'a1',
      activityName: 'Docs',
      startedAtMs: 1_000,
      isOnBreak: true,
      appClockOffsetMs: undefined,
    };
    assert.deepEqual(stateFromCurrent(current, { kind: 'starting' }, 4_000), {
      kind: 'tracking',
      activity,
      onBreak: true,
      startedAtMs: 1_000,
      appClockOffsetMs: 0,
      todaySeconds: undefined,
      observedAtMs: 4_000,
      seenSinceMs: 4_000,
      firstRelease: true,
    });
    assert.deepEqual(stateFromCurrent(null, { kind: 'starting' }, 4_000), {
      kind: 'idle',
      onBreak: false,
      todaySeconds: undefined,
      observedAtMs: 4_000,
      firstRelease: true,
    });
  });

  it('keeps a total GET /status did not say as not said, and such an app is no first release', () => {
    const status = { isTracking: false, isOnBreak: false, currentActivity: null, todaySeconds: undefined };
    assert.deepEqual(stateFromStatus(status, { kind: 'starting' }, 4_000), {
      kind: 'idle',
      onBreak: false,
      todaySeconds: undefined,
      observedAtMs: 4_000,
    });
  });

  it('is idle, with the break flag, when nothing runs', () => {
    assert.deepEqual(
      stateFromStatus(
        { isTracking: false, isOnBreak: true, currentActivity: null, todaySeconds: 5 },
        { kind: 'starting' },
        7,
      ),
      {
        kind: 'idle',
        onBreak: true,
        todaySeconds: 5,
        observedAtMs: 7,
      },
    );
  });

  it('takes an answer that says nothing new for the same state, observed later', () => {
    const first = stateFromStatus({ ...tracking, todaySeconds: 600 }, { kind: 'starting' }, 10_000, {
      startedAtMs: 0,
      appClockOffsetMs: 0,
    });
    // Ten seconds on, the app counted today's total on as the display does (give or take the second a request takes).
    for (const todaySeconds of [609, 610, 611])
      assert.ok(sameState(first, stateFromStatus({ ...tracking, todaySeconds }, first, 20_000)), String(todaySeconds));
    const changed: TrackerState[] = [
      stateFromStatus({ ...tracking, todaySeconds: 600 }, first, 20_000),
      stateFromStatus({ ...tracking, todaySeconds: 1_210 }, first, 20_000),
      stateFromStatus({ ...tracking, isOnBreak: true, todaySeconds: 610 }, first, 20_000),
      stateFromStatus(
        { ...tracking, currentActivity: { ...activity, activityName: 'Renamed' }, todaySeconds: 610 },
        first,
        20_000,
      ),
      stateFromStatus({ ...tracking, todaySeconds: 610 }, first, 20_000, { startedAtMs: 5_000, appClockOffsetMs: 0 }),
      stateFromStatus({ ...tracking, isTracking: false, currentActivity: null }, first, 20_000),
    ];
    for (const state of changed) assert.equal(sameState(first, state), false, JSON.stringify(state));

    const idle: TrackerState = { kind: 'idle', onBreak: false, todaySeconds: 610, observedAtMs: 20_000 };
    assert.ok(sameState(idle, { ...idle, observedAtMs: 80_000 }), "idle: today's total does not count on");
    assert.equal(sameState(idle, { ...idle, todaySeconds: 900 }), false);
    assert.ok(sameState({ kind: 'offline' }, { kind: 'offline' }));
    assert.ok(sameState({ kind: 'failed', message: 'a' }, { kind: 'failed', message: 'a' }));
    assert.equal(sameState({ kind: 'failed', message: 'a' }, { kind: 'failed', message: 'b' }), false);
    assert.equal(sameState({ kind: 'lockedOut', untilMs: 1 }, { kind: 'lockedOut', untilMs: 2 }), false);
  });
});
