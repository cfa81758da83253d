/** Builds signed request headers for tests, through the one signing implementation in src/protocol. */
import { randomBytes } from 'node:crypto';
import { DEFAULT_HEADER_PREFIX, signingHeaderNames, type HeaderPrefix } from '../../src/protocol/headers';
import { signRequest, timestampFor, type RequestBody } from '../../src/protocol/signing';

export interface SignedHeadersInput {
  readonly token: string;
  readonly method: string;
  readonly target: string;
  readonly body?: RequestBody;
  /** Milliseconds; the timestamp header is its whole seconds. Defaults to Date.now(). */
  readonly nowMs?: number;
  readonly nonce?: string;
  readonly headerPrefix?: HeaderPrefix;
}

export function freshNonce(): string {
  return randomBytes(16).toString('hex');
}

export function signedHeaders(input: SignedHeadersInput): Record<string, string> {
  const names = signingHeaderNames(input.headerPrefix ?? DEFAULT_HEADER_PREFIX);
  const timestamp = timestampFor(input.nowMs ?? Date.now());
  const nonce = input.nonce ?? freshNonce();
  const signature = signRequest({
    token: input.token,
    method: input.method,
    target: input.target,
    timestamp,
    nonce,
    body: input.body,
  });
  return {
    [names.token]: input.token,
    [names.timestamp]: timestamp,
    [names.nonce]: nonce,
    [names.signature]: signature,
  };
}
