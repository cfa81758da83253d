import assert from 'node:assert/strict';
import { formatInstant } from '../../../src/protocol/instant';

describe('protocol/instant', () => {
  it('writes ISO-8601 UTC in whole seconds with Z, as the application does', () => {
    assert.equal(formatInstant(Date.UTC(2026, 4, 26, 14, 30, 0)), '2026-05-26T14:30:00Z');
  });

  it('rounds down to the second the instant falls in, never up', () => {
    assert.equal(formatInstant(Date.UTC(2026, 4, 26, 14, 30, 0, 999)), '2026-05-26T14:30:00Z');
    assert.equal(formatInstant(Date.UTC(2026, 11, 31, 23, 59, 59, 999)), '2026-12-31T23:59:59Z');
  });
});
