import assert from 'node:assert/strict';
import { maxPollGapMs, observationOf } from '../../../../src/tracker/branchTime/observation';

describe('tracker/branchTime/observation', () => {
  it('reads an activity running (its start on this machine’s clock), idle, and nothing known from the states', () => {
    const activity = { activityID: 'a1', activityName: 'Write docs' };
    assert.deepEqual(
      observationOf({
        kind: 'tracking',
        activity,
        onBreak: false,
        startedAtMs: 10_000,
        appClockOffsetMs: 2_000,
        todaySeconds: 0,
        observedAtMs: 0,
      }),
      {
        kind: 'tracking',
        activity,
        onBreak: false,
        startedAtMs: 8_000,
      },
    );
    assert.deepEqual(observationOf({ kind: 'idle', onBreak: true, todaySeconds: 0, observedAtMs: 0 }), {
      kind: 'idle',
    });
    for (const state of [{ kind: 'offline' }, { kind: 'starting' }, { kind: 'unavailable' }] as const)
      assert.deepEqual(observationOf(state), { kind: 'unknown' });
  });

  it("allows two of a background window's poll intervals between two polls", () => {
    assert.equal(maxPollGapMs(10), 60_000);
    assert.equal(maxPollGapMs(10, 'tracking'), 60_000);
    assert.equal(maxPollGapMs(30), 120_000);
    assert.equal(maxPollGapMs(120), 240_000);
  });

  it('allows two of the slower idle intervals after a poll that saw the app idle, so a start found late still counts', () => {
    assert.equal(maxPollGapMs(10, 'idle'), 120_000);
    assert.equal(maxPollGapMs(2, 'idle'), 24_000);
  });
});
