/**
 * How each endpoint's result goes on the wire, in one of two styles. `full` is the reference
 * server's own answer (PROTOCOL.md §3, §4): every field, in the `{ok, result}` envelope. `minimal`
 * is the application as it ships (PROTOCOL.md §8): `{"ok":true}` where the app says nothing more, search as
 * `{"items": [...]}` alone, start and entries as their few fields flat (the whole body, no
 * envelope), and every UUID upper-case as Swift writes it. Clients must work with both, so the
 * reference server offers both; the state behind them is the same.
 */
import type {
  ActivityItem,
  ActivityReference,
  CurrentResult,
  EntryResult,
  HealthcheckResult,
  ItemsOnlyAnswer,
  MinimalEntryAnswer,
  MinimalStartAnswer,
  OkOnlyAnswer,
  StartResult,
  StatusResult,
  StopResult,
} from '../protocol/types';
import type { SearchHits } from './state';

export const ANSWER_STYLES = ['full', 'minimal'] as const;
export type AnswerStyle = (typeof ANSWER_STYLES)[number];

export function isAnswerStyle(value: string): value is AnswerStyle {
  return (ANSWER_STYLES as readonly string[]).includes(value);
}

/** A success as it is written: the status and the whole JSON body. */
export interface Answer {
  readonly status: 200 | 201;
  readonly body: object;
}

/** One writer per endpoint; errors are the same `{"error": ...}` in either style. */
export interface AnswerWriter {
  healthcheck(result: HealthcheckResult): Answer;
  current(result: CurrentResult): Answer;
  status(result: StatusResult): Answer;
  search(hits: SearchHits): Answer;
  start(result: StartResult): Answer;
  stop(result: StopResult): Answer;
  entry(result: EntryResult): Answer;
  branchChanged(): Answer;
}

const ok = (result: unknown, status: 200 | 201 = 200): Answer => ({ status, body: { ok: true, result } });

const FULL: AnswerWriter = {
  healthcheck: (result) => ok(result),
  current: (result) => ok(result),
  status: (result) => ok(result),
  // PROTOCOL.md §4: the full answer's items carry `groupName: null`; only the app's own (minimal) answer names groups.
  search: (hits) => ({
    status: 200,
    body: {
      ok: true,
      result: hits.references,
      items: hits.items.map((item): ActivityItem => ({ ...item, groupName: null })),
    },
  }),
  start: (result) => ok(result),
  stop: (result) => ok(result),
  entry: (result) => ok(result, 201),
  branchChanged: () => ok({ prompted: true }),
};

const OK_ONLY: Answer = { status: 200, body: { ok: true } satisfies OkOnlyAnswer };

const MINIMAL: AnswerWriter = {
  healthcheck: () => OK_ONLY,
  current: (result) => ok(result === null ? null : { ...result, activityID: upper(result.activityID) }),
  status: (result) => ok({ ...result, currentActivity: upperReference(result.currentActivity) }),
  search: (hits) => ({
    status: 200,
    body: {
      items: hits.items.map((item): ActivityItem => ({ ...item, id: upper(item.id) })),
    } satisfies ItemsOnlyAnswer,
  }),
  start: (result) => ({
    status: 200,
    body: {
      activityID: upper(result.activityID),
      activityName: result.activityName,
      created: result.created,
    } satisfies MinimalStartAnswer,
  }),
  stop: () => OK_ONLY,
  entry: (result) => ({
    status: 201,
    body: {
      entryID: upper(result.entryID),
      activityID: upper(result.activityID),
      activityName: result.activityName,
      durationMinutes: result.durationMinutes,
      created: result.created,
    } satisfies MinimalEntryAnswer,
  }),
  branchChanged: () => OK_ONLY,
};

export function answerWriter(style: AnswerStyle): AnswerWriter {
  return style === 'minimal' ? MINIMAL : FULL;
}

function upper(id: string): string {
  return id.toUpperCase();
}

function upperReference(reference: ActivityReference | null): ActivityReference | null {
  return reference === null ? null : { ...reference, activityID: upper(reference.activityID) };
}
