/**
 * The rules a request must satisfy (PROTOCOL.md §4), in one place: the reference server answers
 * a violation with 400, and the client refuses the same arguments before sending anything.
 * Input is a parsed JSON object; unknown fields are ignored.
 */
import {
  BRANCH_MAX_LENGTH,
  MAX_DURATION_MINUTES,
  MIN_DURATION_MINUTES,
  NAME_MAX_LENGTH,
  NOTE_MAX_LENGTH,
  REPO_MAX_LENGTH,
  REPO_PATH_MAX_LENGTH,
  SEARCH_DEFAULT_LIMIT,
  SEARCH_MAX_LIMIT,
  SEARCH_QUERY_MAX_LENGTH,
} from './constants';
import type { ActivitySelector, BranchChangeRequest, EntryRequest, SearchQuery } from './types';

export type JsonObject = Record<string, unknown>;

/** Either letter case: the application writes UUIDs upper-case, as Swift does; others write lower. */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What an id in an answer may look like: the app writes UUIDs, but a client that read only UUIDs would
 * break on the first other build that writes `proj:42`. At most 128 of these characters is any id a
 * real app writes; past that, it is a broken or hostile answer, and each ledger row would carry it.
 */
const ID_SHAPE = /^[A-Za-z0-9._:-]{1,128}$/;

/** Whether `value` has the shape of an id (a UUID among them), as an answer may send one. */
export function isIdShaped(value: string): boolean {
  return ID_SHAPE.test(value);
}

/** Two activity ids name the same activity when they differ at most in letter case. */
export function sameActivityID(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** A request that breaks a rule; the message is one sentence naming the field. */
export class RuleViolation extends Error {
  override name = 'RuleViolation';
}

function violation(message: string): RuleViolation {
  return new RuleViolation(message);
}

export function checkStartRequest(body: JsonObject): ActivitySelector {
  return checkSelector(body);
}

export function checkEntryRequest(body: JsonObject): EntryRequest {
  const selector = checkSelector(body);
  const durationMinutes = checkDurationMinutes(body['durationMinutes']);
  const note = optionalString(body, 'note');
  if (note !== undefined) checkNote(note);
  return { ...selector, durationMinutes, ...(note === undefined ? {} : { note }) };
}

/**
 * A whole number of minutes from 1 to 1440 (one day), as both SDKs insist before sending:
 * `1.5` is refused, not rounded, because rounding is the caller's decision to show its user.
 * `field` names the value in the sentence (the server's data file says where it sits).
 */
export function checkDurationMinutes(value: unknown, field = 'durationMinutes'): number {
  if (value === undefined || value === null) throw violation(`${field} is required.`);
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < MIN_DURATION_MINUTES ||
    value > MAX_DURATION_MINUTES
  ) {
    throw violation(
      `${field} must be a whole number of minutes from ${MIN_DURATION_MINUTES} to ${MAX_DURATION_MINUTES}, not ${describeValue(value)}.`,
    );
  }
  return value;
}

/** A UUID in either letter case, as ids are; `field` names it in the sentence. */
export function checkUUID(value: string, field = 'activityID'): string {
  if (!UUID_PATTERN.test(value))
    throw violation(`${field} must be a UUID (in either letter case), not ${describeValue(value)}.`);
  return value;
}

/** An activity name: 1 to 200 characters once trimmed; returns it trimmed. */
export function checkActivityName(value: string, field = 'name'): string {
  const name = value.trim();
  if (name.length === 0) throw violation(`${field} must not be empty.`);
  if (characters(name) > NAME_MAX_LENGTH) throw violation(`${field} must be at most ${NAME_MAX_LENGTH} characters.`);
  return name;
}

/** A note: at most 2,000 characters. */
export function checkNote(value: string, field = 'note'): string {
  if (characters(value) > NOTE_MAX_LENGTH) throw violation(`${field} must be at most ${NOTE_MAX_LENGTH} characters.`);
  return value;
}

/** `q` may be empty; `limit` is optional, a whole number from 1 to 100. */
export function checkSearchQuery(q: unknown, limit: unknown): Required<SearchQuery> {
  if (typeof q !== 'string') throw violation('q must be a string (it may be empty).');
  if (characters(q) > SEARCH_QUERY_MAX_LENGTH)
    throw violation(`q must be at most ${SEARCH_QUERY_MAX_LENGTH} characters.`);
  if (limit === undefined || limit === null) return { q, limit: SEARCH_DEFAULT_LIMIT };
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > SEARCH_MAX_LIMIT) {
    throw violation(`limit must be a whole number from 1 to ${SEARCH_MAX_LIMIT}.`);
  }
  return { q, limit };
}

export function checkBranchChangeRequest(body: JsonObject): BranchChangeRequest {
  const rawBranch = body['branch'];
  if (rawBranch === undefined || rawBranch === null) throw violation('branch is required.');
  if (typeof rawBranch !== 'string') throw violation('branch must be a string.');
  const branch = rawBranch.trim();
  if (branch.length === 0) throw violation('branch must not be empty.');
  if (characters(branch) > BRANCH_MAX_LENGTH)
    throw violation(`branch must be at most ${BRANCH_MAX_LENGTH} characters.`);
  const repo = optionalString(body, 'repo');
  if (repo !== undefined && characters(repo) > REPO_MAX_LENGTH) {
    throw violation(`repo must be at most ${REPO_MAX_LENGTH} characters.`);
  }
  const previousBranch = optionalString(body, 'previousBranch');
  if (previousBranch !== undefined && characters(previousBranch) > BRANCH_MAX_LENGTH) {
    throw violation(`previousBranch must be at most ${BRANCH_MAX_LENGTH} characters.`);
  }
  // The repository root's absolute path, as the app's own extension sends it; trimmed like branch.
  const repoPath = optionalString(body, 'repoPath')?.trim();
  if (repoPath !== undefined && repoPath.length === 0) throw violation('repoPath must not be empty.');
  if (repoPath !== undefined && characters(repoPath) > REPO_PATH_MAX_LENGTH) {
    throw violation(`repoPath must be at most ${REPO_PATH_MAX_LENGTH} characters.`);
  }
  return {
    branch,
    ...(repo === undefined ? {} : { repo }),
    ...(previousBranch === undefined ? {} : { previousBranch }),
    ...(repoPath === undefined ? {} : { repoPath }),
  };
}

/** activityID or name (activityID wins), optional createIfMissing; every present field is checked. */
function checkSelector(body: JsonObject): ActivitySelector {
  const activityID = optionalString(body, 'activityID');
  if (activityID !== undefined) checkUUID(activityID);
  const rawName = optionalString(body, 'name');
  const name = rawName === undefined ? undefined : checkActivityName(rawName);
  if (activityID === undefined && name === undefined) throw violation('Give activityID or name.');
  const createIfMissing = body['createIfMissing'];
  if (createIfMissing !== undefined && createIfMissing !== null && typeof createIfMissing !== 'boolean') {
    throw violation('createIfMissing must be true or false.');
  }
  return {
    ...(activityID === undefined ? {} : { activityID }),
    ...(name === undefined ? {} : { name }),
    ...(typeof createIfMissing === 'boolean' ? { createIfMissing } : {}),
  };
}

/** An optional field may be absent or null (SDKs send null for "not given"); otherwise a string. */
function optionalString(body: JsonObject, key: string): string | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw violation(`${key} must be a string.`);
  return value;
}

/** A value as a sentence quotes it: numbers as written, strings quoted and cut short, other things by kind. */
function describeValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : 'an object';
}

/** Limits count characters (code points), not UTF-16 units, so an emoji counts once. */
function characters(text: string): number {
  return Array.from(text).length;
}
