/** Sends one request with node:http, with full control of every header (Host and Origin included). */
import { request, type IncomingHttpHeaders } from 'node:http';
import type { HeaderPrefix } from '../../src/protocol/headers';
import { signedHeaders } from './signing';
import { TEST_TOKEN, type StartedServer } from './server';

export interface RawResponse {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
  readonly json: unknown;
}

export interface RawRequest {
  readonly method: string;
  readonly target: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
}

export function send(port: number, raw: RawRequest): Promise<RawResponse> {
  return exchange({ host: '127.0.0.1', port }, { host: `127.0.0.1:${port}`, ...raw.headers }, raw);
}

/**
 * The same over a Unix socket (PROTOCOL.md §8), with `Host: localhost` as the app's clients send
 * unless the request sets its own; a `host` of '' sends none at all.
 */
export function sendOverSocket(socketPath: string, raw: RawRequest): Promise<RawResponse> {
  const headers: Record<string, string> = { host: 'localhost', ...raw.headers };
  if (headers['host'] === '') delete headers['host'];
  return exchange({ socketPath }, headers, raw);
}

function exchange(
  to: { readonly host: string; readonly port: number } | { readonly socketPath: string },
  headers: Record<string, string>,
  raw: RawRequest,
): Promise<RawResponse> {
  if (raw.body !== undefined) headers['content-length'] = String(Buffer.byteLength(raw.body));
  return new Promise((resolve, reject) => {
    const req = request(
      { ...to, method: raw.method, path: raw.target, headers, agent: false, setHost: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(raw.body);
  });
}

export interface SignedCall {
  readonly method: string;
  readonly target: string;
  /** An object is sent as JSON. */
  readonly body?: string | Uint8Array | Record<string, unknown> | undefined;
  readonly token?: string;
  readonly nowMs?: number;
  readonly nonce?: string;
  readonly headerPrefix?: HeaderPrefix;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A correctly signed request at the server clock's time (unless the call says otherwise). */
export function signedSend(started: StartedServer, call: SignedCall): Promise<RawResponse> {
  const body =
    call.body === undefined || typeof call.body === 'string' || call.body instanceof Uint8Array
      ? call.body
      : JSON.stringify(call.body);
  const signing = signedHeaders({
    token: call.token ?? TEST_TOKEN,
    method: call.method,
    target: call.target,
    nowMs: call.nowMs ?? started.clock(),
    ...(body === undefined ? {} : { body }),
    ...(call.nonce === undefined ? {} : { nonce: call.nonce }),
    ...(call.headerPrefix === undefined ? {} : { headerPrefix: call.headerPrefix }),
  });
  const contentType = body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' };
  return send(started.port, {
    method: call.method,
    target: call.target,
    headers: { ...contentType, ...signing, ...call.headers },
    ...(body === undefined ? {} : { body }),
  });
}
