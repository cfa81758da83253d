/**
 * Sockets made with `new Socket()` and `socket.connect()`, not `net.connect()`: VS Code's
 * extension host wraps `net.connect` (its proxy agent) and makes every connection wait for work a
 * loopback or Unix-socket connection never needs (connector.ts says more). For every connection
 * the client opens: the transport's agent and the reachability probe.
 */
import { Socket } from 'node:net';

/**
 * A socket connecting to `where`. Throws at once for an argument Node cannot use, as `net.connect` does.
 */
export function openSocket(
  where: { readonly path: string } | { readonly host: string; readonly port: number },
): Socket {
  return new Socket().connect(where);
}
