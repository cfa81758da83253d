/**
 * Opens the pool's connections (undici's own connector: keep-alive, no delay, connect time-out),
 * but hands a new connection to undici only after the event loop has read from it once more.
 * undici writes the request the moment it gets a connection, so a service that accepts and at
 * once closes (or resets) would otherwise make every such request "may have been received"
 * (`sent: true`), although it never read a byte. Closed before the hand-over, it fails with
 * CLOSED_BEFORE_REQUEST, which the transport reports as `sent: false`: nothing was written.
 *
 * The wait only moves the line: a service that closes a little later still yields `sent: true`,
 * the safe side. `sent: false` is said only when undici surely wrote nothing.
 */
import type { Socket } from 'node:net';
import { buildConnector } from './undiciPool';

/** The `code` of the error a request fails with when its new connection closed before it was written. */
export const CLOSED_BEFORE_REQUEST = 'ERR_CLOSED_BEFORE_REQUEST';

type Connector = ReturnType<typeof buildConnector>;

export function holdingConnector(options: { readonly timeoutMs: number; readonly socketPath?: string | undefined }): Connector {
  const open = buildConnector({ timeout: options.timeoutMs, ...(options.socketPath === undefined ? {} : { socketPath: options.socketPath }) });
  return (connectOptions, callback) => {
    open(connectOptions, (error, socket) => {
      if (error !== null) {
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
    });
  };
}

function isOpen(socket: Socket): boolean {
  return !socket.destroyed && !socket.readableEnded && socket.writable;
}
