/**
 * The reference server: the service of service.ts behind a Node HTTP listener on 127.0.0.1, with
 * the in-process controls of PROTOCOL.md §6. Built by a function and started by `listen()`, so
 * tests run it in-process on a free port; only the CLI picks a fixed one.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_HOST, MAX_CONNECTIONS, MAX_HEADER_BYTES, SERVER_TIMEOUTS } from '../protocol/constants';
import { DEFAULT_HEADER_PREFIX, type HeaderPrefix } from '../protocol/headers';
import type { ActivityReference, EndpointPath, LicenseState } from '../protocol/types';
import { systemClock, type Clock } from './clock';
import type { DataFile } from './dataFile';
import { DebugView, formatRequestRecord, type RequestRecord } from './debugView';
import { answerClientError, readBody, writeJson } from './http';
import { ReferenceService, type RequestHead, type ServiceResponse } from './service';
import type { ServiceState } from './state';

export interface ServerTimeouts {
  readonly headersMs: number;
  readonly requestMs: number;
  readonly keepAliveMs: number;
  readonly connectionsCheckingIntervalMs: number;
}

export interface ReferenceServerOptions {
  readonly token: string;
  readonly headerPrefix?: HeaderPrefix;
  readonly license?: LicenseState;
  readonly unwired?: Iterable<EndpointPath>;
  readonly seedActivities?: Iterable<string>;
  /** Where activities, sessions and entries are kept across restarts; loaded by `listen()`. */
  readonly dataFile?: DataFile;
  readonly clock?: Clock;
  readonly newId?: () => string;
  /** One call per answered request (time, method, path, status), as the CLI prints them. */
  readonly onRequest?: (line: string, record: RequestRecord) => void;
  /** Shorter timeouts let fault tests finish quickly; the defaults are those of PROTOCOL.md §5. */
  readonly timeouts?: Partial<ServerTimeouts>;
  readonly maxNonces?: number;
}

export function createReferenceServer(options: ReferenceServerOptions): ReferenceServer {
  return new ReferenceServer(options);
}

export class ReferenceServer {
  private readonly service: ReferenceService;
  private readonly http: Server;
  private readonly debug = new DebugView();
  private clock: Clock;
  private boundPort: number | undefined;

  constructor(private readonly options: ReferenceServerOptions) {
    this.clock = options.clock ?? systemClock;
    this.service = new ReferenceService({
      token: options.token,
      headerPrefix: options.headerPrefix ?? DEFAULT_HEADER_PREFIX,
      clock: () => this.clock(),
      ...(options.license === undefined ? {} : { license: options.license }),
      ...(options.unwired === undefined ? {} : { unwired: options.unwired }),
      ...(options.newId === undefined ? {} : { newId: options.newId }),
      ...(options.maxNonces === undefined ? {} : { maxNonces: options.maxNonces }),
    });
    const timeouts = { ...SERVER_TIMEOUTS, ...options.timeouts };
    this.http = createServer(
      {
        maxHeaderSize: MAX_HEADER_BYTES,
        // Step 0 answers a missing Host itself (403), instead of Node's bare 400.
        requireHostHeader: false,
        headersTimeout: timeouts.headersMs,
        requestTimeout: timeouts.requestMs,
        keepAliveTimeout: timeouts.keepAliveMs,
        connectionsCheckingInterval: timeouts.connectionsCheckingIntervalMs,
      },
      (request, response) => void this.onRequest(request, response),
    );
    this.http.maxConnections = MAX_CONNECTIONS;
    this.http.on('clientError', (error: NodeJS.ErrnoException, socket) => answerClientError(error, socket, this.now()));
    // Node writes an automatic "100 Continue" even for a request queued behind a pipelined one,
    // where it lands inside the earlier answer; only send it once this answer owns the socket.
    this.http.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
      if (response.socket) response.writeContinue();
      void this.onRequest(request, response);
    });
    // Any other expectation is refused as JSON, like every answer, instead of Node's bare 417.
    this.http.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
      const head = { method: request.method ?? '', target: request.url ?? '', headers: request.headers };
      response.shouldKeepAlive = false;
      this.respond(head, response, { status: 417, body: { error: 'The only expectation understood is 100-continue.' } });
    });
  }

  /** Loads the data file (if any), then listens on 127.0.0.1; port 0 picks a free one. */
  async listen(port = 0): Promise<number> {
    const saved = await this.options.dataFile?.load();
    if (saved) this.service.state.restore(saved);
    for (const name of this.options.seedActivities ?? []) this.service.state.seedActivity(name);
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error): void => reject(error);
      this.http.once('error', onError);
      this.http.listen(port, DEFAULT_HOST, () => {
        this.http.off('error', onError);
        resolve();
      });
    });
    this.boundPort = (this.http.address() as AddressInfo).port;
    this.service.bindTo(this.boundPort);
    return this.boundPort;
  }

  get port(): number {
    if (this.boundPort === undefined) throw new Error('The reference server is not listening yet.');
    return this.boundPort;
  }

  get url(): string {
    return `http://${DEFAULT_HOST}:${this.port}`;
  }

  /** Stops listening and ends every connection, idle or not. */
  async close(): Promise<void> {
    if (!this.http.listening) return;
    const closed = new Promise<void>((resolve) => this.http.close(() => resolve()));
    this.http.closeAllConnections();
    await closed;
  }

  // ---- controls (PROTOCOL.md §6): what the desktop UI does to the real service ---------------------

  get state(): ServiceState {
    return this.service.state;
  }

  get license(): LicenseState {
    return this.service.license;
  }

  setLicense(license: LicenseState): void {
    this.service.setLicense(license);
  }

  setBreak(onBreak: boolean): void {
    this.service.state.setBreak(onBreak);
  }

  setUnwired(path: EndpointPath, unwired = true): void {
    this.service.setUnwired(path, unwired);
  }

  setClock(clock: Clock): void {
    this.clock = clock;
  }

  seedActivity(name: string): ActivityReference {
    return this.service.state.seedActivity(name);
  }

  debugView(): readonly RequestRecord[] {
    return this.debug.list();
  }

  // ---- HTTP -------------------------------------------------------------------------------------

  private now(): Date {
    return new Date(this.clock());
  }

  private async onRequest(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const head: RequestHead = { method: request.method ?? '', target: request.url ?? '', headers: request.headers };
    try {
      const early = this.service.precheck(head);
      if (early) return this.respond(head, response, early);
      const outcome = await readBody(request);
      if (outcome.kind === 'aborted') return void request.socket.destroy();
      if (outcome.kind === 'overflow') {
        response.shouldKeepAlive = false;
        response.once('finish', () => request.socket.destroy());
        return this.respond(head, response, { status: 413, body: { error: 'The request body is far too large.' } });
      }
      const answer = this.service.handle(head, outcome.body);
      if (answer.changed && this.options.dataFile) await this.options.dataFile.save(this.service.state.snapshot());
      this.respond(head, response, answer);
    } catch (error) {
      // Only a bug or a failing disk gets here; the fuzz tests exist to keep it unreachable.
      if (response.headersSent) return void request.socket.destroy();
      const message = error instanceof Error ? error.message : String(error);
      this.respond(head, response, { status: 500, body: { error: `The service failed: ${message}` } });
    }
  }

  private respond(head: RequestHead, response: ServerResponse, answer: ServiceResponse): void {
    const now = this.now();
    writeJson(response, answer.status, answer.body, now, answer.headers);
    const queryStart = head.target.indexOf('?');
    const record: RequestRecord = {
      time: now.toISOString(),
      method: head.method,
      path: queryStart < 0 ? head.target : head.target.slice(0, queryStart),
      status: answer.status,
    };
    this.debug.add(record);
    this.options.onRequest?.(formatRequestRecord(record), record);
  }
}
