import assert from 'node:assert/strict';
import { longFromMs, longSession, sessionStart } from '../../../../src/tracker/model/longSession';
import { stateFromStatus, type TrackerState } from '../../../../src/tracker/model/trackerState';

const HOUR = 3_600_000;
const activity = { activityID: 'a1', activityName: 'Write docs' };
const status = { isTracking: true, isOnBreak: false, currentActivity: activity, todaySeconds: 60 };
const tracking: Extract<TrackerState, { kind: 'tracking' }> = {
  kind: 'tracking',
  activity,
  onBreak: false,
  startedAtMs: 10 * HOUR,
  appClockOffsetMs: 0,
  todaySeconds: 60,
  observedAtMs: 12 * HOUR,
  seenSinceMs: 11 * HOUR,
};

describe('tracker/model/longSession', () => {
  it("turns long at the threshold, counted from the app's start on this machine's clock", () => {
    assert.equal(longSession(tracking, 18 * HOUR - 1, 8), undefined, 'a millisecond before');
    assert.deepEqual(longSession(tracking, 18 * HOUR, 8), { sinceMs: 10 * HOUR, fromApp: true });
    assert.deepEqual(longSession(tracking, 30 * HOUR, 8), { sinceMs: 10 * HOUR, fromApp: true });
    assert.equal(longSession(tracking, 18 * HOUR, 8.5), undefined, 'half an hour more asked for');
    // The app's clock runs 5 minutes behind this one: its start is 5 minutes later here, and so is the threshold.
    const behind = { ...tracking, appClockOffsetMs: -5 * 60_000 };
    assert.equal(longSession(behind, 18 * HOUR, 8), undefined);
    assert.deepEqual(longSession(behind, 18 * HOUR + 5 * 60_000, 8), {
      sinceMs: 10 * HOUR + 5 * 60_000,
      fromApp: true,
    });
    assert.equal(longFromMs({ sinceMs: 10 * HOUR, fromApp: true }, 8), 18 * HOUR);
  });

  it('counts from when this window first saw it where the app did not say when it started', () => {
    const unsaid = { ...tracking, startedAtMs: undefined };
    assert.deepEqual(sessionStart(unsaid), { sinceMs: 11 * HOUR, fromApp: false });
    assert.equal(longSession(unsaid, 18 * HOUR, 8), undefined, "the app's start would say long; unsaid, it is not yet");
    assert.deepEqual(longSession(unsaid, 19 * HOUR, 8), { sinceMs: 11 * HOUR, fromApp: false });
    // A state without its first sight (built by hand) counts from its own observation.
    const { seenSinceMs: _seen, ...bare } = unsaid;
    assert.deepEqual(sessionStart(bare), { sinceMs: 12 * HOUR, fromApp: false });
  });

  it('keeps the first sight across polls of the same activity, and starts it again for another', () => {
    const first = stateFromStatus(status, { kind: 'starting' }, 1_000);
    const later = stateFromStatus(status, first, 9_000);
    assert.equal(later.kind === 'tracking' && later.seenSinceMs, 1_000);
    const other = stateFromStatus(
      { ...status, currentActivity: { activityID: 'a2', activityName: 'Other' } },
      later,
      20_000,
    );
    assert.equal(other.kind === 'tracking' && other.seenSinceMs, 20_000);
    const afterIdle = stateFromStatus(status, stateFromStatus({ ...status, isTracking: false }, later, 30_000), 40_000);
    assert.equal(afterIdle.kind === 'tracking' && afterIdle.seenSinceMs, 40_000, 'a session seen ending is over');
  });

  it('is never long while nothing runs, on a break, or while the app does not answer', () => {
    for (const state of [
      { ...tracking, onBreak: true },
      { kind: 'idle', onBreak: false, todaySeconds: 0, observedAtMs: 0 },
      { kind: 'offline' },
    ] as const satisfies readonly TrackerState[])
      assert.equal(longSession(state, 100 * HOUR, 1), undefined, state.kind);
  });
});
