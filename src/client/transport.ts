/**
 * One undici Pool per client: keep-alive, bounded connections, connect/headers/body time-outs,
 * to a loopback TCP port or to the app's Unix socket. Turns every way a request can fail without
 * an answer into a ConnectionError that says whether the request may have reached the service.
 */
import { ConnectionError } from './errors';
import type { Endpoint } from './options';
import { Pool, request as poolRequest } from './undiciPool';

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
      ...(tcp ? {} : { socketPath: endpoint.socketPath }),
      connections,
      pipelining: 1,
      connectTimeout: timeoutMs,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      // The service closes idle connections after 5 s; leave them well before it does, so a
      // request is never written into a connection that the service is closing.
      keepAliveTimeout: 2_000,
      keepAliveMaxTimeout: 4_000,
      keepAliveTimeoutThreshold: 1_000,
    });
  }

  async send(request: WireRequest, signal?: AbortSignal): Promise<WireResponse> {
    try {
      const response = await poolRequest(this.pool, {
        method: request.method,
        path: request.target,
        headers: request.headers,
        body: request.body ?? null,
        signal: signal ?? null,
      });
      // Reading the body to its end also returns the connection to the pool.
      const text = await response.body.text();
      return { status: response.statusCode, headers: response.headers, text };
    } catch (error) {
      if (signal?.aborted) throw error;
      throw this.describe(error);
    }
  }

  async close(): Promise<void> {
    await this.pool.close();
  }

  private describe(error: unknown): ConnectionError {
    const code = errorCode(error);
    return new ConnectionError(this.sentence(code), !NOT_SENT_CODES.has(code), { cause: error });
  }

  private sentence(code: string): string {
    const where = this.where;
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
      default:
        return `The connection to ${where} failed (${code || 'unknown error'}); the request may have been received.`;
    }
  }
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
