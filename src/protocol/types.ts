/** Wire shapes of every payload of PROTOCOL.md §3 and §4, as the reference server writes them. */

export interface ActivityReference {
  activityID: string;
  activityName: string;
}

/** The application SDKs' shape of a search hit; the envelope carries it beside `result`. */
export interface ActivityItem {
  id: string;
  name: string;
  groupName: string | null;
}

export interface SuccessEnvelope<T> {
  ok: true;
  result: T;
}

export interface SearchEnvelope extends SuccessEnvelope<ActivityReference[]> {
  items: ActivityItem[];
}

export interface ErrorEnvelope {
  error: string;
}

export type LicenseState = 'valid' | 'locked';

export interface HealthcheckResult {
  status: 'ok';
  license: LicenseState;
  version: '1';
}

export interface CurrentActivity extends ActivityReference {
  /** ISO-8601 UTC. */
  startedAt: string;
  isOnBreak: boolean;
  elapsedSeconds: number;
}

/** GET /current: null when nothing runs. */
export type CurrentResult = CurrentActivity | null;

export interface StatusResult {
  isTracking: boolean;
  isOnBreak: boolean;
  currentActivity: ActivityReference | null;
  todaySeconds: number;
}

export type SearchResult = ActivityReference[];

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

export type StartRequest = ActivitySelector;

export interface StartResult extends ActivityReference {
  created: boolean;
  startedAt: string;
  stopped: ActivityReference | null;
}

export interface StopResult {
  stopped: ActivityReference | null;
  durationSeconds: number | null;
}

export interface EntryRequest extends ActivitySelector {
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
}

export interface BranchChangeResult {
  prompted: true;
}

/** The eight endpoints, each with its method, path and result type. */
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

export type EndpointName = keyof typeof ENDPOINTS;
export type EndpointPath = (typeof ENDPOINTS)[EndpointName]['path'];

export const ENDPOINT_PATHS: readonly EndpointPath[] = Object.values(ENDPOINTS).map((endpoint) => endpoint.path);

export function isEndpointPath(value: string): value is EndpointPath {
  return (ENDPOINT_PATHS as readonly string[]).includes(value);
}
