/**
 * What `headerPrefix: auto` learned about an app, kept beyond one client: per app (the channel's
 * route) and token, in one record the extension stores in globalState, so that a reload, another
 * window or an app restart with the same token signs in at once instead of spending a failed
 * sign-in on the wrong prefix again. The record is keyed by a hash of route and token, never the
 * token itself, and holds only the newest few apps. Pure: the extension reads and writes the record.
 */
import { createHash } from 'node:crypto';
import { isHeaderPrefix, type HeaderPrefix } from '../../protocol/headers';
import type { Channel } from './channel';

/** Apps (route and token pairs) remembered at most; the oldest learned goes first. */
export const MAX_LEARNED_PREFIXES = 16;

/**
 * What was learned for one app and token. `generation` counts the writes for that key: VS Code
 * hands a window back the echo of each of its own globalState writes, and an echo of an older write
 * can come after a newer one, so the memory needs to tell "older than what I wrote" from "another
 * window learned something since".
 */
export interface LearnedPrefix {
  readonly prefix: HeaderPrefix;
  readonly generation: number;
}

/** Learned prefixes by `learnedPrefixKey`, oldest first. */
export type LearnedPrefixes = Readonly<Record<string, LearnedPrefix>>;

/**
 * The record key of an app and token: sha256 of route and token, cut to 128 bits. The app's
 * process id is left out, so a restart of the same app with the same token finds it again.
 */
export function learnedPrefixKey(channel: Exclude<Channel, { kind: 'none' }>): string {
  const where =
    channel.kind === 'integration' ? ['integration', channel.route.socketPath] : ['http', channel.route.port];
  return createHash('sha256')
    .update(JSON.stringify([...where, channel.token]))
    .digest('hex')
    .slice(0, 32);
}

/** The entry learned for `key`; undefined when none, or when the record is not one (a damaged value). */
export function recallLearned(record: unknown, key: string): LearnedPrefix | undefined {
  if (typeof record !== 'object' || record === null || !Object.hasOwn(record, key)) return undefined;
  return asLearned((record as Record<string, unknown>)[key]);
}

/** The record with `prefix` learned for `key`, as its newest entry; a damaged record starts afresh. */
export function rememberPrefix(record: unknown, key: string, prefix: HeaderPrefix): LearnedPrefixes {
  const kept: [string, LearnedPrefix][] = [];
  for (const [other, value] of Object.entries(typeof record === 'object' && record !== null ? record : {})) {
    const entry = asLearned(value);
    if (other !== key && entry !== undefined) kept.push([other, entry]);
  }
  const generation = Math.min((recallLearned(record, key)?.generation ?? 0) + 1, Number.MAX_SAFE_INTEGER);
  const newest: [string, LearnedPrefix] = [key, { prefix, generation }];
  return Object.fromEntries([...kept, newest].slice(-MAX_LEARNED_PREFIXES));
}

function asLearned(value: unknown): LearnedPrefix | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { prefix, generation } = value as { prefix?: unknown; generation?: unknown };
  if (typeof prefix !== 'string' || !isHeaderPrefix(prefix)) return undefined;
  return Number.isSafeInteger(generation) && (generation as number) >= 0
    ? { prefix, generation: generation as number }
    : undefined;
}
