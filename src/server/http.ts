/** Node's http plumbing for the reference server: read and hash bodies, write JSON answers. */
import { createHash } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { JSON_CONTENT_TYPE, MAX_BODY_BYTES } from '../protocol/constants';
import { EMPTY_BODY_SHA256 } from '../protocol/signing';
import type { ReceivedBody } from './service';

/**
 * Bodies up to MAX_BODY_BYTES are answered in order of checks (a 401 before a 413). Past this
 * much the sender is not a client of this API, and the connection is answered 413 and closed
 * rather than hashed to the end.
 */
const HARD_BODY_LIMIT_BYTES = 1024 * 1024;

export type BodyOutcome = { kind: 'complete'; body: ReceivedBody } | { kind: 'overflow' } | { kind: 'aborted' };

/** Reads the whole body, hashing every byte; keeps only what validation may need. */
export function readBody(request: IncomingMessage): Promise<BodyOutcome> {
  return new Promise((resolve) => {
    const hash = createHash('sha256');
    const kept: Buffer[] = [];
    let keptBytes = 0;
    let total = 0;
    const finish = (outcome: BodyOutcome): void => {
      request.off('data', onData).off('end', onEnd).off('error', onAbort).off('close', onAbort);
      resolve(outcome);
    };
    const onData = (chunk: Buffer): void => {
      total += chunk.length;
      if (total > HARD_BODY_LIMIT_BYTES) {
        // Stop reading without destroying the socket (a for-await loop would), so the 413 can go out.
        request.pause();
        finish({ kind: 'overflow' });
        return;
      }
      hash.update(chunk);
      if (keptBytes <= MAX_BODY_BYTES) {
        kept.push(chunk);
        keptBytes += chunk.length;
      }
    };
    const onEnd = (): void =>
      finish({
        kind: 'complete',
        body: {
          bytes: Buffer.concat(kept),
          // Most requests are GETs without a body: skip hashing nothing on every one of them.
          hashHex: total === 0 ? EMPTY_BODY_SHA256 : hash.digest('hex'),
          tooLarge: total > MAX_BODY_BYTES,
        },
      });
    const onAbort = (): void => finish({ kind: 'aborted' });
    request.on('data', onData).on('end', onEnd).on('error', onAbort).on('close', onAbort);
  });
}

/** `Date` has a resolution of one second; format it once per second, not once per answer. */
let cachedDate = { second: Number.NaN, text: '' };
function httpDate(date: Date): string {
  const second = Math.floor(date.getTime() / 1000);
  if (second !== cachedDate.second) cachedDate = { second, text: date.toUTCString() };
  return cachedDate.text;
}

export function writeJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  date: Date,
  headers: Readonly<Record<string, string>> = {},
): void {
  const payload = Buffer.from(JSON.stringify(body), 'utf8');
  // The Date header comes from the service clock so that a client can tell "your clock is off"
  // from "bad token" after a 401, also when a test has moved that clock.
  response.sendDate = false;
  response.writeHead(status, {
    ...headers,
    Date: httpDate(date),
    'Content-Type': JSON_CONTENT_TYPE,
    'Content-Length': String(payload.length),
  });
  response.end(payload);
}

const CLIENT_ERRORS: Readonly<Record<string, [number, string]>> = {
  HPE_HEADER_OVERFLOW: [431, 'The request headers are larger than 8 KiB.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive.'],
};

/**
 * Replaces Node's bare "400 Bad Request" for requests its parser refuses, so those answers are
 * JSON envelopes like every other, and always close the connection.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex, date: Date): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  // A pipelined request before the broken one, received whole, may still be answering (it waits
  // for the data file): let that answer go out, then close, rather than write the 400 in its
  // place. A pending answer to an incomplete request (a time-out) is replaced by the error.
  const pending = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (pending && !pending.writableFinished && pending.req.complete) {
    pending.once('finish', () => socket.end());
    return;
  }
  const [status, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'The request is not valid HTTP.'];
  endWithJson(socket, status, { error: message }, date);
}

/**
 * Writes one JSON answer straight onto a socket Node no longer manages (a parser error, a
 * CONNECT), then closes it: what follows on such a connection is not HTTP this server reads.
 */
export function endWithJson(
  socket: Duplex,
  status: number,
  body: unknown,
  date: Date,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const payload = JSON.stringify(body);
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    `Date: ${httpDate(date)}`,
    `Content-Type: ${JSON_CONTENT_TYPE}`,
    `Content-Length: ${Buffer.byteLength(payload)}`,
    'Connection: close',
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${payload}`);
}
