import { FAILURE_WINDOW_SECONDS, LOCKOUT_SECONDS, MAX_FAILURES_IN_WINDOW } from '../../protocol/constants';
import type { Clock } from '../clock';

/**
 * Counts failed authentications over a sliding window and locks everyone out when there are
 * too many (service-api.txt: more than 10 within 30 s lock out for 60 s).
 */
export class LockoutTracker {
  private failures: number[] = [];
  private lockedUntil = 0;
  private counted = 0;

  constructor(private readonly clock: Clock) {}

  /** Whole seconds left, at least 1, while a lockout runs; undefined otherwise. */
  retryAfterSeconds(): number | undefined {
    const left = this.lockedUntil - this.clock();
    return left > 0 ? Math.max(1, Math.ceil(left / 1000)) : undefined;
  }

  /** Every failed authentication recorded since the start, for tests to see what counted. */
  get failuresCounted(): number {
    return this.counted;
  }

  /**
   * Records one failed authentication. The failure that takes the count over the limit starts
   * the lockout (that request itself is still answered 401); the history is cleared then, so
   * after the lockout a fresh run of failures is needed to start another.
   */
  recordFailure(): void {
    this.counted++;
    const now = this.clock();
    // A failure exactly 30 s old still counts: "within 30 s" includes its edge.
    this.failures = this.failures.filter((at) => now - at <= FAILURE_WINDOW_SECONDS * 1000);
    this.failures.push(now);
    if (this.failures.length > MAX_FAILURES_IN_WINDOW) {
      this.lockedUntil = now + LOCKOUT_SECONDS * 1000;
      this.failures = [];
    }
  }
}
