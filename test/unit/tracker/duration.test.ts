import assert from 'node:assert/strict';
import { formatMinutes, parseDuration } from '../../../src/tracker/duration';

describe('tracker/duration', () => {
  it('reads every documented form as minutes', () => {
    const cases: [string, number][] = [
      ['90', 90],
      ['90m', 90],
      ['90 min', 90],
      ['1h30m', 90],
      ['1h 30m', 90],
      ['1h30', 90],
      ['1.5h', 90],
      ['1,5h', 90],
      ['1:30', 90],
      ['0:05', 5],
      ['2h', 120],
      [' 45 ', 45],
      ['24h', 1440],
    ];
    for (const [input, minutes] of cases) assert.deepEqual(parseDuration(input), { ok: true, minutes }, input);
  });

  it('logs whole minutes only, the nearest one, as the app takes nothing else', () => {
    const cases: [string, number][] = [
      ['1.33h', 80],
      ['1.5h', 90],
      ['2.5', 3],
      ['2.4m', 2],
      ['0.25h', 15],
      ['0.1h', 6],
    ];
    for (const [input, minutes] of cases) assert.deepEqual(parseDuration(input), { ok: true, minutes }, input);
    // Less than half a minute rounds to nothing: the sentence names the least it takes, not "more than 0".
    assert.deepEqual(parseDuration('0.4'), { ok: false, message: 'The duration must be at least 1 minute.' });
    assert.deepEqual(parseDuration('0.2m'), { ok: false, message: 'The duration must be at least 1 minute.' });
    assert.deepEqual(parseDuration('0.5'), { ok: true, minutes: 1 });
  });

  it('refuses zero, too long and unreadable input with a sentence that shows the forms', () => {
    const cases: [string, RegExp][] = [
      ['', /^Type how long, for example 30m or 1h30m\.$/],
      ['   ', /^Type how long, for example 30m or 1h30m\.$/],
      ['0', /^The duration must be at least 1 minute\.$/],
      ['0:00', /^The duration must be at least 1 minute\.$/],
      ['24h1m', /at most 24 hours/],
      ['1441', /at most 24 hours/],
      ['-5', /is not a duration; write it as 90, 90m/],
      ['1:75', /is not a duration/],
      ['abc', /is not a duration/],
      ['1h30x', /is not a duration/],
    ];
    for (const [input, pattern] of cases) {
      const parsed = parseDuration(input);
      if (parsed.ok) assert.fail(`${input} was accepted`);
      assert.match(parsed.message, pattern, input);
    }
  });

  it('formats minutes the way they are typed', () => {
    assert.equal(formatMinutes(45), '45m');
    assert.equal(formatMinutes(120), '2h');
    assert.equal(formatMinutes(90), '1h 30m');
    assert.equal(formatMinutes(0), '0m');
  });
});
