/**
 * Request signing, byte for byte as the application's published SDKs do it (PROTOCOL.md §1).
 * This is the only implementation: the client signs with it and the reference server verifies
 * with it. Pure computation, no I/O.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { NONCE_MAX_LENGTH, NONCE_MIN_LENGTH } from './constants';

export type RequestBody = string | Uint8Array;

export interface SignRequestInput {
  readonly token: string;
  /** Any case; it is signed upper-cased. */
  readonly method: string;
  /** The request-target exactly as sent on the request line: path plus `?query` if any. */
  readonly target: string;
  /** Unix seconds as decimal ASCII, exactly as sent in the timestamp header. */
  readonly timestamp: string;
  readonly nonce: string;
  /** Raw body bytes (a string is taken as UTF-8); absent or empty for no body. */
  readonly body?: RequestBody | undefined;
}

export const EMPTY_BODY_SHA256 = createHash('sha256').update('').digest('hex');

/** Lower-case hex SHA-256 of the raw body bytes; of the empty string when there is no body. */
export function bodySha256Hex(body?: RequestBody): string {
  if (body === undefined || body.length === 0) return EMPTY_BODY_SHA256;
  return createHash('sha256').update(body).digest('hex');
}

/** The five lines that are signed, joined by `\n` with no trailing newline. */
export function canonicalString(
  method: string,
  target: string,
  timestamp: string,
  nonce: string,
  bodyHashHex: string,
): string {
  return [method.toUpperCase(), target, timestamp, nonce, bodyHashHex].join('\n');
}

/** HMAC-SHA256 keyed by the token's UTF-8 bytes, over an already built canonical string. */
function signCanonical(token: string, canonical: string): string {
  return createHmac('sha256', token).update(canonical, 'utf8').digest('hex');
}

/** The 64 lower-case hex digits of the request's signature. */
export function signRequest(input: SignRequestInput): string {
  const canonical = canonicalString(
    input.method,
    input.target,
    input.timestamp,
    input.nonce,
    bodySha256Hex(input.body),
  );
  return signCanonical(input.token, canonical);
}

/**
 * Constant-time equality of two strings' UTF-8 bytes. A length mismatch is a plain `false`
 * (timingSafeEqual would throw), which leaks only the length, never the content.
 */
export function constantTimeEqual(actual: string, expected: string): boolean {
  const a = Buffer.from(actual, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  if (a.length !== b.length) return false;
  return timingSafeEqual(a, b);
}

export interface VerifySignatureInput {
  readonly token: string;
  readonly method: string;
  readonly target: string;
  readonly timestamp: string;
  readonly nonce: string;
  /** SHA-256 of the body as received; the server hashes while streaming, so it never buffers a large body. */
  readonly bodyHashHex: string;
  /** The signature header's value as received. */
  readonly signature: string;
}

/** True only when the signature is the one this token produces for this request. */
export function verifySignature(input: VerifySignatureInput): boolean {
  const canonical = canonicalString(input.method, input.target, input.timestamp, input.nonce, input.bodyHashHex);
  return constantTimeEqual(input.signature, signCanonical(input.token, canonical));
}

const TIMESTAMP_PATTERN = /^(?:0|[1-9][0-9]{0,14})$/;
/** Letters and digits only: the application refuses `_` and `-` (PROTOCOL.md §1). */
const NONCE_PATTERN = new RegExp(`^[A-Za-z0-9]{${NONCE_MIN_LENGTH},${NONCE_MAX_LENGTH}}$`);
const SIGNATURE_PATTERN = /^[0-9a-f]{64}$/;

/** Decimal ASCII, no sign, no leading zeros; returns the seconds, or undefined when malformed. */
export function parseTimestamp(value: string): number | undefined {
  return TIMESTAMP_PATTERN.test(value) ? Number(value) : undefined;
}

/** 16 to 128 ASCII letters and digits. */
export function isWellFormedNonce(value: string): boolean {
  return NONCE_PATTERN.test(value);
}

/**
 * What a nonce is remembered as: the application compares nonces lower-cased, so `ABC…` replays
 * `abc…` (a `409`), and a client that upper-cases its hex gains no second use.
 */
export function nonceKey(nonce: string): string {
  return nonce.toLowerCase();
}

export function isWellFormedSignature(value: string): boolean {
  return SIGNATURE_PATTERN.test(value);
}

/** Unix time in whole seconds, as the timestamp header carries it. */
export function timestampFor(epochMs: number): string {
  return String(Math.floor(epochMs / 1000));
}
