/**
 * Readers of what a 2xx said (PROTOCOL.md §4 and §8): the same client must work against the
 * reference server and against the application as it ships, whose answers are smaller, sometimes
 * flat (no `result` envelope) and sometimes not JSON at all. Each reader takes the payload from
 * `result` when the body has one, else the body itself, keeps what is there, ignores what it does
 * not know, and answers `undefined` ("not said") for what is missing, never a default that looks
 * like a fact.
 */
import type { ActivityReference } from '../protocol/types';
import type { ActivityMatch, BranchChangeAnswer, CurrentAnswer, EntryAnswer, HealthAnswer, StartAnswer, StatusAnswer, StopAnswer } from './answerTypes';

type Json = Record<string, unknown>;

/** A 2xx body: the parsed JSON object, or `undefined` when it said nothing (empty, not JSON, not an object). */
export type SaidBody = Json | undefined;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `result` when the body has it (even `null`), else the body itself: the app answers some endpoints flat. */
function payloadOf(body: SaidBody): unknown {
  if (body === undefined) return undefined;
  return Object.hasOwn(body, 'result') ? body['result'] : body;
}

/** The payload as an object to read fields from; `{}` (every field "not said") for anything else. */
function fieldsOf(body: SaidBody): Json {
  const payload = payloadOf(body);
  return isRecord(payload) ? payload : {};
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const flag = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);
const amount = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** `{activityID, activityName}`, or the SDK item shape `{id, name}`; ids exactly as sent, in either case. */
function readReference(source: Json): ActivityReference {
  return {
    activityID: text(source['activityID'] ?? source['id']) ?? '',
    activityName: text(source['activityName'] ?? source['name']) ?? '',
  };
}

const namesActivity = (source: Json): boolean =>
  text(source['activityID'] ?? source['id']) !== undefined || text(source['activityName'] ?? source['name']) !== undefined;

/** A field that holds a reference: `null` said "none", an object names one, absent is not said. */
function referenceField(source: Json, key: string): ActivityReference | null | undefined {
  const value = source[key];
  if (value === null) return null;
  return isRecord(value) ? readReference(value) : undefined;
}

export function readHealth(body: SaidBody): HealthAnswer {
  const license = fieldsOf(body)['license'];
  return { license: license === 'valid' || license === 'locked' ? license : undefined };
}

/**
 * `null` when nothing runs, and also when the answer names no activity at all (`{"ok": true}`,
 * a body that is not JSON): an activity the app did not name cannot be shown.
 */
export function readCurrent(body: SaidBody, appClockOffsetMs: number | undefined): CurrentAnswer | null {
  const payload = payloadOf(body);
  if (!isRecord(payload) || !namesActivity(payload)) return null;
  return {
    ...readReference(payload),
    startedAtMs: instantOf(payload['startedAt']),
    isOnBreak: payload['isOnBreak'] === true,
    appClockOffsetMs,
  };
}

/** ISO-8601 with `Z` or an offset; without a zone it is read as UTC, as the protocol writes it. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

function instantOf(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const match = ISO_8601.exec(value.trim());
  if (!match) return undefined;
  const ms = Date.parse(match[1] === undefined ? `${value.trim()}Z` : value.trim());
  return Number.isFinite(ms) ? ms : undefined;
}

/**
 * `undefined` when the answer does not say whether the app is tracking: the status bar cannot
 * show "not said", so the client turns that into an error. The other fields keep their old
 * tolerant reading (a missing break flag is no break); a missing total is not said.
 */
export function readStatus(body: SaidBody): StatusAnswer | undefined {
  const source = fieldsOf(body);
  const isTracking = flag(source['isTracking']);
  if (isTracking === undefined) return undefined;
  const current = referenceField(source, 'currentActivity');
  return {
    isTracking,
    isOnBreak: source['isOnBreak'] === true,
    currentActivity: current ?? null,
    todaySeconds: amount(source['todaySeconds']),
  };
}

/**
 * The reference server answers `{ok, result: [references], items: [...]}`; the application
 * `{"items": [...]}` alone, or `{ok, result: {items: [...]}}`, with items `{id, name, groupName}`.
 * `items` wins wherever it is, because only items carry the group.
 */
export function readSearch(body: SaidBody): ActivityMatch[] {
  const payload = payloadOf(body);
  const list =
    listAt(body, 'items') ?? (isRecord(payload) ? listAt(payload, 'items') : undefined) ?? (Array.isArray(payload) ? (payload as unknown[]) : []);
  return list.filter(isRecord).filter(namesActivity).map((item) => {
    const group = item['groupName'];
    return { ...readReference(item), groupName: group === null ? null : text(group) };
  });
}

function listAt(source: Json | undefined, key: string): unknown[] | undefined {
  const value = source?.[key];
  return Array.isArray(value) ? value : undefined;
}

export function readStart(body: SaidBody): StartAnswer {
  const source = fieldsOf(body);
  return {
    activityID: text(source['activityID'] ?? source['id']),
    activityName: text(source['activityName'] ?? source['name']),
    created: flag(source['created']),
    startedAt: text(source['startedAt']),
    stopped: referenceField(source, 'stopped'),
  };
}

export function readStop(body: SaidBody): StopAnswer {
  const source = fieldsOf(body);
  return { stopped: referenceField(source, 'stopped'), durationSeconds: amount(source['durationSeconds']) };
}

/** Only `entryID` names the entry and only `activityID` the activity: an `id` here could be either. */
export function readEntry(body: SaidBody): EntryAnswer {
  const source = fieldsOf(body);
  const note = source['note'];
  return {
    entryID: text(source['entryID']),
    activityID: text(source['activityID']),
    activityName: text(source['activityName']),
    created: flag(source['created']),
    durationMinutes: amount(source['durationMinutes']),
    note: note === null ? null : text(note),
  };
}

export function readBranchChange(body: SaidBody): BranchChangeAnswer {
  return { prompted: flag(fieldsOf(body)['prompted']) };
}

/**
 * The app's clock minus this machine's, in ms: the answer's `Date` (whole seconds) minus the
 * client's clock when the answer arrived; `undefined` without a usable `Date`.
 */
export function appClockOffsetMs(date: string | undefined, receivedAtMs: number): number | undefined {
  if (date === undefined) return undefined;
  const appMs = Date.parse(date);
  return Number.isFinite(appMs) ? appMs - receivedAtMs : undefined;
}
