import { CLOCK_DRIFT_SECONDS } from '../../protocol/constants';
import { signingHeaderNames, type HeaderPrefix, type SigningHeaderNames } from '../../protocol/headers';
import {
  constantTimeEqual,
  isWellFormedNonce,
  isWellFormedSignature,
  parseTimestamp,
  verifySignature,
} from '../../protocol/signing';
import type { Clock } from '../clock';
import { LockoutTracker } from './lockoutTracker';
import { NonceStore } from './nonceStore';

export type IncomingHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface SignedRequest {
  readonly method: string;
  readonly target: string;
  readonly headers: IncomingHeaders;
  readonly bodyHashHex: string;
}

export type AuthVerdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly status: 401 | 409; readonly message: string }
  | { readonly ok: false; readonly status: 429; readonly message: string; readonly retryAfterSeconds: number };

export interface AuthenticatorOptions {
  readonly token: string;
  readonly headerPrefix: HeaderPrefix;
  readonly clock: Clock;
  readonly maxNonces?: number;
  /** Count every request without the four signing headers as a failed authentication (`--count-unsigned`). */
  readonly countUnsigned?: boolean;
}

/** Steps 1 to 3 of PROTOCOL.md §2: lockout, signature, nonce. */
export class Authenticator {
  private readonly names: SigningHeaderNames;
  private readonly lockout: LockoutTracker;
  private readonly nonces: NonceStore;
  private token: string;
  private readonly clock: Clock;
  private readonly countUnsigned: boolean;

  constructor(options: AuthenticatorOptions) {
    this.token = options.token;
    this.clock = options.clock;
    this.countUnsigned = options.countUnsigned ?? false;
    this.names = signingHeaderNames(options.headerPrefix);
    this.lockout = new LockoutTracker(options.clock);
    this.nonces = new NonceStore(options.clock, options.maxNonces);
  }

  /** As when the app's token is replaced: from the next request on, only `token` signs. */
  setToken(token: string): void {
    this.token = token;
  }

  /** Step 1, decided before the body is read: nothing else is looked at during a lockout. */
  lockoutRetryAfterSeconds(): number | undefined {
    return this.lockout.retryAfterSeconds();
  }

  /** Failed authentications counted since the start (the in-process control `failedSignIns`). */
  get failuresCounted(): number {
    return this.lockout.failuresCounted;
  }

  /**
   * With `countUnsigned`, a request refused at step 0 counts too when it lacks a signing header:
   * the strictest reading of the app, whose documentation promises no more than a 403 for a
   * request with an Origin header. Nothing counts during a lockout (it is not extended).
   */
  noteRefusedEarly(headers: IncomingHeaders): void {
    if (!this.countUnsigned || this.lockout.retryAfterSeconds() !== undefined) return;
    if (this.findMissingHeaders(headers) !== undefined) this.lockout.recordFailure();
  }

  /**
   * Steps 2 and 3. A 401 counts as a failed authentication only when all four signing headers
   * came, each non-empty: that is an attempt at the token. A request without them (a page, a
   * stray probe) is refused alike but cannot start a lockout, unless `countUnsigned` says it
   * does; 409 and 429 never count.
   */
  authenticate(request: SignedRequest): AuthVerdict {
    const missing = this.findMissingHeaders(request.headers);
    if (missing !== undefined) {
      if (this.countUnsigned) this.lockout.recordFailure();
      return { ok: false, status: 401, message: missing };
    }
    const problem = this.findSignatureProblem(request);
    if (problem !== undefined) {
      this.lockout.recordFailure();
      return { ok: false, status: 401, message: problem };
    }
    const verdict = this.nonces.accept(this.header(request.headers, 'nonce') ?? '');
    switch (verdict.kind) {
      case 'fresh':
        return { ok: true };
      case 'replayed':
        return {
          ok: false,
          status: 409,
          message: 'This nonce was already used within the last 180 seconds; sign the request again with a new nonce.',
        };
      case 'full':
        return {
          ok: false,
          status: 429,
          message: 'Too many requests in the replay window; retry later.',
          retryAfterSeconds: verdict.retryAfterSeconds,
        };
    }
  }

  /**
   * A signing header's value, by its lower-cased name as Node delivers it. Node joins repeated custom headers with
   * ", "; an array only appears for set-cookie. Either way a repeat never verifies.
   */
  private header(headers: IncomingHeaders, key: keyof SigningHeaderNames): string | undefined {
    const value = headers[this.names[key].toLowerCase()];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  private findMissingHeaders(headers: IncomingHeaders): string | undefined {
    const missing = SIGNING_KEYS.filter((key) => !this.header(headers, key));
    if (missing.length === 0) return undefined;
    const names = missing.map((key) => this.names[key]).join(', ');
    return `Missing signing header${missing.length > 1 ? 's' : ''}: ${names}.`;
  }

  /** Once all four headers are there: their format, the clock, the token and the signature. */
  private findSignatureProblem(request: SignedRequest): string | undefined {
    const [token, timestampText, nonce, signature] = SIGNING_KEYS.map(
      (key) => this.header(request.headers, key) ?? '',
    ) as [string, string, string, string];
    const timestamp = parseTimestamp(timestampText);
    if (timestamp === undefined) return `The ${this.names.timestamp} header must be Unix seconds in decimal.`;
    if (!isWellFormedNonce(nonce)) return `The ${this.names.nonce} header must be 16 to 128 ASCII letters and digits.`;
    if (!isWellFormedSignature(signature))
      return `The ${this.names.signature} header must be 64 lower-case hex digits.`;
    const drift = timestamp - Math.floor(this.clock() / 1000);
    if (Math.abs(drift) > CLOCK_DRIFT_SECONDS) {
      return (
        `The request timestamp is ${Math.abs(drift)} s ${drift > 0 ? 'ahead of' : 'behind'} the service clock; ` +
        `at most ${CLOCK_DRIFT_SECONDS} s is accepted.`
      );
    }
    if (!constantTimeEqual(token, this.token)) return 'The token is not valid.';
    const signatureOk = verifySignature({
      token: this.token,
      method: request.method,
      target: request.target,
      timestamp: timestampText,
      nonce,
      bodyHashHex: request.bodyHashHex,
      signature,
    });
    return signatureOk ? undefined : 'The signature does not match the request.';
  }
}

const SIGNING_KEYS = ['token', 'timestamp', 'nonce', 'signature'] as const;
