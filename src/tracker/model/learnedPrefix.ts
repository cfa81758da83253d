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

/** Learned prefixes by `learnedPrefixKey`, oldest first. */
export type LearnedPrefixes = Readonly<Record<string, HeaderPrefix>>;

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

/** The prefix learned for `key`; undefined when none, or when the record is not one (an older or damaged value). */
export function recallPrefix(record: unknown, key: string): HeaderPrefix | undefined {
  if (typeof record !== 'object' || record === null || !Object.hasOwn(record, key)) return undefined;
  const prefix: unknown = (record as Record<string, unknown>)[key];
  return typeof prefix === 'string' && isHeaderPrefix(prefix) ? prefix : undefined;
}

/** The record with `prefix` learned for `key`, as its newest entry; a damaged record starts afresh. */
export function rememberPrefix(record: unknown, key: string, prefix: HeaderPrefix): LearnedPrefixes {
  const kept = Object.entries(typeof record === 'object' && record !== null ? record : {}).filter(
    (entry): entry is [string, HeaderPrefix] =>
      entry[0] !== key && typeof entry[1] === 'string' && isHeaderPrefix(entry[1]),
  );
  const newest: [string, HeaderPrefix] = [key, prefix];
  return Object.fromEntries([...kept, newest].slice(-MAX_LEARNED_PREFIXES));
}
