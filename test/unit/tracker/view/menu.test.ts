import assert from 'node:assert/strict';
import { menuFor } from '../../../../src/tracker/view/menu';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';

const activity = { activityID: 'a1', activityName: 'Docs' };
const commands = (state: TrackerState): string[] => menuFor(state, false).map((entry) => entry.command);

describe('tracker/menu', () => {
  it('offers Stop and Log Time where the app has them', () => {
    const tracking: TrackerState = { kind: 'tracking', activity, onBreak: false, startedAtMs: 0, appClockOffsetMs: 0, todaySeconds: 60, observedAtMs: 0 };
    assert.deepEqual(commands(tracking), ['timeTracker.stop', 'timeTracker.start', 'timeTracker.log', 'timeTracker.checkConnection', 'timeTracker.showLog']);
    assert.deepEqual(commands({ kind: 'idle', onBreak: false, todaySeconds: 60, observedAtMs: 0 }), ['timeTracker.start', 'timeTracker.log', 'timeTracker.checkConnection', 'timeTracker.showLog']);
  });

  it('leaves Stop and Log Time out for a first release of the app (GET /current alone: no stop, no entries)', () => {
    const tracking: TrackerState = { kind: 'tracking', activity, onBreak: false, startedAtMs: 0, appClockOffsetMs: 0, todaySeconds: undefined, observedAtMs: 0, firstRelease: true };
    assert.deepEqual(commands(tracking), ['timeTracker.start', 'timeTracker.checkConnection', 'timeTracker.showLog']);
    assert.deepEqual(commands({ kind: 'idle', onBreak: false, todaySeconds: undefined, observedAtMs: 0, firstRelease: true }), ['timeTracker.start', 'timeTracker.checkConnection', 'timeTracker.showLog']);
  });

  it('keeps Stop and Log Time for a full app that left today\'s total out', () => {
    const tracking: TrackerState = { kind: 'tracking', activity, onBreak: false, startedAtMs: 0, appClockOffsetMs: 0, todaySeconds: undefined, observedAtMs: 0 };
    assert.deepEqual(commands(tracking), ['timeTracker.stop', 'timeTracker.start', 'timeTracker.log', 'timeTracker.checkConnection', 'timeTracker.showLog']);
  });
});
