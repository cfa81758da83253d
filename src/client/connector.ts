/**
 * Opens the pool's connections, and hands a new connection to undici only after the event loop
 * has read from it once more. undici writes the request the moment it gets a connection, so a
 * service that accepts and at once closes (or resets) would otherwise make every such request
 * "may have been received" (`sent: true`), although it never read a byte. Closed before the
 * hand-over, it fails with CLOSED_BEFORE_REQUEST, which the transport reports as `sent: false`:
 * nothing was written.
 *
 * The wait only moves the line: a service that closes a little later still yields `sent: true`,
 * the safe side. `sent: false` is said only when undici surely wrote nothing.
 *
 * Sockets are made with `new Socket()` and `socket.connect()`, not `net.connect()` (which
 * undici's own connector calls): VS Code's extension host wraps `net.connect` (its proxy agent)
 * to read two settings on every connection and, where they are on, wait for the system's
 * certificates, which a plain HTTP request to 127.0.0.1 or to a Unix socket never needs. It was a
 * third of the time a poll spent connecting (docs/PERFORMANCE.md).
 */
import { Socket } from 'node:net';
import { ConnectTimeoutError, type Connector } from './undiciPool';
import { later } from '../platform/timers';

/** The `code` of the error a request fails with when its new connection closed before it was written. */
export const CLOSED_BEFORE_REQUEST = 'ERR_CLOSED_BEFORE_REQUEST';

/** undici's own default: a connection idle this long is probed, as its connector does. */
const KEEP_ALIVE_INITIAL_DELAY_MS = 60_000;

export function holdingConnector(options: {
  readonly timeoutMs: number;
  readonly socketPath?: string | undefined;
}): Connector {
  return ({ hostname, port }, callback) => {
    const socket = new Socket();
    let settled = false;
    const settle = (error: Error | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error !== null) {
        socket.destroy();
        callback(error, null);
        return;
      }
      // The first immediate runs in the turn whose I/O completed the connection; the second after
      // the loop has polled for I/O again, by when a close or a reset sent at once has been read.
      setImmediate(() =>
        setImmediate(() => {
          if (isOpen(socket)) {
            callback(null, socket);
            return;
          }
          socket.destroy();
          const closed = new Error('The service closed the connection before the request was written.');
          callback(Object.assign(closed, { code: CLOSED_BEFORE_REQUEST }), null);
        }),
      );
    };
    const where = options.socketPath ?? `${hostname}:${port}`;
    const timer = later(
      () => settle(new ConnectTimeoutError(`Connecting to ${where} took longer than ${options.timeoutMs} ms.`)),
      options.timeoutMs,
    );
    // Stays for the socket's life, as undici's connector's does: an error during the hold, or
    // before undici adds its own listener, must not go unheard (it would end the process).
    socket.on('error', (error) => settle(error));
    socket.once('connect', () => settle(null));
    socket.setNoDelay(true);
    socket.setKeepAlive(true, KEEP_ALIVE_INITIAL_DELAY_MS);
    socket.connect(
      options.socketPath !== undefined ? { path: options.socketPath } : { host: hostname, port: Number(port) || 80 },
    );
  };
}

function isOpen(socket: Socket): boolean {
  return !socket.destroyed && !socket.readableEnded && socket.writable;
}
