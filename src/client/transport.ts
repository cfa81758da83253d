/**
 * One keep-alive `http.Agent` per client (connector.ts), to a loopback TCP port or to the app's
 * Unix socket, through `http.request`: Node's own, as the app's own extension talks to the same
 * socket. Every exchange runs under the call's deadline (an `AbortSignal.timeout`: headers and
 * body together) and reads at most MAX_ANSWER_BYTES of an answer. Every way a request can fail
 * without a usable answer becomes a ConnectionError that says whether the request may have
 * reached the service.
 */
import { request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { CLOSED_BEFORE_REQUEST, CONNECT_TIMEOUT, HoldingAgent } from './connector';
import { ConnectionError } from './errors';
import { deniedByMacPrivacy, macPrivacyDenial } from './macPrivacy';
import type { Endpoint } from './options';
import { errnoCode } from '../platform/errors';

/** Answers longer than this (1 MiB) are refused, and reading stops there: no answer of the service comes near it. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

export interface WireRequest {
  readonly method: 'GET' | 'POST';
  /** Sent exactly as signed. */
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | undefined;
}

export interface WireResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

/** Failures that happen before a byte of the request can have been read by the service. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'EADDRNOTAVAIL',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  CONNECT_TIMEOUT,
  CLOSED_BEFORE_REQUEST,
  // Connecting to a Unix socket: no socket file (the app is not running), a file nobody listens
  // on (left behind by a crash), a path that is no socket, or one this user may not open.
  'ENOENT',
  'ENOTSOCK',
  'ENOTDIR',
  'EACCES',
  'EPERM',
]);

/** Socket failures where nothing listens at the path: the app is not running, or its integration is off. */
const NOBODY_AT_SOCKET = new Set(['ENOENT', 'ECONNREFUSED', 'ENOTSOCK', 'ENOTDIR']);

export class Transport {
  private readonly agent: HoldingAgent;
  /** What the messages name: `http://127.0.0.1:39847`, or `the app's socket /…/api.sock`. */
  private readonly where: string;
  private closed = false;
  /** The exchanges under way, which `close` lets finish, as a pool closes gracefully. */
  private readonly running = new Set<Promise<WireResponse>>();

  constructor(
    private readonly endpoint: Endpoint,
    connections: number,
    private readonly timeoutMs: number,
  ) {
    this.where =
      endpoint.kind === 'tcp' ? `http://${endpoint.host}:${endpoint.port}` : `the app's socket ${endpoint.socketPath}`;
    this.agent = new HoldingAgent(endpoint, connections, timeoutMs);
  }

  /**
   * Sends one copy and reads its answer whole, before `deadline` (the call's, started when the
   * call began) and within MAX_ANSWER_BYTES. The caller's `signal` rejects with its own reason.
   */
  async send(request: WireRequest, signal: AbortSignal | undefined, deadline: AbortSignal): Promise<WireResponse> {
    if (this.closed) throw new ConnectionError('This client was closed; create a new one.', false);
    if (deadline.aborted) {
      // The call spent its time waiting (for another call to learn the header prefix).
      throw new ConnectionError(
        `The request to ${this.where} could not be sent within ${this.timeoutMs} ms; nothing was sent.`,
        false,
      );
    }
    const exchange = this.exchange(request, signal, deadline);
    this.running.add(exchange);
    try {
      return await exchange;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      throw this.failure(error, deadline);
    } finally {
      this.running.delete(exchange);
    }
  }

  private exchange(
    request: WireRequest,
    signal: AbortSignal | undefined,
    deadline: AbortSignal,
  ): Promise<WireResponse> {
    return new Promise((resolve, reject) => {
      let outgoing: ClientRequest | undefined;
      const fail = (error: Error): void => {
        outgoing?.destroy();
        reject(error);
      };
      try {
        outgoing = httpRequest(this.options(request, signal, deadline), (incoming) => {
          this.read(incoming).then(
            (text) => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text }),
            fail,
          );
        });
      } catch (error) {
        // Refused before a socket was asked for (a header Node will not send): nothing left.
        reject(this.describe(error, false));
        return;
      }
      outgoing.on('error', fail);
      outgoing.end(request.body);
    });
  }

  private options(request: WireRequest, signal: AbortSignal | undefined, deadline: AbortSignal): RequestOptions {
    const endpoint = this.endpoint;
    return {
      agent: this.agent,
      // Over the socket Node names the Host header `localhost` (PROTOCOL.md §8).
      ...(endpoint.kind === 'tcp' ? { host: endpoint.host, port: endpoint.port } : { socketPath: endpoint.socketPath }),
      method: request.method,
      path: request.target,
      headers: request.headers,
      signal: signal === undefined ? deadline : AbortSignal.any([signal, deadline]),
    };
  }

  /** What a failed exchange fails with, unless the caller aborted it: a ConnectionError. */
  private failure(error: unknown, deadline: AbortSignal): ConnectionError {
    if (error instanceof ConnectionError) return error;
    if (deadline.aborted) {
      return new ConnectionError(
        `The service at ${this.where} did not answer within ${this.timeoutMs} ms; the request may have been received.`,
        true,
        { cause: error },
      );
    }
    return this.describe(error);
  }

  /** The body as text, or a ConnectionError (`sent: true`) once it proves longer than MAX_ANSWER_BYTES. */
  private read(incoming: IncomingMessage): Promise<string> {
    return new Promise((resolve, reject: (error: Error) => void) => {
      const tooLong = (): void => {
        incoming.destroy();
        reject(this.tooLong());
      };
      if (Number(incoming.headers['content-length']) > MAX_ANSWER_BYTES) {
        tooLong();
        return;
      }
      const chunks: Buffer[] = [];
      let length = 0;
      incoming.on('data', (chunk: Buffer) => {
        length += chunk.length;
        if (length > MAX_ANSWER_BYTES) tooLong();
        else chunks.push(chunk);
      });
      // As `TextDecoder` reads it: UTF-8, a leading byte-order mark dropped.
      incoming.on('end', () => resolve(new TextDecoder().decode(Buffer.concat(chunks, length))));
      incoming.on('error', reject);
      incoming.on('close', () => {
        if (!incoming.complete) reject(Object.assign(new Error('The answer ended early.'), { code: 'ECONNRESET' }));
      });
    });
  }

  private tooLong(): ConnectionError {
    return new ConnectionError(
      `The answer from ${this.where} is longer than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB, ` +
        'so the client stopped reading it; the request may have been received.',
      true,
    );
  }

  /** Lets the exchanges under way finish, then closes every connection; later calls fail with `sent: false`. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled(this.running);
    this.agent.destroy();
  }

  private describe(error: unknown, mayHaveWritten = true): ConnectionError {
    const code = errnoCode(error) ?? '';
    const sent = mayHaveWritten && !nothingWritten(error, code);
    return new ConnectionError(this.sentence(code, sent), sent, { cause: error });
  }

  private sentence(code: string, sent: boolean): string {
    const where = this.where;
    if (this.endpoint.kind === 'socket' && deniedByMacPrivacy(this.endpoint.socketPath, code))
      return macPrivacyDenial(where);
    if (this.endpoint.kind === 'socket' && NOBODY_AT_SOCKET.has(code)) {
      return `Nothing answers on ${where}: the application is not running or its VS Code integration is off.`;
    }
    switch (code) {
      case 'ECONNREFUSED':
        return `Nothing answers on ${where}: the application is not running, its HTTP API switch is off, or it uses another port.`;
      case 'EACCES':
      case 'EPERM':
        return `This user may not connect to ${where} (${code}).`;
      case CONNECT_TIMEOUT:
        return `Connecting to ${where} took longer than ${this.timeoutMs} ms.`;
      case CLOSED_BEFORE_REQUEST:
        return `The service at ${where} closed the connection before the request was sent; nothing was received.`;
      default:
        return sent
          ? `The connection to ${where} failed (${code || 'unknown error'}); the request may have been received.`
          : `The connection to ${where} failed (${code || 'unknown error'}) before the request was sent; nothing was received.`;
    }
  }
}

/**
 * True only when the request surely left nothing on the wire: a failure known to come before it
 * (refused, no socket file, closed before the hand-over: NOT_SENT_CODES), or an error of the
 * connect step itself (a reset while connecting is `connect ECONNRESET`): the agent hands a request
 * only a connection that has connected (connector.ts).
 */
function nothingWritten(error: unknown, code: string): boolean {
  if (NOT_SENT_CODES.has(code)) return true;
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 3; depth++) {
    const { syscall, cause } = current as { syscall?: unknown; cause?: unknown };
    if (syscall === 'connect') return true;
    current = cause;
  }
  return false;
}
