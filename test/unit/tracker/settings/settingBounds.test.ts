import assert from 'node:assert/strict';
import {
  boundedNumber,
  ROUND_TO_MINUTES,
  roundToOf,
  SETTING_BOUNDS,
} from '../../../../src/tracker/settings/settingBounds';

// Every numeric setting is held to its schema's bounds where it is read: a poll interval of 1e7 s
// once reached a timer (Node fired it after 1 ms), a keepDays of 0 would empty the shared ledger.

describe('tracker/settings: numbers held to their bounds', () => {
  it('holds the poll interval between 2 s and an hour', () => {
    const bounds = SETTING_BOUNDS.pollIntervalSeconds;
    assert.equal(boundedNumber(10, bounds), 10);
    assert.equal(boundedNumber(2.5, bounds), 2.5);
    assert.equal(boundedNumber(1e7, bounds), 3600);
    assert.equal(boundedNumber(Infinity, bounds), 3600);
    assert.equal(boundedNumber(0, bounds), 2);
    assert.equal(boundedNumber(-1e9, bounds), 2);
  });

  it('holds the ledger between a day and ten years, in whole days, instead of falling back to the default', () => {
    const bounds = SETTING_BOUNDS['branchTime.keepDays'];
    assert.equal(boundedNumber(60, bounds), 60);
    assert.equal(boundedNumber(0, bounds), 1);
    assert.equal(boundedNumber(1e9, bounds), 3660);
    assert.equal(boundedNumber(7.9, bounds), 7);
  });

  it('holds the name length and the priority', () => {
    assert.equal(boundedNumber(3, SETTING_BOUNDS['statusBar.maxNameLength']), 10);
    assert.equal(boundedNumber(5000, SETTING_BOUNDS['statusBar.maxNameLength']), 200);
    assert.equal(boundedNumber(1e300, SETTING_BOUNDS['statusBar.priority']), 100_000);
    assert.equal(boundedNumber(-1e300, SETTING_BOUNDS['statusBar.priority']), -100_000);
    assert.equal(boundedNumber(0.5, SETTING_BOUNDS['statusBar.priority']), 0.5);
  });

  it('holds the long-session threshold between an hour and a day, fractions kept', () => {
    const bounds = SETTING_BOUNDS['statusBar.longSessionHours'];
    assert.equal(boundedNumber(8, bounds), 8);
    assert.equal(boundedNumber(7.5, bounds), 7.5);
    assert.equal(boundedNumber(0, bounds), 1, 'a 0 would warn of every session at once');
    assert.equal(boundedNumber(-3, bounds), 1);
    assert.equal(boundedNumber(1e9, bounds), 24);
  });

  it('leaves what is no number to the default', () => {
    for (const value of [Number.NaN, '10', null, undefined, true, [10]])
      assert.equal(boundedNumber(value, SETTING_BOUNDS.pollIntervalSeconds), undefined, String(value));
  });

  it('takes roundTo only as one of the minutes it lists, and leaves anything else to the default', () => {
    for (const value of ROUND_TO_MINUTES) assert.equal(roundToOf(value), value);
    for (const value of [0, 7, -15, 6.5, '15', null, undefined, 1e9])
      assert.equal(roundToOf(value), undefined, String(value));
  });
});
