import assert from 'node:assert/strict';
import { roundedMinutes, totalMinutes } from '../../../../src/tracker/branchTime/minuteShares';

const SECOND = 1_000;

describe('tracker/branchTime/minuteShares', () => {
  it('rounds a time to its nearest minute: 20 s and 28 s are 0, 2m 26s is 2, 2m 30s is 3', () => {
    assert.deepEqual(
      [20, 28, 146, 150].map((seconds) => roundedMinutes(seconds * SECOND)),
      [0, 0, 2, 3],
    );
  });

  it('gives a total its own minutes, marked rounded exactly where its parts add up to other minutes', () => {
    assert.deepEqual(totalMinutes(135 * 60 * SECOND, [90, 45]), { minutes: 135 });
    assert.deepEqual(totalMinutes(48 * SECOND, [0, 0]), { minutes: 1, approximate: true }, '20 s + 28 s');
    assert.deepEqual(totalMinutes(290 * SECOND, [3, 1, 1, 1]), { minutes: 5, approximate: true }, '2m 50s + 40 s × 3');
    assert.deepEqual(totalMinutes(0, []), { minutes: 0 });
  });
});
