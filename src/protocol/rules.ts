/**
 * The rules a request must satisfy (PROTOCOL.md §4), in one place: the reference server answers
 * a violation with 400, and the client refuses the same arguments before sending anything.
 * Input is a parsed JSON object; unknown fields are ignored.
 */
import {
  BRANCH_MAX_LENGTH,
  MAX_DURATION_MINUTES,
  NAME_MAX_LENGTH,
  NOTE_MAX_LENGTH,
  REPO_MAX_LENGTH,
  SEARCH_DEFAULT_LIMIT,
  SEARCH_MAX_LIMIT,
  SEARCH_QUERY_MAX_LENGTH,
} from './constants';
import type { ActivitySelector, BranchChangeRequest, EntryRequest, SearchQuery } from './types';

export type JsonObject = Record<string, unknown>;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
  const durationMinutes = body['durationMinutes'];
  if (durationMinutes === undefined || durationMinutes === null) throw violation('durationMinutes is required.');
  if (typeof durationMinutes !== 'number' || !Number.isFinite(durationMinutes)) {
    throw violation('durationMinutes must be a number.');
  }
  if (durationMinutes <= 0) throw violation('durationMinutes must be greater than 0.');
  if (durationMinutes > MAX_DURATION_MINUTES) {
    throw violation(`durationMinutes must be at most ${MAX_DURATION_MINUTES} (one day).`);
  }
  const note = optionalString(body, 'note');
  if (note !== undefined && characters(note) > NOTE_MAX_LENGTH) {
    throw violation(`note must be at most ${NOTE_MAX_LENGTH} characters.`);
  }
  return { ...selector, durationMinutes, ...(note === undefined ? {} : { note }) };
}

/** `q` may be empty; `limit` is optional, a whole number from 1 to 100. */
export function checkSearchQuery(q: unknown, limit: unknown): Required<SearchQuery> {
  if (typeof q !== 'string') throw violation('q must be a string (it may be empty).');
  if (characters(q) > SEARCH_QUERY_MAX_LENGTH) throw violation(`q must be at most ${SEARCH_QUERY_MAX_LENGTH} characters.`);
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
  if (characters(branch) > BRANCH_MAX_LENGTH) throw violation(`branch must be at most ${BRANCH_MAX_LENGTH} characters.`);
  const repo = optionalString(body, 'repo');
  if (repo !== undefined && characters(repo) > REPO_MAX_LENGTH) {
    throw violation(`repo must be at most ${REPO_MAX_LENGTH} characters.`);
  }
  const previousBranch = optionalString(body, 'previousBranch');
  if (previousBranch !== undefined && characters(previousBranch) > BRANCH_MAX_LENGTH) {
    throw violation(`previousBranch must be at most ${BRANCH_MAX_LENGTH} characters.`);
  }
  return {
    branch,
    ...(repo === undefined ? {} : { repo }),
    ...(previousBranch === undefined ? {} : { previousBranch }),
  };
}

/** activityID or name (activityID wins), optional createIfMissing; every present field is checked. */
function checkSelector(body: JsonObject): ActivitySelector {
  const activityID = optionalString(body, 'activityID');
  if (activityID !== undefined && !UUID_PATTERN.test(activityID)) throw violation('activityID must be a UUID.');
  const rawName = optionalString(body, 'name');
  const name = rawName?.trim();
  if (name !== undefined && name.length === 0) throw violation('name must not be empty.');
  if (name !== undefined && characters(name) > NAME_MAX_LENGTH) {
    throw violation(`name must be at most ${NAME_MAX_LENGTH} characters.`);
  }
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

/** Limits count characters (code points), not UTF-16 units, so an emoji counts once. */
function characters(text: string): number {
  return Array.from(text).length;
}
