/**
 * Turns raw request bytes and query strings into the JSON the rules of src/protocol/rules.ts
 * check, or a 400 with one sentence (PROTOCOL.md §2 step 7).
 */
import { checkSearchQuery, type JsonObject } from '../protocol/rules';
import type { SearchQuery } from '../protocol/types';
import { badRequest } from './errors';

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
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

/** `q` is required (it may be empty); `limit` is optional, 1 to 100. */
export function parseSearchQuery(queryString: string): Required<SearchQuery> {
  const params = new URLSearchParams(queryString);
  const queries = params.getAll('q');
  if (queries.length === 0) throw badRequest('The query parameter q is required (it may be empty).');
  if (queries.length > 1) throw badRequest('Give the query parameter q only once.');
  const limits = params.getAll('limit');
  if (limits.length > 1) throw badRequest('Give the query parameter limit only once.');
  const limitText = limits[0];
  // Anything but plain digits becomes NaN, which the shared rule refuses like any bad number.
  const limit = limitText === undefined ? undefined : /^[0-9]{1,4}$/.test(limitText) ? Number(limitText) : NaN;
  return checkSearchQuery(queries[0], limit);
}
