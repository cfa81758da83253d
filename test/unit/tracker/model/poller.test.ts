import assert from 'node:assert/strict';
import { MAX_TIMER_DELAY_MS, type Timers } from '../../../../src/platform/timers';
import { MAX_BACKOFF_MS, nextPollDelayMs, Poller, pollingPaused } from '../../../../src/tracker/model/poller';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';

const idle: TrackerState = { kind: 'idle', onBreak: false, todaySeconds: 0, observedAtMs: 0 };
const offline: TrackerState = { kind: 'offline' };
const tracking: TrackerState = {
  kind: 'tracking',
  activity: { activityID: 'A', activityName: 'Dev' },
  onBreak: false,
  startedAtMs: 0,
  appClockOffsetMs: 0,
  todaySeconds: 0,
  observedAtMs: 0,
};

/** Timers that only run when the test says so, and remember each delay asked for. */
class ManualTimers implements Timers {
  pending = new Map<number, { callback: () => void; ms: number }>();
  delays: number[] = [];
  private next = 1;
  setTimeout(callback: () => void, ms: number): number {
    const id = this.next++;
    this.pending.set(id, { callback, ms });
    this.delays.push(ms);
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  fire(): void {
    const [id, timer] = [...this.pending.entries()][0] ?? assert.fail('no timer pending');
    this.pending.delete(id);
    timer.callback();
  }
}

describe('tracker/poller: when to poll next', () => {
  const timing = { intervalSeconds: 10, focused: true, failuresInARow: 0 };

  it('polls at the interval while healthy, and slower in the background (at most a minute, never faster than the interval)', () => {
    assert.equal(nextPollDelayMs(idle, timing, 0), 10_000);
    assert.equal(nextPollDelayMs(tracking, timing, 0), 10_000);
    assert.equal(
      nextPollDelayMs(tracking, { ...timing, focused: false }, 0),
      30_000,
      'tracking: three times less often',
    );
    assert.equal(
      nextPollDelayMs(idle, { ...timing, focused: false }, 0),
      60_000,
      'nothing running: six times less often',
    );
    assert.equal(nextPollDelayMs(idle, { ...timing, intervalSeconds: 2, focused: false }, 0), 12_000);
    assert.equal(nextPollDelayMs(tracking, { ...timing, intervalSeconds: 30, focused: false }, 0), 60_000);
    assert.equal(nextPollDelayMs(idle, { ...timing, intervalSeconds: 90, focused: false }, 0), 90_000);
  });

  it('polls slower in a focused window nobody has used for a while, but only while nothing runs', () => {
    assert.equal(nextPollDelayMs(idle, { ...timing, active: false }, 0), 60_000, 'idle, unused: the background pace');
    assert.equal(nextPollDelayMs(idle, { ...timing, active: true }, 0), 10_000);
    assert.equal(nextPollDelayMs(idle, timing, 0), 10_000, 'without word of use, focus counts as use');
    assert.equal(
      nextPollDelayMs(tracking, { ...timing, active: false }, 0),
      10_000,
      'tracking: the ledger and a stop in the app need the interval',
    );
    assert.equal(nextPollDelayMs(tracking, { ...timing, focused: false, active: false }, 0), 30_000);
  });

  it('backs off on errors by doubling, up to 60 s', () => {
    const delays = [1, 2, 3, 4, 5, 30].map((failuresInARow) =>
      nextPollDelayMs(offline, { ...timing, failuresInARow }, 0),
    );
    assert.deepEqual(delays, [10_000, 20_000, 40_000, MAX_BACKOFF_MS, MAX_BACKOFF_MS, MAX_BACKOFF_MS]);
  });

  it('stops after a rejected token or without one, and waits out a lockout', () => {
    assert.equal(nextPollDelayMs({ kind: 'tokenRejected', clockSkewSeconds: undefined }, timing, 0), undefined);
    assert.equal(nextPollDelayMs({ kind: 'noToken' }, timing, 0), undefined);
    assert.equal(nextPollDelayMs({ kind: 'lockedOut', untilMs: 42_500 }, timing, 0), 42_500);
    assert.equal(nextPollDelayMs({ kind: 'lockedOut', untilMs: 10 }, timing, 0), 1_000);
  });
});

describe('tracker/poller: Poller', () => {
  function setup(results: TrackerState[]): {
    poller: Poller;
    timers: ManualTimers;
    states: TrackerState[];
    polls: () => number;
    release: () => void;
  } {
    const timers = new ManualTimers();
    const states: TrackerState[] = [];
    let polls = 0;
    let gate: (() => void) | undefined;
    const poller = new Poller({
      poll: async () => {
        polls++;
        await new Promise<void>((resolve) => (gate = resolve));
        return results[Math.min(polls, results.length) - 1] ?? idle;
      },
      onState: (state) => states.push(state),
      timing: () => ({ intervalSeconds: 10, focused: true }),
      clock: () => 0,
      timers,
    });
    return { poller, timers, states, polls: () => polls, release: () => gate?.() };
  }

  it('never runs two polls at once: a refresh during a poll becomes one poll after it', async () => {
    const { poller, states, polls, release } = setup([idle, idle]);
    const first = poller.refresh();
    void poller.refresh();
    void poller.refresh();
    assert.equal(polls(), 1);
    release();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(polls(), 2, 'exactly one follow-up poll');
    release();
    await first;
    assert.equal(states.length, 2);
  });

  it('schedules the next poll from the state, backing off while offline', async () => {
    const { poller, timers, release } = setup([offline, offline, offline, idle]);
    for (let i = 0; i < 4; i++) {
      const running = i === 0 ? poller.refresh() : (timers.fire(), Promise.resolve());
      await new Promise((resolve) => setImmediate(resolve));
      release();
      await running;
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.deepEqual(timers.delays, [10_000, 20_000, 40_000, 10_000]);
  });

  it('never hands a timer more than it keeps: an interval of 1e7 s or a lockout years away waits the cap, not 1 ms', async () => {
    const timers = new ManualTimers();
    let answer: TrackerState = idle;
    const poller = new Poller({
      poll: () => Promise.resolve(answer),
      onState: () => undefined,
      timing: () => ({ intervalSeconds: 1e7, focused: true }),
      clock: () => 0,
      timers,
    });
    await poller.refresh();
    answer = { kind: 'lockedOut', untilMs: 99_999_999_000 };
    await poller.refresh();
    assert.deepEqual(timers.delays, [MAX_TIMER_DELAY_MS, MAX_TIMER_DELAY_MS]);
    poller.dispose();
  });

  it('re-plans from the last answer when the window is left or used again, and asks at once when that is due', async () => {
    const timers = new ManualTimers();
    let now = 0;
    let use = { focused: true, active: true };
    let polls = 0;
    const poller = new Poller({
      poll: () => {
        polls++;
        return Promise.resolve(idle);
      },
      onState: () => undefined,
      timing: () => ({ intervalSeconds: 10, ...use }),
      clock: () => now,
      timers,
    });
    await poller.refresh();
    assert.deepEqual([polls, timers.delays], [1, [10_000]]);
    now = 4_000;
    use = { focused: true, active: false };
    poller.windowChanged(idle);
    assert.deepEqual(
      timers.delays.at(-1),
      56_000,
      'left unused 4 s after the answer: a minute after it, not after now',
    );
    assert.equal(timers.pending.size, 1);
    now = 7_000;
    use = { focused: true, active: true };
    poller.windowChanged(idle);
    assert.deepEqual(
      [polls, timers.delays.at(-1), timers.pending.size],
      [1, 3_000, 1],
      'used again before the interval is up: no poll now',
    );
    now = 55_000;
    use = { focused: true, active: false };
    poller.windowChanged(idle);
    now = 56_000;
    use = { focused: true, active: true };
    poller.windowChanged(idle);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(polls, 2, 'used again when a poll at the interval was due: it asks at once');
    assert.deepEqual([timers.delays.at(-1), timers.pending.size], [10_000, 1]);
    poller.dispose();
  });

  it('plans a paused or backing-off state as before when the window changes', async () => {
    const { poller, timers, release } = setup([{ kind: 'tokenRejected', clockSkewSeconds: undefined }]);
    const running = poller.refresh();
    release();
    await running;
    poller.windowChanged({ kind: 'tokenRejected', clockSkewSeconds: undefined });
    assert.equal(timers.pending.size, 0, 'still paused: nothing planned');
    poller.windowChanged({ kind: 'lockedOut', untilMs: 42_000 });
    assert.deepEqual([timers.pending.size, timers.delays.at(-1)], [1, 42_000]);
  });

  it('schedules nothing after a rejected token until refreshed', async () => {
    const { poller, timers, release } = setup([{ kind: 'tokenRejected', clockSkewSeconds: undefined }]);
    const running = poller.refresh();
    release();
    await running;
    assert.equal(timers.pending.size, 0);
  });

  it('stops for good when disposed', async () => {
    const { poller, timers, states, release } = setup([idle]);
    const running = poller.refresh();
    poller.dispose();
    release();
    await running;
    assert.equal(states.length, 0);
    assert.equal(timers.pending.size, 0);
    await poller.refresh();
    assert.equal(timers.pending.size, 0);
  });
});

describe('tracker/poller: when polling is paused', () => {
  it('pauses after a rejected token and during a lockout, so focus and commands add no failed sign-ins', () => {
    assert.equal(pollingPaused({ kind: 'tokenRejected', clockSkewSeconds: undefined }, 0), true);
    assert.equal(pollingPaused({ kind: 'tokenRejected', clockSkewSeconds: 120 }, 0), true);
    assert.equal(pollingPaused({ kind: 'lockedOut', untilMs: 60_000 }, 59_999), true);
    assert.equal(pollingPaused({ kind: 'lockedOut', untilMs: 60_000 }, 60_000), false, 'the lockout is over');
    for (const state of [
      idle,
      offline,
      { kind: 'licenseLocked' },
      { kind: 'unavailable' },
      { kind: 'starting' },
    ] as TrackerState[]) {
      assert.equal(pollingPaused(state, 0), false, state.kind);
    }
  });
});
