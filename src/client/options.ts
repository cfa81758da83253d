/** Client options, resolved once at construction and refused with one clear sentence. */
import { DEFAULT_HOST, DEFAULT_PORT, MAX_PORT, MIN_PORT } from '../protocol/constants';
import { DEFAULT_HEADER_PREFIX, HEADER_PREFIXES, isHeaderPrefix, type HeaderPrefix } from '../protocol/headers';
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

export interface ServiceClientOptions {
  /** The application's token; default the SERVICE_TOKEN environment variable. */
  readonly token?: string | undefined;
  /** Default the SERVICE_PORT environment variable, else 39847. */
  readonly port?: number | undefined;
  /** A loopback address: 127.0.0.1 (default), localhost or ::1. */
  readonly host?: string | undefined;
  /** Connect, answer-headers and body time-outs, each; default 5000. */
  readonly timeoutMs?: number | undefined;
  /** `Clessira` (default), or `NowDoing` for application builds from before the rebrand. */
  readonly headerPrefix?: HeaderPrefix | undefined;
  /** At most this many connections to the service; default 4. */
  readonly connections?: number | undefined;
  /** Milliseconds since the epoch; injected by tests to exercise the time window. */
  readonly clock?: (() => number) | undefined;
  /** Called once per request sent, e.g. to log method, path, status and time; never sees the token. */
  readonly onRequest?: ((record: RequestRecord) => void) | undefined;
}

export interface ResolvedOptions {
  readonly token: string;
  readonly port: number;
  readonly host: string;
  readonly timeoutMs: number;
  readonly headerPrefix: HeaderPrefix;
  readonly connections: number;
  readonly clock: () => number;
  readonly onRequest: ((record: RequestRecord) => void) | undefined;
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function resolveOptions(
  options: ServiceClientOptions,
  env: Readonly<Record<string, string | undefined>> = process.env,
): ResolvedOptions {
  const token = options.token ?? env['SERVICE_TOKEN'];
  if (token === undefined || token.length === 0) {
    throw new ConfigurationError('No token: pass the token option or set SERVICE_TOKEN to the token shown in the application settings.');
  }

  let port = options.port;
  if (port === undefined) {
    const fromEnv = env['SERVICE_PORT'];
    if (fromEnv !== undefined && fromEnv !== '') {
      if (!/^[0-9]{1,5}$/.test(fromEnv)) {
        throw new ConfigurationError(`SERVICE_PORT must be a whole number from ${MIN_PORT} to ${MAX_PORT}, not "${fromEnv}".`);
      }
      port = Number(fromEnv);
    }
  }
  port ??= DEFAULT_PORT;
  if (!Number.isInteger(port) || port < MIN_PORT || port > MAX_PORT) {
    throw new ConfigurationError(`The port must be a whole number from ${MIN_PORT} to ${MAX_PORT}, not ${String(port)}.`);
  }

  const host = options.host ?? DEFAULT_HOST;
  if (!LOOPBACK_HOSTS.has(host) && !/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) {
    throw new ConfigurationError(`The host must be a loopback address (127.0.0.1, localhost or ::1), not "${host}": the service only listens there, and the token must not leave this computer.`);
  }

  const timeoutMs = options.timeoutMs ?? 5000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new ConfigurationError(`timeoutMs must be a positive number of milliseconds, not ${String(timeoutMs)}.`);
  }

  const headerPrefix = options.headerPrefix ?? DEFAULT_HEADER_PREFIX;
  if (!isHeaderPrefix(headerPrefix)) {
    throw new ConfigurationError(`headerPrefix must be ${HEADER_PREFIXES.join(' or ')}, not "${String(headerPrefix)}".`);
  }

  const connections = options.connections ?? 4;
  if (!Number.isInteger(connections) || connections < 1 || connections > 64) {
    throw new ConfigurationError(`connections must be a whole number from 1 to 64, not ${String(connections)}.`);
  }

  return {
    token,
    port,
    host: host === '::1' ? '[::1]' : host,
    timeoutMs,
    headerPrefix,
    connections,
    clock: options.clock ?? Date.now,
    onRequest: options.onRequest,
  };
}
