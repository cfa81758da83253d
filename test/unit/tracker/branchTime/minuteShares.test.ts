import assert from 'node:assert/strict';
import { roundedMinutes, shareMinutes } from '../../../../src/tracker/branchTime/minuteShares';
import { seededRandom } from '../../../support/random';

const SECOND = 1_000;

describe('tracker/branchTime/minuteShares', () => {
  it('shares a total rounded once so that the parts add up to it: 2m 50s + 40s × 3 is 5m, not 2m + 0m × 3', () => {
    const parts = [170 * SECOND, 40 * SECOND, 40 * SECOND, 40 * SECOND];
    const total = roundedMinutes(parts.reduce((sum, ms) => sum + ms, 0));
    assert.equal(total, 5);
    assert.deepEqual(shareMinutes(total, parts), [3, 1, 1, 0]);
  });

  it('gives the minutes left over to the largest fractions, the earlier part first on a tie', () => {
    assert.deepEqual(shareMinutes(3, [1, 1, 1, 1]), [1, 1, 1, 0]);
    assert.deepEqual(shareMinutes(10, [6_000, 3_000, 1_000]), [6, 3, 1]);
  });

  it('adds up for any parts', () => {
    const next = seededRandom(7);
    for (let run = 0; run < 200; run++) {
      const parts = Array.from({ length: 1 + Math.floor(next() * 8) }, () => Math.floor(next() * 3_600_000));
      const total = roundedMinutes(parts.reduce((sum, ms) => sum + ms, 0));
      const shares = shareMinutes(total, parts);
      assert.equal(
        shares.reduce((sum, minutes) => sum + minutes, 0),
        total,
        JSON.stringify(parts),
      );
      shares.forEach((minutes, index) =>
        assert.ok(Math.abs(minutes - parts[index]! / 60_000) < 1, JSON.stringify(parts)),
      );
    }
  });

  it('has nothing to share for no time', () => {
    assert.deepEqual(shareMinutes(0, [0, 0]), [0, 0]);
    assert.deepEqual(shareMinutes(2, []), []);
  });
});
