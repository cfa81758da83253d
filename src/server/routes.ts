/** The eight endpoints: which method each takes and what it does once a request got this far. */
import { ENDPOINTS, type EndpointPath, type LicenseState } from '../protocol/types';
import type { ServiceState } from './state';
import { checkBranchChangeRequest, checkEntryRequest, checkStartRequest } from '../protocol/rules';
import { parseJsonObject, parseSearchQuery } from './validation';

export interface RouteContext {
  readonly state: ServiceState;
  readonly body: Uint8Array;
  readonly query: string;
  readonly license: LicenseState;
}

export interface RouteResult {
  readonly status: 200 | 201;
  /** The whole success envelope: `{ok, result}`, plus `items` for search. */
  readonly envelope: Record<string, unknown>;
  /** True when the call changed what `--data` keeps, so it is saved before the answer goes out. */
  readonly changed: boolean;
}

interface Route {
  readonly method: 'GET' | 'POST';
  readonly run: (context: RouteContext) => RouteResult;
}

const ok = (result: unknown, changed = false, status: 200 | 201 = 200): RouteResult => ({
  status,
  envelope: { ok: true, result },
  changed,
});

export const ROUTES: Readonly<Record<EndpointPath, Route>> = {
  [ENDPOINTS.healthcheck.path]: {
    method: ENDPOINTS.healthcheck.method,
    run: ({ license }) => ok({ status: 'ok', license, version: '1' }),
  },
  [ENDPOINTS.current.path]: { method: ENDPOINTS.current.method, run: ({ state }) => ok(state.current()) },
  [ENDPOINTS.status.path]: { method: ENDPOINTS.status.method, run: ({ state }) => ok(state.status()) },
  [ENDPOINTS.search.path]: {
    method: ENDPOINTS.search.method,
    run: ({ state, query }) => {
      const { q, limit } = parseSearchQuery(query);
      const hits = state.search(q, limit);
      return { status: 200, envelope: { ok: true, result: hits.references, items: hits.items }, changed: false };
    },
  },
  [ENDPOINTS.start.path]: {
    method: ENDPOINTS.start.method,
    run: ({ state, body }) => ok(state.start(checkStartRequest(parseJsonObject(body))), true),
  },
  [ENDPOINTS.stop.path]: {
    method: ENDPOINTS.stop.method,
    run: ({ state, body }) => {
      parseJsonObject(body, true);
      return ok(state.stop(), true);
    },
  },
  [ENDPOINTS.entries.path]: {
    method: ENDPOINTS.entries.method,
    run: ({ state, body }) => ok(state.logEntry(checkEntryRequest(parseJsonObject(body))), true, 201),
  },
  [ENDPOINTS.branchChanged.path]: {
    method: ENDPOINTS.branchChanged.method,
    run: ({ state, body }) => {
      state.branchChanged(checkBranchChangeRequest(parseJsonObject(body)));
      return ok({ prompted: true });
    },
  },
};
