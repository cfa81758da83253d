/**
 * Does anything listen where the app would? For onboarding without a token and for Check
 * Connection's diagnosis, where no signed request can ask. It connects to 127.0.0.1:<port> (the
 * HTTP API) or to the Unix socket (the app's VS Code integration) and closes at once, writing no
 * byte: the app never sees a request, so nothing can count as a failed sign-in, however strictly
 * it counts (an unsigned request may be one, and eleven in 30 s lock every tool out for 60 s).
 * The answer is data, never an exception, and holds no token: none is ever given to it.
 */
import { Socket } from 'node:net';
import { DEFAULT_HOST } from '../protocol/constants';
import { errnoCode, errorMessage } from '../platform/errors';
import { socketPathTooLong } from '../platform/socketPath';
import { later } from '../platform/timers';

/** Where to look: the HTTP API's port on 127.0.0.1, or the socket of the VS Code integration. */
export type ReachabilityTarget = { readonly port: number } | { readonly socketPath: string };

export type Reachability =
  /** Something accepted the connection; nothing was sent to it. */
  | { readonly kind: 'listening' }
  /** Nothing listens: the port is closed, or the socket file is left over from an app that quit. */
  | { readonly kind: 'refused' }
  /** The connection was neither accepted nor refused within the deadline. */
  | { readonly kind: 'timedOut' }
  /** Any other failure, by its system code (`ENOENT`: no such socket file, `EACCES`…). */
  | { readonly kind: 'error'; readonly code: string; readonly message: string };

/** Milliseconds until the connection counts as not answered: loopback answers in microseconds. */
const TIMEOUT_MS = 1_000;

/** Connects and closes with no byte written; resolves with what happened, never rejects. */
export function reachability(target: ReachabilityTarget): Promise<Reachability> {
  // A path longer than the OS takes would be cut: the probe would ask another file, or none.
  const tooLong = 'socketPath' in target ? socketPathTooLong(target.socketPath) : undefined;
  if (tooLong !== undefined) return Promise.resolve({ kind: 'error', code: 'ENAMETOOLONG', message: tooLong });
  return new Promise((resolve) => {
    let socket: Socket;
    try {
      // Not `net.connect`, which the extension host wraps (connector.ts).
      socket = new Socket().connect(
        'socketPath' in target ? { path: target.socketPath } : { host: DEFAULT_HOST, port: target.port },
      );
    } catch (error) {
      // Node throws at once for an argument it cannot use (a port out of range, say).
      resolve(failure(error));
      return;
    }
    // Unreferenced: a pending probe alone keeps no process alive.
    const deadline = later(() => finish({ kind: 'timedOut' }), TIMEOUT_MS).unref();
    function finish(answer: Reachability): void {
      clearTimeout(deadline);
      socket.removeAllListeners('connect');
      // An error after the answer (a reset on the close) has nothing left to tell.
      socket.removeAllListeners('error').on('error', () => undefined);
      socket.destroy();
      resolve(answer);
    }
    socket.once('connect', () => finish({ kind: 'listening' }));
    socket.once('error', (error) => finish(failure(error)));
  });
}

function failure(error: unknown): Reachability {
  const code = errnoCode(error) ?? 'UNKNOWN';
  if (code === 'ECONNREFUSED') return { kind: 'refused' };
  return { kind: 'error', code, message: errorMessage(error) };
}
