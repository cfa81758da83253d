import assert from 'node:assert/strict';
import { AuthenticationError, ConnectionError, HttpError, UnavailableError } from '../../../../src/client/errors';
import { pollingPaused } from '../../../../src/tracker/model/poller';
import {
  pauseFromError,
  signingPause,
  stateAfterPausedCheck,
  type SigningPause,
} from '../../../../src/tracker/model/signingPause';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';

describe('tracker/signingPause: may anything sign a request now?', () => {
  it('pauses after a rejected token and during a lockout, with the seconds left', () => {
    assert.deepEqual(signingPause({ kind: 'tokenRejected', clockSkewSeconds: undefined }, 0), {
      kind: 'tokenRejected',
      clockSkewSeconds: undefined,
    });
    assert.deepEqual(signingPause({ kind: 'tokenRejected', clockSkewSeconds: -120 }, 0), {
      kind: 'tokenRejected',
      clockSkewSeconds: -120,
    });
    assert.deepEqual(signingPause({ kind: 'lockedOut', untilMs: 60_000 }, 500), { kind: 'lockedOut', secondsLeft: 60 });
    assert.equal(signingPause({ kind: 'lockedOut', untilMs: 60_000 }, 60_000), undefined, 'the lockout is over');
  });

  it('lets every other state sign, and is the rule the poller pauses by', () => {
    const others: TrackerState[] = [
      { kind: 'starting' },
      { kind: 'noToken' },
      { kind: 'offline' },
      { kind: 'licenseLocked' },
      { kind: 'unavailable' },
      { kind: 'failed', message: 'x' },
      { kind: 'idle', onBreak: false, todaySeconds: 0, observedAtMs: 0 },
    ];
    for (const state of others) {
      assert.equal(signingPause(state, 0), undefined, state.kind);
      assert.equal(pollingPaused(state, 0), false, state.kind);
    }
    assert.equal(pollingPaused({ kind: 'tokenRejected', clockSkewSeconds: undefined }, 0), true);
  });

  it('reads the same pause from a failed request, before a poll says it', () => {
    assert.deepEqual(pauseFromError(new AuthenticationError('bad')), {
      kind: 'tokenRejected',
      clockSkewSeconds: undefined,
    });
    assert.deepEqual(pauseFromError(new HttpError(429, 'locked out', '', 42)), { kind: 'lockedOut', secondsLeft: 42 });
    assert.deepEqual(
      pauseFromError(new HttpError(429, 'locked out', '')),
      { kind: 'lockedOut', secondsLeft: 60 },
      'a minute when not said',
    );
    for (const error of [
      new ConnectionError('refused', false),
      new UnavailableError('x'),
      new HttpError(423, 'locked', ''),
      new Error('odd'),
    ]) {
      assert.equal(pauseFromError(error), undefined, error.message);
    }
  });

  it("shows what the one check while paused learned, but never lets a rejected token's polling sign again", () => {
    const lockedOut: SigningPause = { kind: 'lockedOut', secondsLeft: 40 };
    const rejected: SigningPause = { kind: 'tokenRejected', clockSkewSeconds: undefined };
    const refused = new ConnectionError('refused', false);
    // The app that locked everyone out has quit: its lockout went with it.
    assert.deepEqual(stateAfterPausedCheck(lockedOut, refused, 1_000), { kind: 'offline' });
    // A token the app rejected stays rejected while nothing answers: no poll may try it again on its own.
    assert.equal(stateAfterPausedCheck(rejected, refused, 1_000), undefined);
    // A fresher pause is shown either way: the check's own 401 or 429.
    for (const pause of [lockedOut, rejected]) {
      assert.deepEqual(stateAfterPausedCheck(pause, new AuthenticationError('bad'), 1_000), {
        kind: 'tokenRejected',
        clockSkewSeconds: undefined,
      });
      assert.deepEqual(stateAfterPausedCheck(pause, new HttpError(429, 'locked out', '', 30), 1_000), {
        kind: 'lockedOut',
        untilMs: 31_000,
      });
      // Nothing said about the token (a time-out, a 5xx, an unwired endpoint): the pause stays.
      for (const error of [
        new ConnectionError('time-out', true),
        new HttpError(500, 'x', ''),
        new UnavailableError('x'),
      ]) {
        assert.equal(stateAfterPausedCheck(pause, error, 1_000), undefined, `${pause.kind}: ${error.message}`);
      }
    }
  });
});
