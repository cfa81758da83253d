/**
 * Every failure of the client is a ServiceError with a stable `code`; a subclass per status says
 * what a caller needs (PROTOCOL.md §7). Messages are one sentence and never contain the token.
 *
 * `instanceof` holds across loaded copies of this file, as undici's lib/core/errors.js does it:
 * each class carries a `Symbol.for` brand (one registry per process, so every copy gets the same
 * symbol) and its `Symbol.hasInstance` checks the brand instead of the prototype chain (both set
 * by `brand`, at the end of the file). The extension's core and rest are two bundles, each with
 * its copy: an error thrown by the core's client is still a ConnectionError to the rest's queue.
 */

export type ServiceErrorCode =
  | 'VALIDATION'
  | 'AUTHENTICATION'
  | 'NOT_FOUND'
  | 'REPLAY'
  | 'UNAVAILABLE'
  | 'HTTP'
  | 'CONNECTION'
  | 'ANSWER_LOST'
  | 'CONFIGURATION';

/**
 * Marks `Class` with its brand, from `Symbol.for` (so the same symbol in every loaded copy of this
 * file): a getter on its prototype, which its subclasses inherit, and an `instanceof` that asks
 * for the brand instead of the prototype chain.
 */
function brand(Class: abstract new (...args: never[]) => Error, name: string): void {
  // The name is spelled out: a minified bundle renames classes, and every copy must agree.
  const symbol = Symbol.for(`clessira-time-tracker.client.${name}`);
  Object.defineProperty(Class.prototype, symbol, { get: () => true });
  Object.defineProperty(Class, Symbol.hasInstance, {
    value: (value: unknown): boolean =>
      typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[symbol] === true,
  });
}

export class ServiceError extends Error {
  override name = 'ServiceError';
  readonly code: ServiceErrorCode;
  /** The HTTP status, where there was an answer. */
  readonly status: number | undefined;

  constructor(code: ServiceErrorCode, message: string, status?: number, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.status = status;
  }
}

/** 400 from the service, or arguments the service would refuse, caught before any request (status undefined). */
export class ValidationError extends ServiceError {
  override name = 'ValidationError';
  constructor(message: string, status?: 400) {
    super('VALIDATION', message, status);
  }
}

/** 401: wrong token or signature, or this computer's clock is off (then `clockSkewSeconds` says by how much). */
export class AuthenticationError extends ServiceError {
  override name = 'AuthenticationError';
  /** Service clock minus this computer's clock, in seconds, when they differ by more than 60 s. */
  readonly clockSkewSeconds: number | undefined;
  constructor(message: string, clockSkewSeconds?: number) {
    super('AUTHENTICATION', message, 401);
    this.clockSkewSeconds = clockSkewSeconds;
  }
}

/** 404: the activity (or the path) is unknown. */
export class NotFoundError extends ServiceError {
  override name = 'NotFoundError';
  constructor(message: string) {
    super('NOT_FOUND', message, 404);
  }
}

/** 409: the nonce was already used. The client never re-sends under a new nonce on its own. */
export class ReplayError extends ServiceError {
  override name = 'ReplayError';
  constructor(message: string) {
    super('REPLAY', message, 409);
  }
}

/** 503: the application has not wired this endpoint. */
export class UnavailableError extends ServiceError {
  override name = 'UnavailableError';
  /** The app's own words (its `error` field), for a caller that phrases the sentence itself. */
  readonly reason: string;
  constructor(reason: string) {
    super('UNAVAILABLE', `This endpoint is not available in the application right now: ${reason}`, 503);
    this.reason = reason;
  }
}

/** 423 (license locked), 429 (locked out or busy) and every other status without a class of its own. */
export class HttpError extends ServiceError {
  override name = 'HttpError';
  /** True for 423: every endpoint but GET /healthcheck is refused until the license is valid. */
  readonly licenseLocked: boolean;
  /** From `Retry-After` on a 429: whole seconds until requests are accepted again. */
  readonly retryAfterSeconds: number | undefined;
  /** The answer's body as received (JSON text, usually `{"error": ...}`). */
  readonly body: string;
  constructor(status: number, message: string, body: string, retryAfterSeconds?: number) {
    super('HTTP', message, status);
    this.licenseLocked = status === 423;
    this.retryAfterSeconds = retryAfterSeconds;
    this.body = body;
  }
}

/**
 * No usable HTTP answer. `sent: false` means the request surely did not reach the service
 * (connection refused, or closed before the request was written), so it is safe to send it again
 * later; `sent: true` means it may have arrived, so sending it again could repeat it: a reset or
 * the call's deadline after it was written, an answer over 1 MiB, or a POST whose identical
 * re-send got an answer that says nothing about the first copy (`429`, `401`…; then `cause` is
 * the error of that answer).
 */
export class ConnectionError extends ServiceError {
  override name = 'ConnectionError';
  readonly sent: boolean;
  constructor(message: string, sent: boolean, options?: ErrorOptions) {
    super('CONNECTION', message, undefined, options);
    this.sent = sent;
  }
}

/**
 * The request reached the service and passed authentication, but its answer was lost: the
 * connection failed after sending, and the identical re-send was refused as a replay (409).
 * What the service did is unknown to the client (an entry was most likely logged); the request
 * is not sent again.
 */
export class AnswerLostError extends ServiceError {
  override name = 'AnswerLostError';
  readonly delivered = true;
  constructor(message: string, options?: ErrorOptions) {
    super('ANSWER_LOST', message, 409, options);
  }
}

/** Options the client cannot work with: a missing token, a port out of range, a host that is not loopback. */
export class ConfigurationError extends ServiceError {
  override name = 'ConfigurationError';
  constructor(message: string) {
    super('CONFIGURATION', message);
  }
}

// After every class exists: the brands are what `instanceof` asks, in this copy and any other.
brand(ServiceError, 'ServiceError');
brand(ValidationError, 'ValidationError');
brand(AuthenticationError, 'AuthenticationError');
brand(NotFoundError, 'NotFoundError');
brand(ReplayError, 'ReplayError');
brand(UnavailableError, 'UnavailableError');
brand(HttpError, 'HttpError');
brand(ConnectionError, 'ConnectionError');
brand(AnswerLostError, 'AnswerLostError');
brand(ConfigurationError, 'ConfigurationError');
