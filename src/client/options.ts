/** Client options, resolved once at construction and refused with one clear sentence. */
import { isIPv4 } from 'node:net';
import { isAbsolute } from 'node:path';
import {
  DEFAULT_HOST,
  DEFAULT_PORT,
  MAX_PORT,
  MIN_PORT,
  PORT_ENVIRONMENT_VARIABLES,
  TOKEN_ENVIRONMENT_VARIABLES,
} from '../protocol/constants';
import { firstSetVariable, type Environment } from '../protocol/environment';
import { DEFAULT_HEADER_PREFIX, HEADER_PREFIXES, isHeaderPrefix, type HeaderPrefix } from '../protocol/headers';
import { socketPathTooLong } from '../platform/socketPath';
import { ConfigurationError } from './errors';

export interface RequestRecord {
  readonly method: string;
  /** Without the query string. */
  readonly path: string;
  /** Undefined when no answer came (see `error`). */
  readonly status: number | undefined;
  readonly durationMs: number;
  /** True for the one safe re-send of PROTOCOL.md §7. */
  readonly retry: boolean;
  readonly error?: Error;
}

/** A prefix, or `auto`: learn which one the app takes from its answers (see `headerPrefix`). */
export type HeaderPrefixOption = HeaderPrefix | 'auto';

export interface ServiceClientOptions {
  /** The application's token; default the first set of CLESSIRA_TOKEN, NOWDOING_TOKEN, SERVICE_TOKEN. */
  readonly token?: string | undefined;
  /** Default the first set of CLESSIRA_PORT, NOWDOING_PORT, SERVICE_PORT, else 39847. Not with `socketPath`. */
  readonly port?: number | undefined;
  /** A loopback address: 127.0.0.1 (default), localhost or ::1. Not with `socketPath`. */
  readonly host?: string | undefined;
  /**
   * The absolute path of the app's Unix socket (its VS Code integration, PROTOCOL.md §8): requests
   * go there instead of to a TCP port, signed the same way, with `Host: localhost`.
   */
  readonly socketPath?: string | undefined;
  /**
   * The most a call may take, in ms, from its start to the last byte of the answer, its one
   * identical re-send included; default 5000. A call that runs out is a ConnectionError.
   */
  readonly timeoutMs?: number | undefined;
  /**
   * `Clessira` (default), `NowDoing` for application builds from before the rebrand, or `auto`:
   * the prefix learned before (`learnedHeaderPrefix`), else `Clessira`; a 401 tries the other
   * prefix once, and only an answer that passed authentication teaches which one the app takes
   * (at most one extra failed sign-in per ask, never a loop). A configured prefix is never probed.
   */
  readonly headerPrefix?: HeaderPrefixOption | undefined;
  /**
   * With `headerPrefix: 'auto'`: the prefix other clients learned for this app and token (another
   * window, an earlier run), read before each ask; undefined when none. Tried first, so a new
   * client for a known app signs in without a refused request.
   */
  readonly learnedHeaderPrefix?: (() => HeaderPrefix | undefined) | undefined;
  /**
   * With `headerPrefix: 'auto'`: called when an answer that passed authentication shows which
   * prefix the app takes and it differs from what this client knew (learned before or told
   * before): once, unless the app changes builds. Keep it for `learnedHeaderPrefix`.
   */
  readonly onHeaderPrefix?: ((prefix: HeaderPrefix) => void) | undefined;
  /** At most this many connections to the service; default 4. */
  readonly connections?: number | undefined;
  /** Milliseconds since the epoch; injected by tests to exercise the time window. */
  readonly clock?: (() => number) | undefined;
  /** Called once per request sent, e.g. to log method, path, status and time; never sees the token. */
  readonly onRequest?: ((record: RequestRecord) => void) | undefined;
}

/** Where requests go: a loopback TCP port, or the app's Unix socket. */
export type Endpoint =
  | { readonly kind: 'tcp'; readonly host: string; readonly port: number }
  | { readonly kind: 'socket'; readonly socketPath: string };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

/**
 * Visible ASCII (0x21 to 0x7E): what a header carries as it is. A line break would end the header
 * (Node's http refuses to send it), a space at either end is trimmed
 * by the service, and any other byte either fails or is signed differently from what arrives.
 */
const TOKEN_CHARACTERS = /^[\x21-\x7e]+$/;

/** The options a client works with, every default applied; a ConfigurationError says what is wrong. */
export function resolveOptions(options: ServiceClientOptions, env: Environment = process.env) {
  const fromEnvironment = options.token === undefined ? firstSetVariable(env, TOKEN_ENVIRONMENT_VARIABLES) : undefined;
  const token = options.token ?? fromEnvironment?.value;
  if (token === undefined || token.length === 0) {
    throw new ConfigurationError(
      `No token: pass the token option or set ${TOKEN_ENVIRONMENT_VARIABLES.slice(0, -1).join(', ')} ` +
        `or ${TOKEN_ENVIRONMENT_VARIABLES.at(-1) ?? ''} to the token shown in the application settings.`,
    );
  }
  // Never quote the token: this sentence is logged and shown.
  if (typeof token !== 'string' || !TOKEN_CHARACTERS.test(token)) {
    const which = fromEnvironment === undefined ? 'The token' : `The token in ${fromEnvironment.name}`;
    throw new ConfigurationError(
      `${which} may hold only visible ASCII characters (letters, digits, punctuation), but it has a space, ` +
        'a line break or another character that a header cannot carry: ' +
        'copy it again from the application settings.',
    );
  }

  const timeoutMs = options.timeoutMs ?? 5000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new ConfigurationError(`timeoutMs must be a positive number of milliseconds, not ${String(timeoutMs)}.`);
  }

  const headerPrefix = options.headerPrefix ?? DEFAULT_HEADER_PREFIX;
  if (headerPrefix !== 'auto' && !isHeaderPrefix(headerPrefix)) {
    throw new ConfigurationError(
      `headerPrefix must be ${HEADER_PREFIXES.join(', ')} or auto, not "${String(headerPrefix)}".`,
    );
  }
  // Scripts call dist/client.js from plain JavaScript, where the type is only a hope.
  const learned: unknown = options.learnedHeaderPrefix;
  if (learned !== undefined && typeof learned !== 'function') {
    throw new ConfigurationError(
      `learnedHeaderPrefix must be a function that returns ${HEADER_PREFIXES.join(' or ')} (or undefined), not ${typeof learned}.`,
    );
  }

  const connections = options.connections ?? 4;
  if (!Number.isInteger(connections) || connections < 1 || connections > 64) {
    throw new ConfigurationError(`connections must be a whole number from 1 to 64, not ${String(connections)}.`);
  }

  return {
    token,
    endpoint:
      options.socketPath === undefined ? tcpEndpoint(options, env) : socketEndpoint(options.socketPath, options),
    timeoutMs,
    headerPrefix,
    learnedHeaderPrefix: options.learnedHeaderPrefix,
    onHeaderPrefix: options.onHeaderPrefix,
    connections,
    clock: options.clock ?? Date.now,
    onRequest: options.onRequest,
  };
}

function tcpEndpoint(options: ServiceClientOptions, env: Environment): Endpoint {
  let port = options.port;
  if (port === undefined) {
    const fromEnv = firstSetVariable(env, PORT_ENVIRONMENT_VARIABLES);
    if (fromEnv !== undefined) {
      port = Number(fromEnv.value);
      if (!/^[0-9]{1,5}$/.test(fromEnv.value) || !isPort(port)) {
        throw new ConfigurationError(
          `${fromEnv.name} must be a whole number from ${MIN_PORT} to ${MAX_PORT}, not "${fromEnv.value}".`,
        );
      }
    }
  }
  port ??= DEFAULT_PORT;
  if (!isPort(port)) {
    throw new ConfigurationError(
      `The port must be a whole number from ${MIN_PORT} to ${MAX_PORT}, not ${String(port)}.`,
    );
  }

  const host = options.host ?? DEFAULT_HOST;
  // isIPv4 takes only four decimal octets from 0 to 255, without leading zeros.
  if (!LOOPBACK_HOSTS.has(host) && !(isIPv4(host) && host.startsWith('127.'))) {
    throw new ConfigurationError(
      `The host must be a loopback address (127.0.0.1, localhost or ::1), not "${host}": ` +
        'the service only listens there, and the token must not leave this computer.',
    );
  }
  return { kind: 'tcp', host: host === '::1' ? '[::1]' : host, port };
}

/** The port variables are not read here: a socket has no port, and a stale variable must not stop it. */
function socketEndpoint(socketPath: unknown, options: ServiceClientOptions): Endpoint {
  if (options.port !== undefined || options.host !== undefined) {
    throw new ConfigurationError(
      'Pass either socketPath or port and host, not both: a client talks to the app through its socket or through its TCP port.',
    );
  }
  // Scripts call dist/client.js from plain JavaScript, where the type is only a hope.
  if (typeof socketPath !== 'string' || socketPath === '' || !isAbsolute(socketPath)) {
    throw new ConfigurationError(
      `socketPath must be a non-empty absolute path, not ${typeof socketPath === 'string' ? `"${socketPath}"` : String(socketPath)}.`,
    );
  }
  const tooLong = socketPathTooLong(socketPath);
  if (tooLong !== undefined) throw new ConfigurationError(tooLong);
  return { kind: 'socket', socketPath };
}

function isPort(port: number): boolean {
  return Number.isInteger(port) && port >= MIN_PORT && port <= MAX_PORT;
}
