import assert from 'node:assert/strict';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';
import { tokenCheckAdvice } from '../../../../src/tracker/advice/tokenCheck';

describe('tracker/tokenCheck: what Set Token says after its one poll', () => {
  const now = 1_000_000;
  const idle: TrackerState = { kind: 'idle', onBreak: false, todaySeconds: 0, observedAtMs: now };

  it('says the app accepted the token when the poll passed authentication', () => {
    const passed: TrackerState[] = [idle, { kind: 'licenseLocked' }, { kind: 'unavailable' }];
    for (const state of passed)
      assert.deepEqual(
        tokenCheckAdvice(state, now),
        { severity: 'info', message: 'The app accepted the token.' },
        state.kind,
      );
  });

  it('says the app rejected this token and where to copy it, with Set Token', () => {
    assert.deepEqual(tokenCheckAdvice({ kind: 'tokenRejected', clockSkewSeconds: undefined }, now), {
      severity: 'error',
      message: 'The app rejected this token: copy it again from Settings → Integrations.',
      action: 'setToken',
    });
  });

  it('blames the clock, not the token, when the app says the clock is off', () => {
    const advice = tokenCheckAdvice({ kind: 'tokenRejected', clockSkewSeconds: -300 }, now);
    assert.equal(advice.action, 'retry');
    assert.match(
      advice.message,
      /^The token is stored, but the app could not check it: this computer's clock is 300 s off\./,
    );
  });

  it('says the token is stored and when it is checked, offline and during a lockout', () => {
    assert.deepEqual(tokenCheckAdvice({ kind: 'offline' }, now), {
      severity: 'info',
      message: 'The token is stored; it is checked when the app answers.',
    });
    const locked = tokenCheckAdvice({ kind: 'lockedOut', untilMs: now + 41_500 }, now);
    assert.equal(locked.severity, 'warning');
    assert.match(
      locked.message,
      /^The token is stored\. The app refuses every request for 42 s more after too many failed sign-ins; the token is checked when that ends\.$/,
    );
  });

  it('says it cannot tell from an answer that says nothing about the token', () => {
    for (const state of [
      { kind: 'failed', message: 'HTTP 500' },
      { kind: 'lockedOut', untilMs: now - 1 },
    ] as const) {
      assert.deepEqual(tokenCheckAdvice(state, now), {
        severity: 'warning',
        message: "The token is stored, but the app's answer did not show whether it accepts it: check the connection.",
        action: 'retry',
      });
    }
  });
});
