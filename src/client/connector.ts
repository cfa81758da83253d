/**
 * The transport's keep-alive `http.Agent`, whose `createConnection` (the documented way to make an
 * Agent's sockets) hands a new connection to `http.request` only after the event loop has read
 * from it once more. The request is written the moment it gets a connection, so a service that
 * accepts and at once closes (or resets) would otherwise make every such request "may have been
 * received" (`sent: true`), although it never read a byte. Closed before the hand-over, it fails
 * with CLOSED_BEFORE_REQUEST, which the transport reports as `sent: false`: nothing was written.
 *
 * The wait only moves the line: a service that closes a little later still yields `sent: true`,
 * the safe side. `sent: false` is said only when surely nothing was written.
 *
 * Sockets are made with `new Socket()` and `socket.connect()`, not `net.connect()`, which an
 * Agent calls by default (and reachability.ts would): VS Code's extension host wraps `net.connect`
 * (its proxy agent) to read two settings on every connection and, where they are on, wait for the
 * system's certificates, which a plain HTTP request to 127.0.0.1 or to a Unix socket never needs.
 * That wrapper costs a third of the time a poll spends connecting (docs/PERFORMANCE.md).
 */
import { Agent, type ClientRequestArgs } from 'node:http';
import { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Endpoint } from './options';
import { later } from '../platform/timers';

/** The `code` of the error a request fails with when its new connection closed before it was written. */
export const CLOSED_BEFORE_REQUEST = 'ERR_CLOSED_BEFORE_REQUEST';
/** The `code` of the error a request fails with when its connect neither succeeded nor failed in time. */
export const CONNECT_TIMEOUT = 'ERR_CONNECT_TIMEOUT';

/** A connection idle this long is probed by TCP keep-alive. */
const KEEP_ALIVE_INITIAL_DELAY_MS = 60_000;
/**
 * The service closes idle connections after 5 s; leave them well before it does, so a request is
 * never written into a connection that the service is closing.
 */
const IDLE_CONNECTION_MS = 2_000;

type Created = (error: Error | null, socket: Duplex) => void;

export class HoldingAgent extends Agent {
  readonly #endpoint: Endpoint;
  readonly #timeoutMs: number;

  constructor(endpoint: Endpoint, connections: number, timeoutMs: number) {
    super({
      keepAlive: true,
      keepAliveMsecs: KEEP_ALIVE_INITIAL_DELAY_MS,
      maxSockets: connections,
      timeout: IDLE_CONNECTION_MS,
    });
    this.#endpoint = endpoint;
    this.#timeoutMs = timeoutMs;
  }

  /** Connects to the endpoint (never to what a request's options say) and calls `created` once. */
  override createConnection(_options: ClientRequestArgs, created?: Created): undefined {
    const endpoint = this.#endpoint;
    const where = endpoint.kind === 'tcp' ? `${endpoint.host}:${endpoint.port}` : endpoint.socketPath;
    let socket: Socket;
    try {
      socket = new Socket().connect(
        endpoint.kind === 'tcp' ? { host: endpoint.host, port: endpoint.port } : { path: where },
      );
    } catch (error) {
      process.nextTick(() => created?.(error as Error, undefined as never));
      return undefined;
    }
    let settled = false;
    const settle = (error: Error | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error !== null) {
        socket.destroy();
        created?.(error, socket);
        return;
      }
      // The first immediate runs in the turn whose I/O completed the connection; the second after
      // the loop has polled for I/O again, by when a close or a reset sent at once has been read.
      setImmediate(() => setImmediate(() => handOver(socket, created)));
    };
    const timer = later(() => {
      const late = new Error(`Connecting to ${where} took longer than ${this.#timeoutMs} ms.`);
      settle(Object.assign(late, { code: CONNECT_TIMEOUT }));
    }, this.#timeoutMs);
    // Stays for the socket's life: an error during the hold, or before http adds its own
    // listener, must not go unheard (it would end the process).
    socket.on('error', (error) => settle(error));
    socket.once('connect', () => settle(null));
    socket.setNoDelay(true);
    socket.setKeepAlive(true, KEEP_ALIVE_INITIAL_DELAY_MS);
    return undefined;
  }
}

function handOver(socket: Socket, created: Created | undefined): void {
  if (!socket.destroyed && !socket.readableEnded && socket.writable) {
    created?.(null, socket);
    return;
  }
  socket.destroy();
  const closed = new Error('The service closed the connection before the request was written.');
  created?.(Object.assign(closed, { code: CLOSED_BEFORE_REQUEST }), socket);
}
