/**
 * The whole order of checks of PROTOCOL.md §2 as plain functions of a request: no sockets here,
 * so every step is tested directly and the HTTP adapter only moves bytes. It is also
 * `server.controls`, the in-process controls of PROTOCOL.md §6: what the desktop app's own UI does
 * to the real service (the license, the token, a break, an endpoint not wired, the answers' style,
 * the build, an activity made in the app) and what a test reads back (the state, the debug view,
 * failed sign-ins), plus the clock.
 */
import { randomUUID } from 'node:crypto';
import { LICENSE_LOCKED_MESSAGE, MAX_BODY_BYTES } from '../protocol/constants';
import { defaultHeaderPrefixFor, type HeaderPrefix } from '../protocol/headers';
import { RuleViolation } from '../protocol/rules';
import { EMPTY_BODY_SHA256 } from '../protocol/signing';
import {
  endpointPathsOf,
  isEndpointPath,
  type ActivityReference,
  type AppBuild,
  type EndpointPath,
  type LicenseState,
} from '../protocol/types';
import { answerWriter, type AnswerStyle } from './answerStyles';
import { Authenticator, type IncomingHeaders } from './auth/authenticator';
import { systemClock, type Clock } from './clock';
import { DebugView, type RequestRecord } from './debugView';
import { RequestRefusal } from './errors';
import { ROUTES } from './routes';
import { ServiceState } from './state';

export interface RequestHead {
  readonly method: string;
  /** The request-target exactly as it came on the request line. */
  readonly target: string;
  /** Lower-cased names, as Node delivers them. */
  readonly headers: IncomingHeaders;
}

export interface ReceivedBody {
  /** The body's bytes, or only its first MAX_BODY_BYTES + 1 when `tooLarge`. */
  readonly bytes: Uint8Array;
  /** SHA-256 of every byte received, for the signature. */
  readonly hashHex: string;
  readonly tooLarge: boolean;
}

/** What a request without a body hashes to, for the methods Node gives no body stream (CONNECT). */
export const EMPTY_BODY: ReceivedBody = { bytes: new Uint8Array(0), hashHex: EMPTY_BODY_SHA256, tooLarge: false };

export interface ServiceResponse {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  /** The answer must wait until the data file holds the change. */
  readonly changed?: boolean;
}

/** How a request arrived: TCP on 127.0.0.1, or the Unix socket of the VS Code integration. */
export type Transport = 'tcp' | 'socket';

export interface ReferenceServiceOptions {
  readonly token: string;
  /** Default `NowDoing` when `build` is `first-release`, else `Clessira`. */
  readonly headerPrefix?: HeaderPrefix;
  readonly clock?: Clock;
  readonly license?: LicenseState;
  readonly unwired?: Iterable<EndpointPath>;
  readonly newId?: () => string;
  readonly maxNonces?: number;
  /** `full` (default): every field in the envelope; `minimal`: the shapes of the shipping app (PROTOCOL.md §8). */
  readonly answers?: AnswerStyle;
  /** `current` (default): all eight endpoints; `first-release`: the five of SDK 0.1.0, the others `404`. */
  readonly build?: AppBuild;
  /**
   * The strictest reading of the app (`--count-unsigned`): every request without the four signing
   * headers counts as a failed sign-in toward the lockout, also one refused at step 0 (an
   * unsigned OPTIONS, say); the answers stay the same.
   */
  readonly countUnsigned?: boolean;
}

const errorResponse = (status: number, message: string, headers?: Record<string, string>): ServiceResponse => ({
  status,
  body: { error: message },
  ...(headers ? { headers } : {}),
});

export class ReferenceService {
  readonly state: ServiceState;
  /** The app's debug view, which the server adds every answered request to. */
  readonly requests = new DebugView();
  private readonly auth: Authenticator;
  private clock: Clock;
  private readonly unwiredPaths: Set<EndpointPath>;
  private allowedHosts = new Set<string>();
  private licenseState: LicenseState;
  private currentToken: string;
  private answerStyle: AnswerStyle;
  private appBuild: AppBuild;
  private offeredPaths: ReadonlySet<EndpointPath>;

  constructor(options: ReferenceServiceOptions) {
    this.clock = options.clock ?? systemClock;
    const clock = (): number => this.clock();
    this.state = new ServiceState(clock, options.newId ?? randomUUID);
    this.auth = new Authenticator({
      ...options,
      headerPrefix: options.headerPrefix ?? defaultHeaderPrefixFor(options.build ?? 'current'),
      clock,
    });
    this.unwiredPaths = new Set(options.unwired ?? []);
    this.currentToken = options.token;
    this.licenseState = options.license ?? 'valid';
    this.answerStyle = options.answers ?? 'full';
    this.appBuild = options.build ?? 'current';
    this.offeredPaths = new Set(endpointPathsOf(this.appBuild));
  }

  /** The Host values accepted once the port is known (127.0.0.1 and localhost, any case). */
  bindTo(port: number): void {
    this.allowedHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  }

  get license(): LicenseState {
    return this.licenseState;
  }

  /** The token requests must be signed with, which a capability file written now names. */
  get token(): string {
    return this.currentToken;
  }

  /**
   * As when the token is replaced in the app: requests signed with the old one are rejected from
   * the next one on. A capability file already written keeps the old token until the socket is
   * announced again (the integration turned off and on: `close()`, then `listenOnSocket()`).
   */
  setToken(token: string): void {
    if (token === '') throw new Error('The token must not be empty.');
    this.currentToken = token;
    this.auth.setToken(token);
  }

  setLicense(license: LicenseState): void {
    this.licenseState = license;
  }

  setBreak(onBreak: boolean): void {
    this.state.setBreak(onBreak);
  }

  setUnwired(path: EndpointPath, unwired = true): void {
    if (unwired) this.unwiredPaths.add(path);
    else this.unwiredPaths.delete(path);
  }

  /** The clock the service answers by, which `setClock` replaces for every part at once. */
  now(): number {
    return this.clock();
  }

  setClock(clock: Clock): void {
    this.clock = clock;
  }

  /** Adds an activity, in `groupName` when given, unless that group already has one of that name. */
  seedActivity(name: string, groupName: string | null = null): ActivityReference {
    return this.state.seedActivity(name, groupName);
  }

  get answers(): AnswerStyle {
    return this.answerStyle;
  }

  /** Switches between full and minimal answers from the next request on. */
  setAnswers(style: AnswerStyle): void {
    this.answerStyle = style;
  }

  get build(): AppBuild {
    return this.appBuild;
  }

  /** As when the app is updated (or downgraded) in place: the endpoints change, the header prefix does not. */
  setBuild(build: AppBuild): void {
    this.appBuild = build;
    this.offeredPaths = new Set(endpointPathsOf(build));
  }

  /** The app's debug view: the last 25 requests, oldest first. */
  debugView(): readonly RequestRecord[] {
    return this.requests.list();
  }

  /** Failed sign-ins counted toward the lockout since the start (beyond the debug view's 25). */
  get failedSignIns(): number {
    return this.auth.failuresCounted;
  }

  /**
   * Steps 0 and 1, decided from the head alone before any body byte is read. Loopback hardening
   * never counts as a failed authentication, so a web page cannot lock the user out (unless
   * `countUnsigned` asks for the strictest reading). Over the Unix socket the Host header is not
   * looked at: DNS rebinding needs a browser, and no browser can reach a socket; every other
   * refusal still applies there.
   */
  precheck(head: RequestHead, via: Transport = 'tcp'): ServiceResponse | undefined {
    const refusal = this.loopbackRefusal(head, via);
    if (refusal) {
      this.auth.noteRefusedEarly(head.headers);
      return refusal;
    }
    const retryAfter = this.auth.lockoutRetryAfterSeconds();
    if (retryAfter !== undefined) {
      return errorResponse(429, `Too many failed authentications; locked out for ${retryAfter} more s.`, {
        'Retry-After': String(retryAfter),
      });
    }
    return undefined;
  }

  /** Step 0. */
  private loopbackRefusal(head: RequestHead, via: Transport): ServiceResponse | undefined {
    const host = head.headers['host'];
    if (via === 'tcp' && (typeof host !== 'string' || !this.allowedHosts.has(host.toLowerCase()))) {
      return errorResponse(403, 'The Host header must name 127.0.0.1 or localhost with the service port.');
    }
    if (head.headers['origin'] !== undefined) {
      return errorResponse(403, 'Requests from web pages (with an Origin header) are refused.');
    }
    // A page's <img> or <script> pointing here sends no Origin, but a browser adds these.
    const browserHeader = Object.keys(head.headers).find((name) => BROWSER_HEADERS.has(name));
    if (browserHeader !== undefined) {
      return errorResponse(403, `Requests from web pages (with a ${browserHeader} header) are refused.`);
    }
    if (head.method === 'OPTIONS')
      return errorResponse(403, 'OPTIONS requests are refused; this API serves no browsers.');
    return undefined;
  }

  /** Steps 2 to 8, once the body has been read and hashed. */
  handle(head: RequestHead, body: ReceivedBody): ServiceResponse {
    const verdict = this.auth.authenticate({
      method: head.method,
      target: head.target,
      headers: head.headers,
      bodyHashHex: body.hashHex,
    });
    if (!verdict.ok) {
      return errorResponse(
        verdict.status,
        verdict.message,
        verdict.status === 429 ? { 'Retry-After': String(verdict.retryAfterSeconds) } : undefined,
      );
    }
    const queryStart = head.target.indexOf('?');
    const path = queryStart < 0 ? head.target : head.target.slice(0, queryStart);
    const query = queryStart < 0 ? '' : head.target.slice(queryStart + 1);
    if (this.licenseState === 'locked' && !(head.method === 'GET' && path === '/healthcheck')) {
      return errorResponse(423, LICENSE_LOCKED_MESSAGE);
    }
    // A first-release build has no /status, /activities/stop or /entries: unknown paths there.
    if (!isEndpointPath(path) || !this.offeredPaths.has(path))
      return errorResponse(404, `There is no endpoint at ${truncate(path)}.`);
    const route = ROUTES[path];
    if (head.method !== route.method) {
      return errorResponse(405, `${path} takes ${route.method} only.`, { Allow: route.method });
    }
    if (this.unwiredPaths.has(path)) {
      return errorResponse(503, `The application has not wired up ${path}; it is not available right now.`);
    }
    if (body.tooLarge) return errorResponse(413, `The request body is larger than ${MAX_BODY_BYTES} bytes.`);
    try {
      const answers = answerWriter(this.answerStyle);
      const result = route.run({ state: this.state, body: body.bytes, query, license: this.licenseState, answers });
      return { status: result.status, body: result.body, changed: result.changed };
    } catch (error) {
      if (error instanceof RequestRefusal) return errorResponse(error.status, error.message);
      if (error instanceof RuleViolation) return errorResponse(400, error.message);
      throw error;
    }
  }
}

/**
 * Headers only browsers send (PROTOCOL.md §2 step 0), lower-cased as Node delivers them. Not every
 * `Sec-Fetch-*`: Node's built-in `fetch` adds `Sec-Fetch-Mode: cors` to every request, and the
 * app's own JavaScript SDK runs on it. A browser never sends `Sec-Fetch-Mode` or `Sec-Fetch-User`
 * without `Sec-Fetch-Site` and `Sec-Fetch-Dest`, so these two still catch every page's request.
 */
const BROWSER_HEADERS: ReadonlySet<string> = new Set(['sec-fetch-site', 'sec-fetch-dest', 'referer']);

function truncate(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
