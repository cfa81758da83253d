/**
 * Tolerant readers of `result` payloads (PROTOCOL.md §4): the same client must work against the
 * real application, whose SDKs read some answers in other shapes, so fields beyond those known
 * are ignored and the search answer is accepted in every shape the SDKs accept.
 */
import type {
  ActivityReference,
  BranchChangeResult,
  CurrentResult,
  EntryResult,
  HealthcheckResult,
  StartResult,
  StatusResult,
  StopResult,
} from '../protocol/types';

type Json = Record<string, unknown>;

function record(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

const text = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
const flag = (value: unknown): boolean => value === true;
const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

/** `{activityID, activityName}`, or the SDK item shape `{id, name}`. */
export function readReference(value: unknown): ActivityReference {
  const source = record(value);
  return {
    activityID: text(source['activityID'] ?? source['id']),
    activityName: text(source['activityName'] ?? source['name']),
  };
}

function readOptionalReference(value: unknown): ActivityReference | null {
  return typeof value === 'object' && value !== null ? readReference(value) : null;
}

export function readHealthcheck(result: unknown): HealthcheckResult {
  const source = record(result);
  return { status: 'ok', license: source['license'] === 'locked' ? 'locked' : 'valid', version: '1' };
}

export function readCurrent(result: unknown): CurrentResult {
  if (typeof result !== 'object' || result === null) return null;
  const source = record(result);
  return {
    ...readReference(source),
    startedAt: text(source['startedAt']),
    isOnBreak: flag(source['isOnBreak']),
    elapsedSeconds: count(source['elapsedSeconds']),
  };
}

export function readStatus(result: unknown): StatusResult {
  const source = record(result);
  return {
    isTracking: flag(source['isTracking']),
    isOnBreak: flag(source['isOnBreak']),
    currentActivity: readOptionalReference(source['currentActivity']),
    todaySeconds: count(source['todaySeconds']),
  };
}

/**
 * The reference server answers `{ok, result: [references], items: [...]}`; the application's SDKs
 * also read `{ok, items: [...]}` and `{ok, result: {items: [...]}}`, with items `{id, name, groupName}`.
 */
export function readSearch(envelope: Json): ActivityReference[] {
  const result = envelope['result'];
  const list = Array.isArray(result)
    ? result
    : Array.isArray(record(result)['items'])
      ? (record(result)['items'] as unknown[])
      : Array.isArray(envelope['items'])
        ? (envelope['items'] as unknown[])
        : [];
  return list.map(readReference).filter((reference) => reference.activityID !== '' || reference.activityName !== '');
}

export function readStart(result: unknown): StartResult {
  const source = record(result);
  return {
    ...readReference(source),
    created: flag(source['created']),
    startedAt: text(source['startedAt']),
    stopped: readOptionalReference(source['stopped']),
  };
}

export function readStop(result: unknown): StopResult {
  const source = record(result);
  const duration = source['durationSeconds'];
  return {
    stopped: readOptionalReference(source['stopped']),
    durationSeconds: typeof duration === 'number' ? duration : null,
  };
}

export function readEntry(result: unknown): EntryResult {
  const source = record(result);
  const note = source['note'];
  return {
    entryID: text(source['entryID'] ?? source['id']),
    ...readReference(source),
    created: flag(source['created']),
    durationMinutes: count(source['durationMinutes']),
    note: typeof note === 'string' ? note : null,
  };
}

export function readBranchChange(): BranchChangeResult {
  return { prompted: true };
}
