import assert from 'node:assert/strict';
import { FlushSchedule, QUEUE_LOOK_INTERVAL_MS } from '../../../../src/tracker/queue/flushSchedule';

const POLL_MS = 10_000;

/** A schedule on a clock the test moves; `poll` advances one interval and asks. */
function scheduleOnClock(): { schedule: FlushSchedule; poll: (answering: boolean, knownWaiting?: number) => boolean } {
  let nowMs = 1_000_000;
  const schedule = new FlushSchedule(() => nowMs);
  return {
    schedule,
    poll: (answering, knownWaiting = 0) => {
      nowMs += POLL_MS;
      return schedule.shouldLook(answering, knownWaiting);
    },
  };
}

describe('FlushSchedule: when a window reads the offline queue file', () => {
  it('looks at the first answer, then not again on quiet polls until the backstop is due', () => {
    const { poll } = scheduleOnClock();
    const looks: number[] = [];
    const polls = (2 * QUEUE_LOOK_INTERVAL_MS) / POLL_MS;
    for (let index = 0; index < polls; index++) if (poll(true)) looks.push(index);
    // Polls 0, 30 (5 min later): one look at the first answer and one per backstop interval.
    assert.deepEqual(looks, [0, QUEUE_LOOK_INTERVAL_MS / POLL_MS]);
  });

  it('looks at once when the app answers again after it did not, and never while it does not', () => {
    const { poll } = scheduleOnClock();
    assert.equal(poll(true), true);
    assert.equal(poll(true), false);
    assert.equal(poll(false), false, 'nothing can be sent while the app does not answer');
    assert.equal(poll(false, 3), false, 'not even with entries waiting');
    assert.equal(poll(true), true, 'the app is back: entries queued meanwhile, by any window, go now');
    assert.equal(poll(true), false);
  });

  it('looks on every answer while the window knows of waiting entries', () => {
    const { poll } = scheduleOnClock();
    poll(true);
    assert.deepEqual([poll(true, 1), poll(true, 1), poll(true, 2)], [true, true, true]);
    assert.equal(poll(true, 0), false, 'sent: back to the backstop');
  });

  it('counts the backstop from the last look, whatever caused it', () => {
    let nowMs = 0;
    const schedule = new FlushSchedule(() => nowMs, 60_000);
    assert.equal(schedule.shouldLook(true, 0), true);
    nowMs = 50_000;
    assert.equal(schedule.shouldLook(true, 1), true, 'a known entry');
    nowMs = 100_000;
    assert.equal(schedule.shouldLook(true, 0), false, '50 s after the last look, not 100 s after the first');
    nowMs = 110_000;
    assert.equal(schedule.shouldLook(true, 0), true);
  });
});
