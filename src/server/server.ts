/**
 * The reference server: the service of service.ts behind Node HTTP listeners; the service is also
 * `server.controls`, the in-process controls of PROTOCOL.md §6. It listens on 127.0.0.1 (`listen()`), on the Unix
 * socket of the app's VS Code integration (`listenOnSocket()`, PROTOCOL.md §8), or on both: one service behind both, so
 * state, authentication, lockout, nonces and the debug view are shared. Built by a function and started by those
 * methods, so tests run it in-process on a free port; only the CLI picks a fixed one.
 */
import { lstat, unlink } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { DEFAULT_HOST, MAX_CONNECTIONS, MAX_HEADER_BYTES, SERVER_TIMEOUTS } from '../protocol/constants';
import { errnoCode, errorMessage, errorPhrase } from '../platform/errors';
import {
  removeCapabilityFileIfUnchanged,
  writeCapabilityFile,
  type WrittenCapabilityFile,
} from './capabilityAnnouncement';
import { ConnectionCap } from './connectionCap';
import type { DataFile } from './dataFile';
import { formatRequestRecord, type RequestRecord } from './debugView';
import { httpStatusOf } from './errors';
import { answerClientError, endWithJson, readBody, writeJson } from './http';
import {
  EMPTY_BODY,
  ReferenceService,
  type ReceivedBody,
  type ReferenceServiceOptions,
  type RequestHead,
  type ServiceResponse,
  type Transport,
} from './service';
import type { SeedActivity, StateSnapshot } from './state';
import { bindSocketPrivately, prepareSocketPath, type BoundSocket } from './unixSocket';
import { later } from '../platform/timers';

export interface ServerTimeouts {
  readonly headersMs: number;
  readonly requestMs: number;
  readonly keepAliveMs: number;
  readonly connectionsCheckingIntervalMs: number;
}

export interface ReferenceServerOptions extends ReferenceServiceOptions {
  /** A string is a name taken as it is (no group, a `/` is part of the name); an object can name a group. */
  readonly seedActivities?: Iterable<string | SeedActivity>;
  /**
   * Where activities, sessions and entries are kept across restarts: opened (checked, locked,
   * loaded) by the first listen, released by `close()`. A change is answered only once it is on
   * disk; one that cannot be written is undone and answered 500.
   */
  readonly dataFile?: DataFile;
  /** Where the state starts when no data file holds one yet (the CLI's `--demo`); the seed applies on top. */
  readonly initialState?: StateSnapshot;
  /** The first of `seedActivities` runs, started this long ago (the CLI's `--started-ago` with `--seed`). */
  readonly seedStartedAgoMs?: number;
  /** One call per answered request (time, method, path, status), as the CLI prints them. */
  readonly onRequest?: (line: string, record: RequestRecord) => void;
  /** Shorter timeouts let fault tests finish quickly; the defaults are those of PROTOCOL.md §5. */
  readonly timeouts?: Partial<ServerTimeouts>;
}

export function createReferenceServer(options: ReferenceServerOptions): ReferenceServer {
  return new ReferenceServer(options);
}

export class ReferenceServer {
  /**
   * What the desktop app's UI does to the service, and what tests read back (PROTOCOL.md §6): a test
   * drives the app through `server.controls`, a user of the server only starts and stops it.
   */
  readonly controls: ReferenceService;
  private readonly service: ReferenceService;
  private readonly http: Server;
  private readonly unix: Server;
  private boundPort: number | undefined;
  private boundSocket: BoundSocket | undefined;
  private readonly capabilityFiles: WrittenCapabilityFile[] = [];
  private loaded: Promise<void> | undefined;
  /** Sockets Node handed over with a CONNECT: it no longer counts them, so `close()` ends them itself. */
  private readonly detached = new Set<Duplex>();
  /** With a data file, the requests past step 1 in arrival order: each waits for the one before. */
  private turns: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: ReferenceServerOptions) {
    this.service = new ReferenceService(options);
    this.controls = this.service;
    this.http = this.createListener('tcp');
    this.unix = this.createListener('socket');
  }

  /** Loads the data file (if any), then listens on 127.0.0.1; port 0 picks a free one. */
  async listen(port = 0): Promise<number> {
    await this.load();
    await listenOn(this.http, (done) => this.http.listen(port, DEFAULT_HOST, done));
    this.boundPort = (this.http.address() as AddressInfo).port;
    this.service.bindTo(this.boundPort);
    return this.boundPort;
  }

  /**
   * Loads the data file (if any, and unless `listen()` did), then listens on the Unix socket at
   * `path` (mode 0600), alone or beside the TCP port; with `capabilityFile`, announces it there
   * once listening (the socket, its token and this pid: PROTOCOL.md §8). A socket file a killed
   * server left behind is replaced; every other obstacle is a `SocketPathError` with one sentence.
   */
  async listenOnSocket(path: string, options: { readonly capabilityFile?: string | undefined } = {}): Promise<void> {
    if (this.boundSocket)
      throw new Error(`The reference server already listens on the socket ${this.boundSocket.path}.`);
    await this.load();
    const absolute = await prepareSocketPath(path);
    // Bound privately and linked into place, so that it is 0600 there from the first moment.
    const bound = await bindSocketPrivately(absolute, {
      listen: (at) => listenOn(this.unix, (done) => this.unix.listen(at, done)),
      close: () => closeListener(this.unix),
    });
    this.boundSocket = bound;
    if (options.capabilityFile === undefined) return;
    try {
      await this.writeCapabilityFile(options.capabilityFile);
    } catch (error) {
      // Not announced, not listening: a socket nobody can find is of no use to anybody.
      await closeListener(this.unix);
      this.boundSocket = undefined;
      await removeSocketFile(bound);
      throw error;
    }
  }

  /**
   * Writes the capability file of PROTOCOL.md §8 (this socket, the token in use now, this pid) at `path`,
   * atomically and with mode 0600; `close()` removes it unless another server has replaced it.
   */
  async writeCapabilityFile(path: string): Promise<void> {
    const socketPath = this.socketPath;
    if (socketPath === undefined)
      throw new Error('The reference server writes a capability file only once it listens on a socket.');
    this.capabilityFiles.push(
      await writeCapabilityFile(path, { socketPath, token: this.service.token, pid: process.pid }),
    );
  }

  get port(): number {
    if (this.boundPort === undefined) throw new Error('The reference server is not listening yet.');
    return this.boundPort;
  }

  get url(): string {
    return `http://${DEFAULT_HOST}:${this.port}`;
  }

  /** The absolute path of the Unix socket, or undefined when not listening on one. */
  get socketPath(): string | undefined {
    return this.boundSocket?.path;
  }

  /**
   * Removes the capability files it wrote (those still its own), stops listening on both, ends
   * every connection, idle or not, and removes the socket file: what the app does as it quits.
   */
  async close(): Promise<void> {
    // The announcement goes first, so that nobody reads it while the socket is already gone.
    const written = this.capabilityFiles.splice(0);
    const removals = await Promise.allSettled(written.map((file) => removeCapabilityFileIfUnchanged(file)));
    for (const socket of this.detached) socket.destroy();
    await Promise.all([closeListener(this.http), closeListener(this.unix)]);
    const bound = this.boundSocket;
    this.boundSocket = undefined;
    if (bound) await removeSocketFile(bound);
    // The lock goes last, once no request is left to save: the next server may write from then on.
    await this.turns;
    await this.options.dataFile?.close();
    // A file that could not be removed is reported only once the listeners are closed anyway.
    const failed = removals.find((removal) => removal.status === 'rejected');
    if (failed) throw failed.reason;
  }

  // ---- HTTP -------------------------------------------------------------------------------------

  /** The data file (else the initial state) and the seed, once, whichever listener starts first. */
  private load(): Promise<void> {
    this.loaded ??= (async () => {
      const saved = (await this.options.dataFile?.open()) ?? this.options.initialState;
      if (saved) this.service.state.restore(saved);
      const seeded = [...(this.options.seedActivities ?? [])].map((seed) =>
        typeof seed === 'string'
          ? this.service.state.seedActivity(seed)
          : this.service.state.seedActivity(seed.name, seed.groupName ?? null),
      );
      const [first] = seeded;
      const agoMs = this.options.seedStartedAgoMs;
      if (first !== undefined && agoMs !== undefined)
        this.service.state.startAgo({ activityID: first.activityID }, agoMs);
    })();
    return this.loaded;
  }

  /** One Node listener per transport, so each request knows how it came and Host is checked on TCP only. */
  private createListener(via: Transport): Server {
    const timeouts = { ...SERVER_TIMEOUTS, ...this.options.timeouts };
    const cap = new ConnectionCap(MAX_CONNECTIONS);
    const answer = (request: IncomingMessage, response: ServerResponse): void => {
      cap.answering(request, response);
      void this.onRequest(request, response, via);
    };
    const listener = createServer(
      {
        maxHeaderSize: MAX_HEADER_BYTES,
        // Step 0 answers a missing Host itself (403), instead of Node's bare 400.
        requireHostHeader: false,
        headersTimeout: timeouts.headersMs,
        requestTimeout: timeouts.requestMs,
        keepAliveTimeout: timeouts.keepAliveMs,
        connectionsCheckingInterval: timeouts.connectionsCheckingIntervalMs,
      },
      answer,
    );
    // A connection that sends nothing is closed by Node once `headersTimeout` has passed since it
    // was accepted; until then it must not keep the token holder out (connectionCap.ts).
    listener.on('connection', (socket: Socket) => cap.admit(socket));
    listener.on('clientError', (error: NodeJS.ErrnoException, socket) => answerClientError(error, socket, this.now()));
    // Node hands a CONNECT to this event with the bare socket, and without a listener closes the
    // connection unanswered: it goes through the order of checks like any method this API does
    // not use (a 401 unsigned, a 404 or 405 signed), answered as JSON on a closing connection.
    listener.on('connect', (request: IncomingMessage, socket: Duplex) =>
      this.onConnect(request, socket, via, timeouts.keepAliveMs),
    );
    // Node writes an automatic "100 Continue" even for a request queued behind a pipelined one,
    // where it lands inside the earlier answer; only send it once this answer owns the socket.
    listener.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
      if (response.socket) response.writeContinue();
      answer(request, response);
    });
    // Any other expectation is refused as JSON, like every answer, instead of Node's bare 417.
    listener.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
      const head = { method: request.method ?? '', target: request.url ?? '', headers: request.headers };
      response.shouldKeepAlive = false;
      this.respond(head, response, {
        status: 417,
        body: { error: 'The only expectation understood is 100-continue.' },
      });
    });
    return listener;
  }

  private now(): Date {
    return new Date(this.service.now());
  }

  private async onRequest(request: IncomingMessage, response: ServerResponse, via: Transport): Promise<void> {
    const head: RequestHead = { method: request.method ?? '', target: request.url ?? '', headers: request.headers };
    try {
      const early = this.service.precheck(head, via);
      if (early) return this.respond(head, response, early);
      const outcome = await readBody(request);
      if (outcome.kind === 'aborted') return void request.socket.destroy();
      if (outcome.kind === 'overflow') {
        response.shouldKeepAlive = false;
        response.once('finish', () => request.socket.destroy());
        return this.respond(head, response, { status: 413, body: { error: 'The request body is far too large.' } });
      }
      this.respond(head, response, await this.handleInTurn(head, outcome.body));
    } catch (error) {
      // Only a bug or a failing disk gets here; the fuzz tests exist to keep it unreachable.
      if (response.headersSent) return void request.socket.destroy();
      this.respond(head, response, { status: 500, body: { error: `The service failed: ${errorMessage(error)}` } });
    }
  }

  /**
   * Steps 2 to 8. With a data file, one request at a time: a change is saved before its answer
   * goes out, and a change the file could not hold is undone before the next request sees it, so
   * no answer shows what a restart would lose, and what was answered 2xx is on disk.
   */
  private handleInTurn(head: RequestHead, body: ReceivedBody): Promise<ServiceResponse> {
    const dataFile = this.options.dataFile;
    if (!dataFile) return Promise.resolve(this.service.handle(head, body));
    const turn = this.turns.then(() => this.handleAndSave(dataFile, head, body));
    this.turns = turn.catch(() => undefined);
    return turn;
  }

  private async handleAndSave(dataFile: DataFile, head: RequestHead, body: ReceivedBody): Promise<ServiceResponse> {
    const before = this.service.state.checkpoint();
    try {
      const answer = this.service.handle(head, body);
      if (answer.changed) await dataFile.save(this.service.state.snapshot());
      return answer;
    } catch (error) {
      this.service.state.rollBack(before);
      const status = httpStatusOf(error);
      if (status === undefined) throw error;
      return { status, body: { error: `${errorPhrase(error)}; the request changed nothing.` } };
    }
  }

  private onConnect(request: IncomingMessage, socket: Duplex, via: Transport, lingerMs: number): void {
    const head: RequestHead = { method: request.method ?? '', target: request.url ?? '', headers: request.headers };
    socket.on('error', () => socket.destroy());
    // What the client sends after the head is read and dropped, so closing resets nothing over the
    // answer; a client that never closes its side is cut off after a while.
    socket.resume();
    const linger = later(() => socket.destroy(), lingerMs).unref();
    this.detached.add(socket);
    socket.once('close', () => {
      clearTimeout(linger);
      this.detached.delete(socket);
    });
    let answer: ServiceResponse;
    try {
      answer = this.service.precheck(head, via) ?? this.service.handle(head, EMPTY_BODY);
    } catch (error) {
      answer = { status: 500, body: { error: `The service failed: ${errorMessage(error)}` } };
    }
    const now = this.now();
    endWithJson(socket, answer.status, answer.body, now, answer.headers);
    this.record(head, answer.status, now);
  }

  private respond(head: RequestHead, response: ServerResponse, answer: ServiceResponse): void {
    const now = this.now();
    writeJson(response, answer.status, answer.body, now, answer.headers);
    this.record(head, answer.status, now);
  }

  private record(head: RequestHead, status: number, now: Date): void {
    const queryStart = head.target.indexOf('?');
    const record: RequestRecord = {
      time: now.toISOString(),
      method: head.method,
      path: queryStart < 0 ? head.target : head.target.slice(0, queryStart),
      status,
    };
    this.service.requests.add(record);
    this.options.onRequest?.(formatRequestRecord(record), record);
  }
}

/** Listens, turning the listener's 'error' event (EADDRINUSE and the like) into a rejection. */
function listenOn(listener: Server, start: (done: () => void) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => reject(error);
    listener.once('error', onError);
    start(() => {
      listener.off('error', onError);
      resolve();
    });
  });
}

/** Stops listening and ends every connection, idle or not. */
async function closeListener(listener: Server): Promise<void> {
  if (!listener.listening) return;
  const closed = new Promise<void>((resolve) => listener.close(() => resolve()));
  listener.closeAllConnections();
  await closed;
}

/**
 * Node unlinks only the name it bound, the private one that is long gone (unixSocket.ts); this
 * removes the socket's name at its path, and only while it is still the very file this server
 * created, never one a successor has since bound at the same path.
 */
async function removeSocketFile(bound: BoundSocket): Promise<void> {
  try {
    const { dev, ino } = await lstat(bound.path);
    if (dev === bound.dev && ino === bound.ino) await unlink(bound.path);
  } catch (error) {
    if (errnoCode(error) !== 'ENOENT') throw error;
  }
}
