/**
 * Readers of what a 2xx said (PROTOCOL.md §4 and §8): the same client must work against the
 * reference server and against the application as it ships, whose answers are smaller, sometimes
 * flat (no `result` envelope) and sometimes not JSON at all. Each reader takes the payload from
 * `result` when the body has one, else the body itself, keeps what is there, ignores what it does
 * not know, and answers `undefined` ("not said") for what is missing, never a default that looks
 * like a fact.
 *
 * It is also the one place where the app's words are made fit to be shown: every
 * name, group and note reaches the status bar, its tooltip, the menus, notifications, the
 * screen-reader label and the log from here, so each is cleaned once, here, and no view has to.
 */
import { displayText } from '../platform/outsideText';
import { NAME_MAX_LENGTH, NOTE_MAX_LENGTH } from '../protocol/constants';
import { isIdShaped } from '../protocol/rules';
import type { ActivityReference } from '../protocol/types';
import type {
  ActivityMatch,
  BranchChangeAnswer,
  CurrentAnswer,
  EntryAnswer,
  HealthAnswer,
  StartAnswer,
  StatusAnswer,
  StopAnswer,
} from './answerTypes';

type Json = Record<string, unknown>;

/** A 2xx body: the parsed JSON object, or `undefined` when it said nothing (empty, not JSON, not an object). */
export type SaidBody = Json | undefined;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The fields that hold an id, wherever they sit: `id` is an activity's in the app's item shape. */
const ID_FIELDS: ReadonlySet<string> = new Set(['activityID', 'entryID', 'id']);

/**
 * The JSON object an answer's body holds; `undefined` when it holds none (empty, not JSON, not an
 * object), and when any id in it is no id (rules.ts isIdShaped). Ids are kept exactly as sent, and
 * every ledger row and queued entry carries one: a program answering on the app's port needs no
 * token, and its 900 KB ids would fill the ledger's size cap in minutes.
 */
export function saidBody(text: string): SaidBody {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, (key, value: unknown) => {
      // Thrown to end the parse at the first such id, and caught just below as JSON that does not parse.
      if (ID_FIELDS.has(key) && typeof value === 'string' && !isIdShaped(value)) throw new SyntaxError('not an id');
      return value;
    });
  } catch {
    return undefined;
  }
  return isRecord(parsed) ? parsed : undefined;
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

/**
 * The most of the app's words in a refusal that is kept: five times the longest name. A name or a
 * group is kept up to the app's own limit for it (200 characters), a note up to its limit: a 900 KB
 * name is a broken answer, and would make 900 KB of status-bar text, menu entries, ledger rows and
 * log lines.
 */
const REFUSAL_MAX_LENGTH = 5 * NAME_MAX_LENGTH;

/**
 * The longest span of time an answer can mean: a year. Today's total is not bounded by a day
 * (an entry logged today counts in full, up to 1,440 minutes each, whatever day it covers, so a
 * back-filled week is a real total of more than 24 hours), but a year of work in one day, one
 * session or one entry is no measurement: it is a broken field (`1e300` would show as
 * "2.78e+296h"), and is not said. A negative span is not said either ("-2h -30m").
 */
const SPAN_MAX_SECONDS = 366 * 86_400;

/** Exactly as sent: ids (their shape checked by saidBody), and values that are parsed, not shown. */
const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
/** The app's words for a person to read: without controls and bidi overrides, at most `maxLength` characters. */
const words = (value: unknown, maxLength = NAME_MAX_LENGTH): string | undefined =>
  typeof value === 'string' ? displayText(value, maxLength) : undefined;
const flag = (value: unknown): boolean | undefined => (typeof value === 'boolean' ? value : undefined);
const amount = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
/**
 * A span of time in `unitSeconds` (1 for seconds, 60 for minutes): not said when negative or beyond SPAN_MAX_SECONDS.
 */
const span = (value: unknown, unitSeconds: number): number | undefined => {
  const said = amount(value);
  return said !== undefined && said >= 0 && said * unitSeconds <= SPAN_MAX_SECONDS ? said : undefined;
};

/**
 * `{activityID, activityName}`, or the SDK item shape `{id, name}`; ids exactly as sent, in either case, names cleaned.
 */
function readReference(source: Json): ActivityReference {
  return {
    activityID: text(source['activityID'] ?? source['id']) ?? '',
    activityName: words(source['activityName'] ?? source['name']) ?? '',
  };
}

const namesActivity = (source: Json): boolean =>
  text(source['activityID'] ?? source['id']) !== undefined ||
  text(source['activityName'] ?? source['name']) !== undefined;

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
 * tolerant reading (a missing break flag is no break); a missing, negative or absurd total is not said.
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
    todaySeconds: span(source['todaySeconds'], 1),
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
    listAt(body, 'items') ??
    (isRecord(payload) ? listAt(payload, 'items') : undefined) ??
    (Array.isArray(payload) ? (payload as unknown[]) : []);
  return list
    .filter(isRecord)
    .filter(namesActivity)
    .map((item) => {
      const group = item['groupName'];
      return { ...readReference(item), groupName: group === null ? null : words(group) };
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
    activityName: words(source['activityName'] ?? source['name']),
    created: flag(source['created']),
    startedAt: text(source['startedAt']),
    stopped: referenceField(source, 'stopped'),
  };
}

export function readStop(body: SaidBody): StopAnswer {
  const source = fieldsOf(body);
  return { stopped: referenceField(source, 'stopped'), durationSeconds: span(source['durationSeconds'], 1) };
}

/** Only `entryID` names the entry and only `activityID` the activity: an `id` here could be either. */
export function readEntry(body: SaidBody): EntryAnswer {
  const source = fieldsOf(body);
  const note = source['note'];
  return {
    entryID: text(source['entryID']),
    activityID: text(source['activityID']),
    activityName: words(source['activityName']),
    created: flag(source['created']),
    durationMinutes: span(source['durationMinutes'], 60),
    note: note === null ? null : words(note, NOTE_MAX_LENGTH),
  };
}

export function readBranchChange(body: SaidBody): BranchChangeAnswer {
  return { prompted: flag(fieldsOf(body)['prompted']) };
}

/**
 * The app's own words in a refusal (`{"error": "..."}`, PROTOCOL.md §7), cleaned as a name is; `undefined` when it gave
 * none.
 */
export function readRefusal(body: SaidBody): string | undefined {
  return words(body?.['error'], REFUSAL_MAX_LENGTH);
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
