/**
 * One undici Pool per client: keep-alive, bounded connections, connect/headers/body time-outs.
 * Turns every way a request can fail without an answer into a ConnectionError that says whether
 * the request may have reached the service.
 */
import { Pool, request as poolRequest } from './undiciPool';
import { ConnectionError } from './errors';

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
]);

export class Transport {
  private readonly pool: InstanceType<typeof Pool>;

  constructor(
    readonly origin: string,
    connections: number,
    private readonly timeoutMs: number,
  ) {
    this.pool = new Pool(origin, {
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
    const sent = !NOT_SENT_CODES.has(code);
    const where = this.origin;
    let message: string;
    switch (code) {
      case 'ECONNREFUSED':
        message = `Nothing answers on ${where}: the application is not running, its HTTP API switch is off, or it uses another port.`;
        break;
      case 'UND_ERR_CONNECT_TIMEOUT':
        message = `Connecting to ${where} took longer than ${this.timeoutMs} ms.`;
        break;
      case 'UND_ERR_HEADERS_TIMEOUT':
      case 'UND_ERR_BODY_TIMEOUT':
        message = `The service at ${where} did not answer within ${this.timeoutMs} ms; the request may have been received.`;
        break;
      case 'UND_ERR_CLOSED':
      case 'UND_ERR_DESTROYED':
        message = 'This client was closed; create a new one.';
        break;
      default:
        message = `The connection to ${where} failed (${code || 'unknown error'}); the request may have been received.`;
    }
    return new ConnectionError(message, sent, { cause: error });
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
