/** Numbers fixed by service-api.txt and PROTOCOL.md; every other module reads them from here. */

export const DEFAULT_PORT = 39847;
export const MIN_PORT = 1024;
export const MAX_PORT = 65535;
export const DEFAULT_HOST = '127.0.0.1';

/**
 * Where the token and the port may come from, first set wins (PROTOCOL.md §8): the application's
 * SDKs read CLESSIRA_*, its first release read NOWDOING_*, the service document names SERVICE_*.
 */
export const TOKEN_ENVIRONMENT_VARIABLES = ['CLESSIRA_TOKEN', 'NOWDOING_TOKEN', 'SERVICE_TOKEN'] as const;
export const PORT_ENVIRONMENT_VARIABLES = ['CLESSIRA_PORT', 'NOWDOING_PORT', 'SERVICE_PORT'] as const;

/** A request whose timestamp is further than this from the server clock is a 401. */
export const CLOCK_DRIFT_SECONDS = 60;
/** A nonce accepted within this window is refused again with 409. */
export const NONCE_WINDOW_SECONDS = 180;
/** Failed authentications are counted over this sliding window... */
export const FAILURE_WINDOW_SECONDS = 30;
/** ...and more than this many inside it start a lockout. */
export const MAX_FAILURES_IN_WINDOW = 10;
export const LOCKOUT_SECONDS = 60;
/**
 * The longest `Retry-After` the client believes (PROTOCOL.md §7): longer than a lockout and the
 * nonce window, so a true one is kept, and short enough that a wrong one costs minutes, not days.
 */
export const MAX_RETRY_AFTER_SECONDS = 300;

export const DEBUG_VIEW_SIZE = 25;

export const MAX_BODY_BYTES = 64 * 1024;
export const MAX_HEADER_BYTES = 8 * 1024;
export const MAX_CONNECTIONS = 64;
export const MAX_NONCES = 100_000;

export const NONCE_MIN_LENGTH = 16;
export const NONCE_MAX_LENGTH = 128;
export const NONCE_BYTES = 16;

export const NAME_MAX_LENGTH = 200;
export const NOTE_MAX_LENGTH = 2000;
export const MIN_DURATION_MINUTES = 1;
export const MAX_DURATION_MINUTES = 1440;
export const BRANCH_MAX_LENGTH = 255;
export const REPO_MAX_LENGTH = 1024;
/** `repoPath` of a branch report: an absolute path, as long as the app accepts (PROTOCOL.md §4). */
export const REPO_PATH_MAX_LENGTH = 4096;
export const SEARCH_QUERY_MAX_LENGTH = 200;
export const SEARCH_DEFAULT_LIMIT = 20;
export const SEARCH_MAX_LIMIT = 100;

/** Node server timeouts of the reference server (PROTOCOL.md §5). */
export const SERVER_TIMEOUTS = {
  headersMs: 5_000,
  requestMs: 10_000,
  keepAliveMs: 5_000,
  connectionsCheckingIntervalMs: 1_000,
} as const;

export const LICENSE_LOCKED_MESSAGE = 'license locked';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
