import assert from 'node:assert/strict';
import { LockoutTracker } from '../../../../src/server/auth/lockoutTracker';
import { manualClock } from '../../../support/server';

describe('server/auth/LockoutTracker', () => {
  it('still answers the 10th failure inside 30 s without a lockout, and locks on the 11th', () => {
    const clock = manualClock();
    const tracker = new LockoutTracker(clock);
    for (let i = 0; i < 10; i++) {
      tracker.recordFailure();
      clock.advance(2_900);
    }
    assert.equal(tracker.retryAfterSeconds(), undefined, 'ten failures in 29 s must not lock');
    tracker.recordFailure();
    assert.equal(tracker.retryAfterSeconds(), 60);
  });

  it('counts a failure exactly 30 s old inside the window', () => {
    const clock = manualClock();
    const start = clock();
    const tracker = new LockoutTracker(clock);
    for (let i = 0; i < 10; i++) tracker.recordFailure();
    clock.set(start + 30_000);
    tracker.recordFailure();
    assert.equal(tracker.retryAfterSeconds(), 60);
  });

  it('forgets failures older than 30 s', () => {
    const clock = manualClock();
    const tracker = new LockoutTracker(clock);
    for (let i = 0; i < 10; i++) tracker.recordFailure();
    clock.advance(30_001);
    tracker.recordFailure();
    assert.equal(tracker.retryAfterSeconds(), undefined);
  });

  it('counts Retry-After down in whole seconds, at least 1, and ends the lockout after 60 s', () => {
    const clock = manualClock();
    const tracker = new LockoutTracker(clock);
    for (let i = 0; i < 11; i++) tracker.recordFailure();
    assert.equal(tracker.retryAfterSeconds(), 60);
    clock.advance(500);
    assert.equal(tracker.retryAfterSeconds(), 60, 'a partial second rounds up');
    clock.advance(500);
    assert.equal(tracker.retryAfterSeconds(), 59);
    clock.advance(58_999);
    assert.equal(tracker.retryAfterSeconds(), 1, 'the last millisecond still says 1');
    clock.advance(1);
    assert.equal(tracker.retryAfterSeconds(), undefined, 'over after exactly 60 s');
  });

  it('needs a fresh run of more than 10 failures to lock again', () => {
    const clock = manualClock();
    const tracker = new LockoutTracker(clock);
    for (let i = 0; i < 11; i++) tracker.recordFailure();
    clock.advance(60_000);
    tracker.recordFailure();
    assert.equal(tracker.retryAfterSeconds(), undefined);
  });
});
