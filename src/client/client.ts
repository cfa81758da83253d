/**
 * ServiceClient: the eight operations of the application's local API, signed through
 * src/protocol (the only signing code), over one keep-alive Node `http.Agent` (transport.ts, to a
 * loopback port or the app's Unix socket), with the error mapping and the safe retry of
 * PROTOCOL.md §7, and the header prefix learned from the app's answers when it is `auto`
 * (headerPrefixChoice.ts).
 */
import { inspect } from 'node:util';
import { CLOCK_DRIFT_SECONDS, JSON_CONTENT_TYPE } from '../protocol/constants';
import { signingHeaderNames, type HeaderPrefix, type SigningHeaderNames } from '../protocol/headers';
import {
  checkBranchChangeRequest,
  checkEntryRequest,
  checkSearchQuery,
  checkStartRequest,
  RuleViolation,
} from '../protocol/rules';
import { signRequest, timestampFor } from '../protocol/signing';
import type { ActivitySelector, BranchChangeRequest, EntryRequest } from '../protocol/types';
import type {
  ActivityMatch,
  BranchChangeAnswer,
  CurrentAnswer,
  EntryAnswer,
  HealthAnswer,
  StartAnswer,
  StatusAnswer,
  StopAnswer,
} from './answerTypes';
import { clockSkewSeconds, errorFor, interpretAnswer, settlesResend, single } from './answerErrors';
import { AnswerLostError, ConnectionError, HttpError, ValidationError } from './errors';
import { HeaderPrefixChoice } from './headerPrefixChoice';
import { NonceSource } from './nonces';
import { resolveOptions, type ServiceClientOptions } from './options';
import {
  appClockOffsetMs,
  readBranchChange,
  readCurrent,
  readEntry,
  readHealth,
  readSearch,
  readStart,
  readStatus,
  readStop,
  type SaidBody,
} from './results';
import { Transport, type WireRequest, type WireResponse } from './transport';
import { timeoutSignal } from '../platform/timers';

export interface CallOptions {
  /** Aborting rejects the call with the signal's reason; nothing is retried after that. */
  readonly signal?: AbortSignal | undefined;
}

export interface SearchOptions extends CallOptions {
  /** 1 to 100; the service's default is 20. */
  readonly limit?: number | undefined;
}

/** A 2xx as the operations read it. */
interface Success {
  readonly status: number;
  /** The JSON object the body held; `undefined` when it said nothing (empty, not JSON, not an object). */
  readonly body: SaidBody;
  readonly text: string;
  readonly headers: WireResponse['headers'];
  /** The client's clock when the answer arrived. */
  readonly receivedAtMs: number;
}

interface SignedRequest extends WireRequest {
  /** When it was signed (client clock, ms): a re-send must stay inside the service's window. */
  readonly signedAtMs: number;
}

const HEADER_NAMES: Readonly<Record<HeaderPrefix, SigningHeaderNames>> = {
  Clessira: signingHeaderNames('Clessira'),
  NowDoing: signingHeaderNames('NowDoing'),
};

export class ServiceClient {
  readonly #token: string;
  readonly #options: Readonly<Omit<ReturnType<typeof resolveOptions>, 'token'>>;
  readonly #transport: Transport;
  readonly #prefix: HeaderPrefixChoice<WireResponse>;
  readonly #nonces = new NonceSource();

  constructor(options: ServiceClientOptions = {}) {
    const { token, ...rest } = resolveOptions(options);
    this.#token = token;
    this.#options = rest;
    this.#prefix = new HeaderPrefixChoice(
      rest.headerPrefix,
      (answer: WireResponse) => clockSkewSeconds(answer, rest.clock) !== undefined,
      { recall: rest.learnedHeaderPrefix, onLearn: rest.onHeaderPrefix },
    );
    this.#transport = new Transport(rest.endpoint, rest.connections, rest.timeoutMs);
  }

  /** The TCP port; undefined over the app's socket. */
  get port(): number | undefined {
    const { endpoint } = this.#options;
    return endpoint.kind === 'tcp' ? endpoint.port : undefined;
  }

  /** The loopback address; undefined over the app's socket. */
  get host(): string | undefined {
    const { endpoint } = this.#options;
    return endpoint.kind === 'tcp' ? endpoint.host : undefined;
  }

  /** The app's Unix socket; undefined over TCP. */
  get socketPath(): string | undefined {
    const { endpoint } = this.#options;
    return endpoint.kind === 'socket' ? endpoint.socketPath : undefined;
  }

  /** The prefix requests are signed with now; with `auto` while undecided, the one the next call tries first. */
  get headerPrefix(): HeaderPrefix {
    return this.#prefix.prefix;
  }

  /** Releases the connection pool; later calls fail with a ConnectionError (sent: false). */
  close(): Promise<void> {
    return this.#transport.close();
  }

  // Every operation returns what the app said and nothing it did not (src/client/answerTypes.ts):
  // a field it left out is `undefined`, and a 2xx whose body is not a JSON object said nothing.

  /** Checks the connection without triggering anything; answers even while the license is locked. */
  async healthcheck(options?: CallOptions): Promise<HealthAnswer> {
    return readHealth((await this.#call('GET', '/healthcheck', undefined, options)).body);
  }

  /**
   * The running activity, or null (also when the answer names none). The running time is
   * `Date.now() + appClockOffsetMs - startedAtMs`, measured on the app's clock.
   */
  async getCurrent(options?: CallOptions): Promise<CurrentAnswer | null> {
    const answer = await this.#call('GET', '/current', undefined, options);
    return readCurrent(answer.body, appClockOffsetMs(single(answer.headers['date']), answer.receivedAtMs));
  }

  /** An answer that does not say whether the app is tracking is an HttpError: a status cannot be "not said". */
  async getStatus(options?: CallOptions): Promise<StatusAnswer> {
    const answer = await this.#call('GET', '/status', undefined, options);
    const status = readStatus(answer.body);
    if (status === undefined) {
      throw new HttpError(
        answer.status,
        `The service answered ${answer.status} to GET /status without saying whether it is tracking.`,
        answer.text,
      );
    }
    return status;
  }

  /** Activities whose name contains `q` (any case): the exact match first, then prefixes; with their group. */
  async searchActivities(q: string, options?: SearchOptions): Promise<ActivityMatch[]> {
    const query = validated(() => checkSearchQuery(q, options?.limit));
    const limit = options?.limit === undefined ? '' : `&limit=${query.limit}`;
    const target = `/activities/search?q=${encodeURIComponent(query.q)}${limit}`;
    return readSearch((await this.#call('GET', target, undefined, options)).body);
  }

  /** Starts an activity by id or name (the id wins, sent as given); ends the one running, if another. */
  async startActivity(request: ActivitySelector, options?: CallOptions): Promise<StartAnswer> {
    validated(() => checkStartRequest({ ...request }));
    return readStart((await this.#call('POST', '/activities/start', JSON.stringify(request), options)).body);
  }

  /** Ends the running session; stopping when nothing runs is not an error. */
  async stopActivity(options?: CallOptions): Promise<StopAnswer> {
    return readStop((await this.#call('POST', '/activities/stop', '{}', options)).body);
  }

  /** Logs a block of time after the fact (whole minutes), without changing what runs. */
  async logEntry(request: EntryRequest, options?: CallOptions): Promise<EntryAnswer> {
    validated(() => checkEntryRequest({ ...request }));
    return readEntry((await this.#call('POST', '/entries', JSON.stringify(request), options)).body);
  }

  /** Opens the application's tracking prompt with the branch filled in. */
  async notifyBranchChange(request: BranchChangeRequest, options?: CallOptions): Promise<BranchChangeAnswer> {
    validated(() => checkBranchChangeRequest({ ...request }));
    return readBranchChange((await this.#call('POST', '/branch-changed', JSON.stringify(request), options)).body);
  }

  /** What util.inspect and console.log show: never the token. */
  [inspect.custom](): string {
    const shown = Object.entries(this.toJSON()).map(([key, value]) => `${key}: ${inspect(value)}`);
    return `ServiceClient { ${[...shown, "token: '<redacted>'"].join(', ')} }`;
  }

  toJSON(): Record<string, unknown> {
    const { endpoint } = this.#options;
    const where =
      endpoint.kind === 'tcp' ? { host: endpoint.host, port: endpoint.port } : { socketPath: endpoint.socketPath };
    return { ...where, headerPrefix: this.headerPrefix };
  }

  // ---- the request pipeline ---------------------------------------------------------------------

  #sign(method: 'GET' | 'POST', target: string, body: string | undefined, prefix: HeaderPrefix): SignedRequest {
    const signedAtMs = this.#options.clock();
    const timestamp = timestampFor(signedAtMs);
    const nonce = this.#nonces.next();
    const names = HEADER_NAMES[prefix];
    const signature = signRequest({ token: this.#token, method, target, timestamp, nonce, body });
    return {
      method,
      target,
      body,
      signedAtMs,
      headers: {
        [names.token]: this.#token,
        [names.timestamp]: timestamp,
        [names.nonce]: nonce,
        [names.signature]: signature,
        ...(body === undefined ? {} : { 'content-type': JSON_CONTENT_TYPE }),
      },
    };
  }

  /**
   * Signs with the prefix in use (learning it first, for `auto`), sends, and maps the answer.
   * `timeoutMs` is the deadline of the whole call: every copy it sends, headers and body, and the
   * wait for another call that is learning the prefix.
   */
  async #call(
    method: 'GET' | 'POST',
    target: string,
    body: string | undefined,
    options?: CallOptions,
  ): Promise<Success> {
    const signal = options?.signal;
    signal?.throwIfAborted();
    const deadline = timeoutSignal(this.#options.timeoutMs);
    const response = await this.#prefix.send(
      (prefix, copySignal) => this.#exchange(this.#sign(method, target, body, prefix), copySignal, deadline),
      signal,
    );
    const receivedAtMs = this.#options.clock();
    return {
      status: response.status,
      body: interpretAnswer(response, this.#options.clock),
      text: response.text,
      headers: response.headers,
      receivedAtMs,
    };
  }

  /**
   * Sends once, and re-sends the identical request (same timestamp, nonce, signature) at most
   * once, while the deadline has not passed: after a failure that may have reached the service
   * (`sent: true`), or for a GET that surely did not. Once a POST may have arrived, only a 2xx,
   * `400` or `404` to its re-send is taken as the outcome: a `409` means the first copy arrived
   * (AnswerLostError), and any other answer (`401`, `423`, `429`, `5xx`…) says nothing about the
   * first copy, so the call fails as "may have been received" (ConnectionError, `sent: true`).
   * Either way nothing is ever done twice: a caller never sends it again as "surely not sent".
   */
  async #exchange(
    request: SignedRequest,
    signal: AbortSignal | undefined,
    deadline: AbortSignal,
  ): Promise<WireResponse> {
    const { method, target } = request;
    let response: WireResponse;
    try {
      response = await this.#send(request, signal, deadline, false);
    } catch (error) {
      if (!(error instanceof ConnectionError) || signal?.aborted || deadline.aborted) throw error;
      const mayResend = error.sent || method === 'GET';
      const insideWindow = this.#options.clock() - request.signedAtMs < CLOCK_DRIFT_SECONDS * 1000;
      if (!mayResend || !insideWindow) throw error;
      try {
        response = await this.#send(request, signal, deadline, true);
      } catch (resendError) {
        // The first copy may have arrived even though the re-send found nobody (the app died
        // after logging it): that is still "may have been received", never "surely not sent",
        // or a caller would queue it and log it twice.
        if (error.sent && resendError instanceof ConnectionError && !resendError.sent) {
          throw new ConnectionError(error.message, true, { cause: resendError });
        }
        throw resendError;
      }
      if (error.sent && response.status === 409) {
        throw new AnswerLostError(
          `${method} ${pathOf(target)} reached the service, ` +
            'but its answer was lost and it was not sent again; check the application before repeating it.',
          { cause: error },
        );
      }
      if (error.sent && method === 'POST' && !settlesResend(response.status)) {
        const answer = errorFor(response, this.#options.clock);
        throw new ConnectionError(
          `${method} ${pathOf(target)} may have reached the service: ` +
            `its answer was lost, and the identical re-send was answered ${response.status} ` +
            `(${answer.message.replace(/\.$/, '')}); check the application before repeating it.`,
          true,
          { cause: answer },
        );
      }
    }
    return response;
  }

  async #send(
    request: SignedRequest,
    signal: AbortSignal | undefined,
    deadline: AbortSignal,
    retry: boolean,
  ): Promise<WireResponse> {
    if (!this.#options.onRequest) return this.#transport.send(request, signal, deadline);
    const started = performance.now();
    const report = (status: number | undefined, error?: Error): void =>
      this.#options.onRequest?.({
        method: request.method,
        path: pathOf(request.target),
        status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        retry,
        ...(error ? { error } : {}),
      });
    try {
      const response = await this.#transport.send(request, signal, deadline);
      report(response.status);
      return response;
    } catch (error) {
      report(undefined, error instanceof Error ? error : undefined);
      throw error;
    }
  }
}

function validated<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (error instanceof RuleViolation) throw new ValidationError(error.message);
    throw error;
  }
}

function pathOf(target: string): string {
  const query = target.indexOf('?');
  return query < 0 ? target : target.slice(0, query);
}
