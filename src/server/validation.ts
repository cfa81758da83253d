/**
 * Turns raw request bytes and query strings into typed requests, or a 400 with one sentence that
 * names the field (PROTOCOL.md §2 step 7 and the rules of §4). Unknown fields are ignored.
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
} from '../protocol/constants';
import type { ActivitySelector, BranchChangeRequest, EntryRequest, SearchQuery } from '../protocol/types';
import { badRequest } from './failure';

type JsonObject = Record<string, unknown>;

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body must be a JSON object; `allowEmpty` is for POST /activities/stop, which may send none. */
export function parseJsonObject(body: Uint8Array, allowEmpty = false): JsonObject {
  if (body.length === 0) {
    if (allowEmpty) return {};
    throw badRequest('The request body must be a JSON object.');
  }
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    throw badRequest('The request body is not valid UTF-8.');
  }
  let forbiddenKey: string | undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text, (key, value: unknown) => {
      if (FORBIDDEN_KEYS.has(key)) forbiddenKey = key;
      return value;
    });
  } catch {
    throw badRequest('The request body is not valid JSON.');
  }
  if (forbiddenKey !== undefined) throw badRequest(`The key "${forbiddenKey}" is not allowed in a request body.`);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw badRequest('The request body must be a JSON object.');
  }
  return parsed as JsonObject;
}

export function parseStartRequest(body: JsonObject): ActivitySelector {
  return parseSelector(body);
}

export function parseEntryRequest(body: JsonObject): EntryRequest {
  const selector = parseSelector(body);
  const durationMinutes = body['durationMinutes'];
  if (durationMinutes === undefined || durationMinutes === null) throw badRequest('durationMinutes is required.');
  if (typeof durationMinutes !== 'number' || !Number.isFinite(durationMinutes)) {
    throw badRequest('durationMinutes must be a number.');
  }
  if (durationMinutes <= 0) throw badRequest('durationMinutes must be greater than 0.');
  if (durationMinutes > MAX_DURATION_MINUTES) {
    throw badRequest(`durationMinutes must be at most ${MAX_DURATION_MINUTES} (one day).`);
  }
  const note = optionalString(body, 'note');
  if (note !== undefined && characters(note) > NOTE_MAX_LENGTH) {
    throw badRequest(`note must be at most ${NOTE_MAX_LENGTH} characters.`);
  }
  return { ...selector, durationMinutes, ...(note === undefined ? {} : { note }) };
}

export function parseBranchChangeRequest(body: JsonObject): BranchChangeRequest {
  const rawBranch = body['branch'];
  if (rawBranch === undefined || rawBranch === null) throw badRequest('branch is required.');
  if (typeof rawBranch !== 'string') throw badRequest('branch must be a string.');
  const branch = rawBranch.trim();
  if (branch.length === 0) throw badRequest('branch must not be empty.');
  if (characters(branch) > BRANCH_MAX_LENGTH) throw badRequest(`branch must be at most ${BRANCH_MAX_LENGTH} characters.`);
  const repo = optionalString(body, 'repo');
  if (repo !== undefined && characters(repo) > REPO_MAX_LENGTH) {
    throw badRequest(`repo must be at most ${REPO_MAX_LENGTH} characters.`);
  }
  const previousBranch = optionalString(body, 'previousBranch');
  if (previousBranch !== undefined && characters(previousBranch) > BRANCH_MAX_LENGTH) {
    throw badRequest(`previousBranch must be at most ${BRANCH_MAX_LENGTH} characters.`);
  }
  return {
    branch,
    ...(repo === undefined ? {} : { repo }),
    ...(previousBranch === undefined ? {} : { previousBranch }),
  };
}

/** `q` is required (it may be empty); `limit` is optional, 1 to 100. */
export function parseSearchQuery(queryString: string): Required<SearchQuery> {
  const params = new URLSearchParams(queryString);
  const queries = params.getAll('q');
  if (queries.length === 0) throw badRequest('The query parameter q is required (it may be empty).');
  if (queries.length > 1) throw badRequest('Give the query parameter q only once.');
  const q = queries[0] ?? '';
  if (characters(q) > SEARCH_QUERY_MAX_LENGTH) throw badRequest(`q must be at most ${SEARCH_QUERY_MAX_LENGTH} characters.`);
  const limits = params.getAll('limit');
  if (limits.length > 1) throw badRequest('Give the query parameter limit only once.');
  const limitText = limits[0];
  if (limitText === undefined) return { q, limit: SEARCH_DEFAULT_LIMIT };
  const limit = /^[0-9]{1,4}$/.test(limitText) ? Number(limitText) : NaN;
  if (!(limit >= 1 && limit <= SEARCH_MAX_LIMIT)) {
    throw badRequest(`limit must be a whole number from 1 to ${SEARCH_MAX_LIMIT}.`);
  }
  return { q, limit };
}

/** activityID or name (activityID wins), optional createIfMissing; every present field is checked. */
function parseSelector(body: JsonObject): ActivitySelector {
  const activityID = optionalString(body, 'activityID');
  if (activityID !== undefined && !UUID_PATTERN.test(activityID)) throw badRequest('activityID must be a UUID.');
  const rawName = optionalString(body, 'name');
  const name = rawName?.trim();
  if (name !== undefined && name.length === 0) throw badRequest('name must not be empty.');
  if (name !== undefined && characters(name) > NAME_MAX_LENGTH) {
    throw badRequest(`name must be at most ${NAME_MAX_LENGTH} characters.`);
  }
  if (activityID === undefined && name === undefined) throw badRequest('Give activityID or name.');
  const createIfMissing = body['createIfMissing'];
  if (createIfMissing !== undefined && createIfMissing !== null && typeof createIfMissing !== 'boolean') {
    throw badRequest('createIfMissing must be true or false.');
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
  if (typeof value !== 'string') throw badRequest(`${key} must be a string.`);
  return value;
}

/** Limits count characters (code points), not UTF-16 units, so an emoji counts once. */
function characters(text: string): number {
  return Array.from(text).length;
}
