/**
 * One undici Pool per client: keep-alive, bounded connections, to a loopback TCP port or to the
 * app's Unix socket. Every exchange runs under the call's deadline (headers and body together,
 * not undici's per-chunk body time-out) and reads at most MAX_ANSWER_BYTES of an answer. Every way
 * a request can fail without a usable answer becomes a ConnectionError that says whether the
 * request may have reached the service.
 */
import { CLOSED_BEFORE_REQUEST, holdingConnector } from './connector';
import type { Deadline } from './deadline';
import { ConnectionError } from './errors';
import { deniedByMacPrivacy } from './macPrivacy';
import type { Endpoint } from './options';
import { Pool, request as poolRequest } from './undiciPool';

type Body = Awaited<ReturnType<typeof poolRequest>>['body'];

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
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
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
  private readonly pool: InstanceType<typeof Pool>;
  /** What the messages name: `http://127.0.0.1:39847`, or `the app's socket /…/api.sock`. */
  private readonly where: string;

  constructor(
    private readonly endpoint: Endpoint,
    connections: number,
    private readonly timeoutMs: number,
  ) {
    const tcp = endpoint.kind === 'tcp';
    const origin = tcp ? `http://${endpoint.host}:${endpoint.port}` : 'http://localhost';
    this.where = tcp ? origin : `the app's socket ${endpoint.socketPath}`;
    this.pool = new Pool(origin, {
      // Over the socket the origin only names the Host header (`localhost`, PROTOCOL.md §8).
      connect: holdingConnector({ timeoutMs, socketPath: tcp ? undefined : endpoint.socketPath }),
      connections,
      pipelining: 1,
      // The call's deadline (send) bounds headers and body together; these are only backstops.
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      // The service closes idle connections after 5 s; leave them well before it does, so a
      // request is never written into a connection that the service is closing.
      keepAliveTimeout: 2_000,
      keepAliveMaxTimeout: 4_000,
      keepAliveTimeoutThreshold: 1_000,
    });
  }

  /**
   * Sends one copy and reads its answer whole, before `deadline` (the call's, started when the
   * call began) and within MAX_ANSWER_BYTES. The caller's `signal` rejects with its own reason.
   */
  send(request: WireRequest, signal: AbortSignal | undefined, deadline: Deadline): Promise<WireResponse> {
    if (deadline.aborted) {
      // The call spent its time waiting (for another call to learn the header prefix).
      const late = new ConnectionError(
        `The request to ${this.where} could not be sent within ${this.timeoutMs} ms; nothing was sent.`,
        false,
      );
      return Promise.reject(late);
    }
    return this.exchange(request, signal, deadline);
  }

  private async exchange(
    request: WireRequest,
    signal: AbortSignal | undefined,
    deadline: Deadline,
  ): Promise<WireResponse> {
    try {
      const response = await poolRequest(this.pool, {
        method: request.method,
        path: request.target,
        headers: request.headers,
        body: request.body ?? null,
        signal: signal === undefined ? deadline : AbortSignal.any([signal, deadline.signal]),
      });
      // Reading the body to its end also returns the connection to the pool.
      const text = await this.read(response.body, response.headers['content-length']);
      return { status: response.statusCode, headers: response.headers, text };
    } catch (error) {
      if (signal?.aborted) throw error;
      if (error instanceof ConnectionError) throw error;
      if (deadline.aborted) {
        throw new ConnectionError(
          `The service at ${this.where} did not answer within ${this.timeoutMs} ms; the request may have been received.`,
          true,
          { cause: error },
        );
      }
      throw this.describe(error);
    }
  }

  /** The body as text, or a ConnectionError (`sent: true`) once it proves longer than MAX_ANSWER_BYTES. */
  private async read(body: Body, declaredLength: string | string[] | undefined): Promise<string> {
    // The loop below sees every error; this keeps the abort that destroying the body causes in undici from going
    // unhandled.
    body.on('error', () => undefined);
    if (Number(declaredLength) > MAX_ANSWER_BYTES) {
      body.destroy();
      throw this.tooLong();
    }
    const chunks: Buffer[] = [];
    let length = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      length += chunk.length;
      if (length > MAX_ANSWER_BYTES) {
        body.destroy();
        throw this.tooLong();
      }
      chunks.push(chunk);
    }
    // As undici's own `text()`: UTF-8, a leading byte-order mark dropped.
    return new TextDecoder().decode(Buffer.concat(chunks, length));
  }

  private tooLong(): ConnectionError {
    return new ConnectionError(
      `The answer from ${this.where} is longer than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB, so the client stopped reading it; the request may have been received.`,
      true,
    );
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private describe(error: unknown): ConnectionError {
    const code = errorCode(error);
    const sent = !nothingWritten(error, code);
    return new ConnectionError(this.sentence(code, sent), sent, { cause: error });
  }

  private sentence(code: string, sent: boolean): string {
    const where = this.where;
    if (this.endpoint.kind === 'socket' && deniedByMacPrivacy(this.endpoint.socketPath, code)) {
      return `macOS did not let this program connect to ${where}: reaching another app's data needs your consent, which was declined (allow it in System Settings › Privacy & Security, or use the app's HTTP API).`;
    }
    if (this.endpoint.kind === 'socket' && NOBODY_AT_SOCKET.has(code)) {
      return `Nothing answers on ${where}: the application is not running or its VS Code integration is off.`;
    }
    switch (code) {
      case 'ECONNREFUSED':
        return `Nothing answers on ${where}: the application is not running, its HTTP API switch is off, or it uses another port.`;
      case 'EACCES':
      case 'EPERM':
        return `This user may not connect to ${where} (${code}).`;
      case 'UND_ERR_CONNECT_TIMEOUT':
        return `Connecting to ${where} took longer than ${this.timeoutMs} ms.`;
      case 'UND_ERR_HEADERS_TIMEOUT':
      case 'UND_ERR_BODY_TIMEOUT':
        return `The service at ${where} did not answer within ${this.timeoutMs} ms; the request may have been received.`;
      case 'UND_ERR_CLOSED':
      case 'UND_ERR_DESTROYED':
        return 'This client was closed; create a new one.';
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
 * connect step itself (a reset while connecting is `connect ECONNRESET`): undici writes a request
 * only into a connection that has connected.
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

function errorCode(error: unknown): string {
  if (typeof error !== 'object' || error === null) return '';
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  // undici wraps some socket failures; the system code sits on the cause then.
  if (code === 'UND_ERR_SOCKET' && typeof cause === 'object' && cause !== null) {
    const inner = (cause as { code?: unknown }).code;
    if (inner === 'ECONNREFUSED') return inner;
  }
  return typeof code === 'string' ? code : '';
}
