/**
 * The transport, loaded when the first request goes out rather than when the client is made. In
 * the extension's activation bundle (dist/extension.js) undici and the transport were nine tenths
 * of the bytes that VS Code reads and runs before `activate` can start, while the first request
 * only goes out after `activate` has returned; esbuild.mjs builds them into dist/transport.js,
 * beside it, and this loads that file on first use (from the sources, src/client/transport.ts).
 * The transport's errors then come from another copy of errors.ts: every check on them goes by
 * their brand and `code` (errors.ts), never by the class of this copy.
 */
import { loadBeside } from '../platform/besideModule';
import type { Deadline } from './deadline';
import { ConnectionError } from './errors';
import type { Endpoint } from './options';
import type { Transport, WireRequest, WireResponse } from './transport';

export type { WireRequest, WireResponse };

type TransportModule = typeof import('./transport');

/**
 * Beside this file: dist/transport.js in a bundle, src/client/transport.ts compiled to
 * out/src/client/transport.js in the tests.
 */
const TRANSPORT_MODULE = './transport';

/** Loads the transport's module (once: Node keeps it); a failure says which file and why. */
export function loadTransportModule(): TransportModule {
  return loadBeside(__filename, TRANSPORT_MODULE, "The client's transport") as TransportModule;
}

/** A Transport made on the first `send`, with the arguments it was given now. */
export class LazyTransport {
  #transport: Transport | undefined;
  #closed = false;

  constructor(
    private readonly endpoint: Endpoint,
    private readonly connections: number,
    private readonly timeoutMs: number,
  ) {}

  /** As Transport#send; the first call loads the transport first. */
  async send(request: WireRequest, signal: AbortSignal | undefined, deadline: Deadline): Promise<WireResponse> {
    // As the pool answers once closed: nothing is sent, and the caller is told why.
    if (this.#closed) throw new ConnectionError('This client was closed; create a new one.', false);
    this.#transport ??= new (loadTransportModule().Transport)(this.endpoint, this.connections, this.timeoutMs);
    return this.#transport.send(request, signal, deadline);
  }

  /** Closes the pool if one was made; later calls fail as after Transport#close. */
  async close(): Promise<void> {
    if (this.#transport === undefined) {
      this.#closed = true;
      return;
    }
    await this.#transport.close();
  }
}
