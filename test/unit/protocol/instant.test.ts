import assert from 'node:assert/strict';
import { formatInstant, INSTANT_PATTERN } from '../../../src/protocol/instant';

describe('protocol/instant', () => {
  it('writes ISO-8601 UTC in whole seconds with Z, as the application does', () => {
    assert.equal(formatInstant(Date.UTC(2026, 4, 26, 14, 30, 0)), '2026-05-26T14:30:00Z');
    assert.match(formatInstant(Date.UTC(2026, 4, 26, 14, 30, 0)), INSTANT_PATTERN);
  });

  it('rounds down to the second the instant falls in, never up', () => {
    assert.equal(formatInstant(Date.UTC(2026, 4, 26, 14, 30, 0, 999)), '2026-05-26T14:30:00Z');
    assert.equal(formatInstant(Date.UTC(2026, 11, 31, 23, 59, 59, 999)), '2026-12-31T23:59:59Z');
  });

  it('has a pattern that refuses milliseconds and offsets', () => {
    for (const text of [
      '2026-05-26T14:30:00.000Z',
      '2026-05-26T14:30:00+00:00',
      '2026-05-26T14:30:00',
      '2026-05-26 14:30:00Z',
    ]) {
      assert.doesNotMatch(text, INSTANT_PATTERN, text);
    }
  });
});
