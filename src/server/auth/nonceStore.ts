import { MAX_NONCES, NONCE_WINDOW_SECONDS } from '../../protocol/constants';
import { nonceKey } from '../../protocol/signing';
import type { Clock } from '../clock';

const WINDOW_MS = NONCE_WINDOW_SECONDS * 1000;

export type NonceVerdict = { kind: 'fresh' } | { kind: 'replayed' } | { kind: 'full'; retryAfterSeconds: number };

/**
 * Nonces accepted within the replay window, remembered lower-cased as the application compares
 * them, so the same nonce in another letter case is a replay. When full it fails closed: new
 * requests wait for old entries to expire rather than the store forgetting any early, which would
 * let a replay through.
 */
export class NonceStore {
  /** Map iteration follows insertion, which is acceptance order, so the oldest come first. */
  private readonly acceptedAt = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly capacity = MAX_NONCES,
  ) {}

  get size(): number {
    return this.acceptedAt.size;
  }

  /** Checks a nonce whose signature already verified, and remembers it when it is fresh. */
  accept(nonce: string): NonceVerdict {
    const now = this.clock();
    this.expire(now);
    const key = nonceKey(nonce);
    if (this.acceptedAt.has(key)) return { kind: 'replayed' };
    if (this.acceptedAt.size >= this.capacity) {
      const oldest = this.acceptedAt.values().next().value ?? now;
      return { kind: 'full', retryAfterSeconds: Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000)) };
    }
    this.acceptedAt.set(key, now);
    return { kind: 'fresh' };
  }

  private expire(now: number): void {
    // An entry exactly 180 s old is still inside "the last 180 seconds".
    for (const [nonce, at] of this.acceptedAt) {
      if (now - at <= WINDOW_MS) break;
      this.acceptedAt.delete(nonce);
    }
  }
}
