/** Command-line arguments of the reference server, checked up front with one clear sentence each. */
import { parseArgs } from 'node:util';
import { DEFAULT_PORT, MAX_PORT, MIN_PORT } from '../protocol/constants';
import { DEFAULT_HEADER_PREFIX, HEADER_PREFIXES, isHeaderPrefix, type HeaderPrefix } from '../protocol/headers';
import { ENDPOINT_PATHS, isEndpointPath, type EndpointPath, type LicenseState } from '../protocol/types';

export const USAGE = `Usage: node dist/server.js [options]

  --port N                 port on 127.0.0.1 (${MIN_PORT}-${MAX_PORT}); default SERVICE_PORT, else ${DEFAULT_PORT};
                           with --socket, TCP opens only when --port is given (SERVICE_PORT is ignored)
  --socket PATH            listen on a Unix socket (mode 0600), as the app's VS Code integration does;
                           a socket file a killed server left behind is replaced
  --capability-file PATH   with --socket: write {version, socketPath, token, pid} there (mode 0600),
                           and remove it on exit unless another server has replaced it
  --token T                the shared secret; default SERVICE_TOKEN, else a new one printed once
  --license valid|locked   start with the license valid (default) or locked
  --unwired PATH           answer 503 on this endpoint (repeatable), e.g. --unwired /branch-changed
  --header-prefix P        ${HEADER_PREFIXES.join(' or ')} (default ${DEFAULT_HEADER_PREFIX}): X-<P>-Token and so on
  --data FILE              keep activities, sessions and entries in FILE across restarts
  --seed NAME              create an activity at start unless it exists (repeatable)
  --help                   print this text`;

export interface CliConfig {
  /** Undefined when --socket is given without --port: only the socket listens. */
  readonly port: number | undefined;
  /** Undefined when neither --token nor SERVICE_TOKEN gave one: the CLI generates it. */
  readonly token: string | undefined;
  readonly license: LicenseState;
  readonly unwired: readonly EndpointPath[];
  readonly headerPrefix: HeaderPrefix;
  readonly dataPath: string | undefined;
  readonly seed: readonly string[];
  readonly socketPath: string | undefined;
  /** Only with `socketPath`. */
  readonly capabilityFile: string | undefined;
}

export type CliParse = { kind: 'run'; config: CliConfig } | { kind: 'help' } | { kind: 'error'; message: string };

export function parseCli(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): CliParse {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        token: { type: 'string' },
        license: { type: 'string' },
        unwired: { type: 'string', multiple: true },
        'header-prefix': { type: 'string' },
        data: { type: 'string' },
        seed: { type: 'string', multiple: true },
        socket: { type: 'string' },
        'capability-file': { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    return { kind: 'error', message: describeArgumentError(error) };
  }
  if (values.help) return { kind: 'help' };

  const socketPath = values.socket;
  if (socketPath === '') return { kind: 'error', message: '--socket needs a non-empty path.' };
  const capabilityFile = values['capability-file'];
  if (capabilityFile === '') return { kind: 'error', message: '--capability-file needs a non-empty path.' };
  if (capabilityFile !== undefined && socketPath === undefined) {
    return { kind: 'error', message: '--capability-file needs --socket: the file announces the socket.' };
  }

  // With --socket, TCP is opened only on request: an inherited SERVICE_PORT opens no second door.
  let port: number | undefined;
  if (socketPath === undefined || values.port !== undefined) {
    const portText = values.port ?? env['SERVICE_PORT'] ?? String(DEFAULT_PORT);
    port = /^[0-9]{1,5}$/.test(portText) ? Number(portText) : NaN;
    if (!(port >= MIN_PORT && port <= MAX_PORT)) {
      const source = values.port === undefined ? 'SERVICE_PORT' : '--port';
      return { kind: 'error', message: `${source} must be a whole number from ${MIN_PORT} to ${MAX_PORT}, not "${portText}".` };
    }
  }

  const token = values.token ?? env['SERVICE_TOKEN'];
  if (token !== undefined && token.length === 0) {
    return { kind: 'error', message: `${values.token === undefined ? 'SERVICE_TOKEN' : '--token'} must not be empty.` };
  }

  const license = values.license ?? 'valid';
  if (license !== 'valid' && license !== 'locked') {
    return { kind: 'error', message: `--license must be "valid" or "locked", not "${license}".` };
  }

  const unwired: EndpointPath[] = [];
  for (const path of values.unwired ?? []) {
    if (!isEndpointPath(path)) {
      return { kind: 'error', message: `--unwired takes one of ${ENDPOINT_PATHS.join(', ')}, not "${path}".` };
    }
    unwired.push(path);
  }

  const headerPrefix = values['header-prefix'] ?? DEFAULT_HEADER_PREFIX;
  if (!isHeaderPrefix(headerPrefix)) {
    return { kind: 'error', message: `--header-prefix must be ${HEADER_PREFIXES.join(' or ')}, not "${headerPrefix}".` };
  }

  const seed = values.seed ?? [];
  if (seed.some((name) => name.trim().length === 0)) return { kind: 'error', message: '--seed needs a non-empty activity name.' };

  return {
    kind: 'run',
    config: { port, token, license, unwired, headerPrefix, dataPath: values.data, seed, socketPath, capabilityFile },
  };
}

function describeArgumentError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const message = error instanceof Error ? error.message : String(error);
  // Node quotes the flag as '--port <value>' when its value is missing: the flag alone is named.
  const flag = /'(-[^' ]*)[^']*'/.exec(message)?.[1];
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `Unknown option ${flag ?? ''}; run with --help to see the options.`.replace('option ;', 'option;');
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return `${flag ?? 'An option'} needs a value; run with --help to see the options.`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `Unexpected argument ${flag ?? ''}; every option starts with --.`.replace(' ;', ';');
    default:
      return message;
  }
}
