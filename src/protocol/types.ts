/** Wire shapes of every payload of PROTOCOL.md §3 and §4, as the reference server writes them. */

export interface ActivityReference {
  activityID: string;
  activityName: string;
}

/** The application SDKs' shape of a search hit; the envelope carries it beside `result`. */
export interface ActivityItem {
  id: string;
  name: string;
  /** The activity's group, `null` for none; users tell same-named activities apart by it. */
  groupName: string | null;
}

export type LicenseState = 'valid' | 'locked';

export interface HealthcheckResult {
  status: 'ok';
  license: LicenseState;
  version: '1';
}

/**
 * GET /current names the activity and when it started, nothing more: the elapsed time is the
 * client's to compute from `startedAt` and the answer's `Date` header (PROTOCOL.md §4, §8).
 */
export interface CurrentActivity extends ActivityReference {
  /** ISO-8601 UTC in whole seconds, `2026-05-26T14:30:00Z` (see `formatInstant`). */
  startedAt: string;
  isOnBreak: boolean;
}

/** GET /current: null when nothing runs. */
export type CurrentResult = CurrentActivity | null;

export interface StatusResult {
  isTracking: boolean;
  isOnBreak: boolean;
  currentActivity: ActivityReference | null;
  todaySeconds: number;
}

export interface SearchQuery {
  q: string;
  /** 1 to 100, default 20. */
  limit?: number;
}

/** Start and log name an activity by id or by name; the id wins when both are given. */
export interface ActivitySelector {
  activityID?: string;
  name?: string;
  createIfMissing?: boolean;
}

export interface StartResult extends ActivityReference {
  created: boolean;
  /** ISO-8601 UTC in whole seconds, as in `CurrentActivity`. */
  startedAt: string;
  stopped: ActivityReference | null;
}

export interface StopResult {
  stopped: ActivityReference | null;
  durationSeconds: number | null;
}

export interface EntryRequest extends ActivitySelector {
  /** A whole number from 1 to 1440. */
  durationMinutes: number;
  note?: string;
}

export interface EntryResult extends ActivityReference {
  entryID: string;
  created: boolean;
  durationMinutes: number;
  note: string | null;
}

export interface BranchChangeRequest {
  branch: string;
  repo?: string;
  previousBranch?: string;
  /** The absolute path of the repository's root, as the app's own extension sends it; at most 4,096 characters. */
  repoPath?: string;
}

// ---- the application as it ships (PROTOCOL.md §8) ------------------------------------------------

/** `{"ok": true}` alone: what healthcheck, stop and branch-changed may answer. */
export interface OkOnlyAnswer {
  ok: true;
}

/** A search answer with no `ok` and no `result`. */
export interface ItemsOnlyAnswer {
  items: ActivityItem[];
}

/** POST /activities/start answered with these three fields as the whole body, no envelope. */
export type MinimalStartAnswer = Pick<StartResult, 'activityID' | 'activityName' | 'created'>;

/** POST /entries answered with these five fields as the whole body, no envelope. */
export type MinimalEntryAnswer = Pick<
  EntryResult,
  'entryID' | 'activityID' | 'activityName' | 'durationMinutes' | 'created'
>;

/** The eight endpoints, each with its method and path. */
export const ENDPOINTS = {
  healthcheck: { method: 'GET', path: '/healthcheck' },
  current: { method: 'GET', path: '/current' },
  status: { method: 'GET', path: '/status' },
  search: { method: 'GET', path: '/activities/search' },
  start: { method: 'POST', path: '/activities/start' },
  stop: { method: 'POST', path: '/activities/stop' },
  entries: { method: 'POST', path: '/entries' },
  branchChanged: { method: 'POST', path: '/branch-changed' },
} as const;

export type EndpointPath = (typeof ENDPOINTS)[keyof typeof ENDPOINTS]['path'];

export const ENDPOINT_PATHS: readonly EndpointPath[] = Object.values(ENDPOINTS).map((endpoint) => endpoint.path);

export function isEndpointPath(value: string): value is EndpointPath {
  return (ENDPOINT_PATHS as readonly string[]).includes(value);
}

/**
 * The application's builds, by the endpoints they offer: the current one all eight; the first
 * release (SDK 0.1.0, `X-NowDoing-*` headers) five, where `/status`, `/activities/stop` and
 * `/entries` are unknown paths (`404`).
 */
export const APP_BUILDS = ['current', 'first-release'] as const;
export type AppBuild = (typeof APP_BUILDS)[number];

const FIRST_RELEASE_ENDPOINT_PATHS: readonly EndpointPath[] = [
  ENDPOINTS.healthcheck.path,
  ENDPOINTS.current.path,
  ENDPOINTS.search.path,
  ENDPOINTS.start.path,
  ENDPOINTS.branchChanged.path,
];

export function isAppBuild(value: string): value is AppBuild {
  return (APP_BUILDS as readonly string[]).includes(value);
}

/** The paths a build of the application answers; every other path is a `404` there. */
export function endpointPathsOf(build: AppBuild): readonly EndpointPath[] {
  return build === 'first-release' ? FIRST_RELEASE_ENDPOINT_PATHS : ENDPOINT_PATHS;
}
