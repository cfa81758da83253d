/** Command-line arguments of the reference server, checked up front with one clear sentence each. */
import { parseArgs } from 'node:util';
import { DEFAULT_PORT, MAX_PORT, MIN_PORT, NAME_MAX_LENGTH } from '../protocol/constants';
import { defaultHeaderPrefixFor, HEADER_PREFIXES, isHeaderPrefix, type HeaderPrefix } from '../protocol/headers';
import {
  APP_BUILDS,
  endpointPathsOf,
  ENDPOINT_PATHS,
  isAppBuild,
  isEndpointPath,
  type AppBuild,
  type EndpointPath,
  type LicenseState,
} from '../protocol/types';
import { ANSWER_STYLES, isAnswerStyle, type AnswerStyle } from './answerStyles';
import type { SeedActivity } from './state';
import { errnoCode, errorMessage } from '../platform/errors';

/** The longest --started-ago: a week, well past any threshold a client warns at. */
export const MAX_STARTED_AGO_HOURS = 168;

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
  --answers full|minimal   full: every field in {"ok":true,"result":…} (default); minimal: the shipping
                           app's shapes: {"ok":true} for healthcheck, stop and branch-changed, search
                           {"items":[…]} alone, start and entries flat, every id upper-case
  --build current|first-release
                           the app's endpoints: all eight (default), or the first release's five
                           (/status, /activities/stop and /entries answer 404), with X-NowDoing-* headers
  --header-prefix P        ${HEADER_PREFIXES.join(' or ')}: X-<P>-Token and so on (default ${defaultHeaderPrefixFor('current')},
                           ${defaultHeaderPrefixFor('first-release')} with --build first-release)
  --data FILE              keep activities, sessions and entries in FILE across restarts, each
                           change written before it is answered; FILE.lock keeps a second server off
  --count-unsigned         the strictest reading of the app: every request without the four signing
                           headers counts as a failed sign-in toward the lockout (11 in 30 s lock
                           every client out for 60 s), also the 403s for OPTIONS, Origin and the like
  --seed [GROUP/]NAME      create an activity at start unless its group has one of that name (repeatable);
                           text before the first / is the group: --seed "Work/Deep work";
                           a leading / means no group, for a name with a slash: --seed "/CI/CD"
  --demo                   start with demo data: two groups, five activities, "Write docs" running
                           for 25 minutes, time logged today (with --data, only while FILE does not exist)
  --started-ago D          with --demo: "Write docs" runs for D instead; with --seed: the first seeded
                           activity runs, started D ago (e.g. 9h, 90m, 1h30m; at most ${MAX_STARTED_AGO_HOURS}h)
  --help                   print this text`;

export interface CliConfig {
  /** Undefined when --socket is given without --port: only the socket listens. */
  readonly port: number | undefined;
  /** Undefined when neither --token nor SERVICE_TOKEN gave one: the CLI generates it. */
  readonly token: string | undefined;
  readonly license: LicenseState;
  readonly unwired: readonly EndpointPath[];
  readonly answers: AnswerStyle;
  readonly build: AppBuild;
  /** The flag's value, else the build's default. */
  readonly headerPrefix: HeaderPrefix;
  readonly dataPath: string | undefined;
  readonly seed: readonly SeedActivity[];
  /** Start from the demo state (src/server/demo.ts) instead of an empty one. */
  readonly demo: boolean;
  /** `--started-ago`: how long ago the demo's, or else the first seed's, session started. */
  readonly startedAgoMs: number | undefined;
  readonly socketPath: string | undefined;
  /** Only with `socketPath`. */
  readonly capabilityFile: string | undefined;
  readonly countUnsigned: boolean;
}

export type CliParse = { kind: 'run'; config: CliConfig } | { kind: 'help' } | { kind: 'error'; message: string };

const OPTIONS = {
  port: { type: 'string' },
  token: { type: 'string' },
  license: { type: 'string' },
  unwired: { type: 'string', multiple: true },
  answers: { type: 'string' },
  build: { type: 'string' },
  'header-prefix': { type: 'string' },
  data: { type: 'string' },
  seed: { type: 'string', multiple: true },
  socket: { type: 'string' },
  'capability-file': { type: 'string' },
  demo: { type: 'boolean' },
  'started-ago': { type: 'string' },
  'count-unsigned': { type: 'boolean' },
  help: { type: 'boolean' },
} as const;

/** The options as given; throws node's own error for an unknown option, a missing value or a positional. */
function readValues(argv: readonly string[]) {
  return parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: OPTIONS }).values;
}

type CliValues = ReturnType<typeof readValues>;
type Environment = Readonly<Record<string, string | undefined>>;

/** The sentence a reader returns in place of its value when the arguments cannot run. */
class Refusal {
  constructor(readonly message: string) {}
}

export function parseCli(argv: readonly string[], env: Environment): CliParse {
  let values: CliValues;
  try {
    values = readValues(argv);
  } catch (error) {
    return { kind: 'error', message: describeArgumentError(error) };
  }
  if (values.help) return { kind: 'help' };
  const config = readConfig(values, env);
  return config instanceof Refusal ? { kind: 'error', message: config.message } : { kind: 'run', config };
}

/** Every group in the order the checks run, so the first refusal named is the same for every input. */
function readConfig(values: CliValues, env: Environment): CliConfig | Refusal {
  const listening = readListening(values, env);
  if (listening instanceof Refusal) return listening;
  const token = readToken(values, env);
  if (token instanceof Refusal) return token;
  const app = readAppShape(values);
  if (app instanceof Refusal) return app;
  const seed = readSeeds(values.seed ?? []);
  if (seed instanceof Refusal) return seed;
  const demo = values.demo ?? false;
  const startedAgoMs = readStartedAgo(values['started-ago'], demo || seed.length > 0);
  if (startedAgoMs instanceof Refusal) return startedAgoMs;
  return {
    ...listening,
    token,
    ...app,
    dataPath: values.data,
    seed,
    demo,
    startedAgoMs,
    countUnsigned: values['count-unsigned'] ?? false,
  };
}

type Listening = Pick<CliConfig, 'port' | 'socketPath' | 'capabilityFile'>;

/** Where the server listens: the socket and its capability file, then the TCP port. */
function readListening(values: CliValues, env: Environment): Listening | Refusal {
  const socketPath = values.socket;
  if (socketPath === '') return new Refusal('--socket needs a non-empty path.');
  const capabilityFile = values['capability-file'];
  if (capabilityFile === '') return new Refusal('--capability-file needs a non-empty path.');
  if (capabilityFile !== undefined && socketPath === undefined) {
    return new Refusal('--capability-file needs --socket: the file announces the socket.');
  }
  // With --socket, TCP is opened only on request: an inherited SERVICE_PORT opens no second door.
  const port = socketPath === undefined || values.port !== undefined ? readPort(values.port, env) : undefined;
  if (port instanceof Refusal) return port;
  return { port, socketPath, capabilityFile };
}

function readPort(flag: string | undefined, env: Environment): number | Refusal {
  const portText = flag ?? env['SERVICE_PORT'] ?? String(DEFAULT_PORT);
  const port = /^[0-9]{1,5}$/.test(portText) ? Number(portText) : NaN;
  if (port >= MIN_PORT && port <= MAX_PORT) return port;
  const source = flag === undefined ? 'SERVICE_PORT' : '--port';
  return new Refusal(`${source} must be a whole number from ${MIN_PORT} to ${MAX_PORT}, not "${portText}".`);
}

function readToken(values: CliValues, env: Environment): string | undefined | Refusal {
  const token = values.token ?? env['SERVICE_TOKEN'];
  if (token !== undefined && token.length === 0) {
    return new Refusal(`${values.token === undefined ? 'SERVICE_TOKEN' : '--token'} must not be empty.`);
  }
  return token;
}

type AppShape = Pick<CliConfig, 'license' | 'answers' | 'build' | 'unwired' | 'headerPrefix'>;

/** How the server plays the app: license, answer style, build, its unwired endpoints, header prefix. */
function readAppShape(values: CliValues): AppShape | Refusal {
  const license = values.license ?? 'valid';
  if (license !== 'valid' && license !== 'locked')
    return new Refusal(`--license must be "valid" or "locked", not "${license}".`);
  const answers = values.answers ?? 'full';
  if (!isAnswerStyle(answers)) {
    return new Refusal(
      `--answers must be ${ANSWER_STYLES.map((style) => `"${style}"`).join(' or ')}, not "${answers}".`,
    );
  }
  const build = values.build ?? 'current';
  if (!isAppBuild(build))
    return new Refusal(`--build must be ${APP_BUILDS.map((name) => `"${name}"`).join(' or ')}, not "${build}".`);
  const unwired = readUnwired(values.unwired ?? [], build);
  if (unwired instanceof Refusal) return unwired;
  const headerPrefix = values['header-prefix'] ?? defaultHeaderPrefixFor(build);
  if (!isHeaderPrefix(headerPrefix))
    return new Refusal(`--header-prefix must be ${HEADER_PREFIXES.join(' or ')}, not "${headerPrefix}".`);
  return { license, answers, build, unwired, headerPrefix };
}

/** Each `--unwired` path must be an endpoint, and one that `build` has. */
function readUnwired(paths: readonly string[], build: AppBuild): EndpointPath[] | Refusal {
  const unwired: EndpointPath[] = [];
  for (const path of paths) {
    if (!isEndpointPath(path))
      return new Refusal(`--unwired takes one of ${ENDPOINT_PATHS.join(', ')}, not "${path}".`);
    if (!endpointPathsOf(build).includes(path)) {
      return new Refusal(
        `--unwired ${path} names an endpoint the ${build} build does not have (it answers 404 there).`,
      );
    }
    unwired.push(path);
  }
  return unwired;
}

function readSeeds(texts: readonly string[]): SeedActivity[] | Refusal {
  const seed: SeedActivity[] = [];
  for (const text of texts) {
    const parsed = parseSeed(text);
    if (typeof parsed === 'string') return new Refusal(parsed);
    seed.push(parsed);
  }
  return seed;
}

/**
 * `[GROUP/]NAME`: the text before the first `/` is the group, the rest the name, each trimmed;
 * with nothing before the slash there is no group, so `/CI/CD` seeds "CI/CD" alone. Returns the
 * sentence for a bad value.
 */
function parseSeed(text: string): SeedActivity | string {
  const trimmed = text.trim();
  const slash = trimmed.indexOf('/');
  const name = (slash < 0 ? trimmed : trimmed.slice(slash + 1)).trim();
  const groupName = slash < 0 ? null : trimmed.slice(0, slash).trim() || null;
  if (name.length === 0) return `--seed needs a non-empty activity name, not "${text}".`;
  for (const [what, value] of [
    ['activity name', name],
    ['group name', groupName ?? ''],
  ] as const) {
    if (Array.from(value).length > NAME_MAX_LENGTH)
      return `--seed: the ${what} must be at most ${NAME_MAX_LENGTH} characters.`;
  }
  return { name, groupName };
}

/** `9h`, `90m`, `1h30m`: how long ago the running session started; it needs an activity to run (`starts`). */
function readStartedAgo(text: string | undefined, starts: boolean): number | undefined | Refusal {
  if (text === undefined) return undefined;
  const match = /^(?:(\d{1,4})h)?(?:(\d{1,6})m)?$/.exec(text.trim());
  const minutes = match ? Number(match[1] ?? 0) * 60 + Number(match[2] ?? 0) : 0;
  if (!(minutes > 0) || minutes > MAX_STARTED_AGO_HOURS * 60) {
    return new Refusal(
      `--started-ago takes a duration such as 9h, 90m or 1h30m, from 1m to ${MAX_STARTED_AGO_HOURS}h, not "${text}".`,
    );
  }
  if (!starts) return new Refusal('--started-ago needs --demo or --seed: it says when their activity started.');
  return minutes * 60_000;
}

function describeArgumentError(error: unknown): string {
  const code = errnoCode(error);
  const message = errorMessage(error);
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
