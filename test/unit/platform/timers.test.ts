import assert from 'node:assert/strict';
import { boundedTimers, clampDelay, MAX_TIMER_DELAY_MS, realTimers, type Timers } from '../../../src/platform/timers';

// Node fires a timer asked for more than 2^31-1 ms, or for NaN, after 1 ms: every delay of src/ is
// bounded in this one place before a timer sees it.

describe('platform/timers: every delay bounded before a timer sees it', () => {
  it('keeps a delay inside [0, 2^31-1] ms, and waits the longest for one that is not a number', () => {
    assert.equal(MAX_TIMER_DELAY_MS, 2_147_483_647);
    assert.equal(clampDelay(1_500), 1_500);
    assert.equal(clampDelay(0), 0);
    assert.equal(clampDelay(-5), 0);
    assert.equal(clampDelay(MAX_TIMER_DELAY_MS), MAX_TIMER_DELAY_MS);
    assert.equal(clampDelay(1e10), MAX_TIMER_DELAY_MS, 'an interval of 1e7 s');
    assert.equal(clampDelay(99_999_999_000), MAX_TIMER_DELAY_MS, 'a Retry-After of 99999999 s');
    assert.equal(clampDelay(Infinity), MAX_TIMER_DELAY_MS);
    assert.equal(clampDelay(Number.NaN), MAX_TIMER_DELAY_MS);
  });

  it("hands a test's timers the very delay a real timer would get", () => {
    const asked: number[] = [];
    const cleared: unknown[] = [];
    const recording: Timers = {
      setTimeout: (_callback, ms) => asked.push(ms),
      clearTimeout: (handle) => cleared.push(handle),
    };
    const timers = boundedTimers(recording);
    const handle = timers.setTimeout(() => undefined, 1e10);
    timers.setTimeout(() => undefined, 250);
    timers.clearTimeout(handle);
    assert.deepEqual(asked, [MAX_TIMER_DELAY_MS, 250]);
    assert.deepEqual(cleared, [1]);
    assert.equal(boundedTimers(), realTimers, 'without timers given, the real (bounded) ones');
  });

  it('keeps a real timer of 2^40 ms pending instead of firing it at once', async () => {
    let fired = false;
    const handle = realTimers.setTimeout(() => (fired = true), 2 ** 40);
    // Node's own overflow fires after 1 ms: two turns of the loop past that would have run it.
    await new Promise((resolve) => realTimers.setTimeout(() => resolve(undefined), 20));
    await new Promise((resolve) => setImmediate(resolve));
    realTimers.clearTimeout(handle);
    assert.equal(fired, false);
  });
});
