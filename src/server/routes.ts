/**
 * The eight endpoints: which method each takes and what it does once a request got this far. The
 * shape of each answer is left to the writer of the style in use (answerStyles.ts), so the rules run the
 * same whichever shape goes out.
 */
import { checkBranchChangeRequest, checkEntryRequest, checkStartRequest } from '../protocol/rules';
import { ENDPOINTS, type EndpointPath, type LicenseState } from '../protocol/types';
import type { Answer, AnswerWriter } from './answerStyles';
import type { ServiceState } from './state';
import { parseJsonObject, parseSearchQuery } from './validation';

export interface RouteContext {
  readonly state: ServiceState;
  readonly body: Uint8Array;
  readonly query: string;
  readonly license: LicenseState;
  readonly answers: AnswerWriter;
}

export interface RouteResult extends Answer {
  /** True when the call changed what `--data` keeps, so it is saved before the answer goes out. */
  readonly changed: boolean;
}

interface Route {
  readonly method: 'GET' | 'POST';
  readonly run: (context: RouteContext) => RouteResult;
}

const kept = (answer: Answer): RouteResult => ({ ...answer, changed: false });
const saved = (answer: Answer): RouteResult => ({ ...answer, changed: true });

export const ROUTES: Readonly<Record<EndpointPath, Route>> = {
  [ENDPOINTS.healthcheck.path]: {
    method: ENDPOINTS.healthcheck.method,
    run: ({ license, answers }) => kept(answers.healthcheck({ status: 'ok', license, version: '1' })),
  },
  [ENDPOINTS.current.path]: {
    method: ENDPOINTS.current.method,
    run: ({ state, answers }) => kept(answers.current(state.current())),
  },
  [ENDPOINTS.status.path]: {
    method: ENDPOINTS.status.method,
    run: ({ state, answers }) => kept(answers.status(state.status())),
  },
  [ENDPOINTS.search.path]: {
    method: ENDPOINTS.search.method,
    run: ({ state, query, answers }) => {
      const { q, limit } = parseSearchQuery(query);
      return kept(answers.search(state.search(q, limit)));
    },
  },
  [ENDPOINTS.start.path]: {
    method: ENDPOINTS.start.method,
    run: ({ state, body, answers }) => saved(answers.start(state.start(checkStartRequest(parseJsonObject(body))))),
  },
  [ENDPOINTS.stop.path]: {
    method: ENDPOINTS.stop.method,
    run: ({ state, body, answers }) => {
      parseJsonObject(body, true);
      return saved(answers.stop(state.stop()));
    },
  },
  [ENDPOINTS.entries.path]: {
    method: ENDPOINTS.entries.method,
    run: ({ state, body, answers }) => saved(answers.entry(state.logEntry(checkEntryRequest(parseJsonObject(body))))),
  },
  [ENDPOINTS.branchChanged.path]: {
    method: ENDPOINTS.branchChanged.method,
    run: ({ state, body, answers }) => {
      state.branchChanged(checkBranchChangeRequest(parseJsonObject(body)));
      return kept(answers.branchChanged());
    },
  },
};
