/**
 * What `headerPrefix: auto` learned about an app and token, shared by every window through
 * globalState: a new client starts from it, and tells it what it learns, so that a reload, a new
 * window or an app restart does not spend a failed sign-in on the wrong prefix again. The record
 * itself (keyed by a hash, never the token) is src/tracker/model/learnedPrefix.ts.
 */
import type { HeaderPrefix } from '../client';
import { errorMessage } from '../platform/errors';
import { STORAGE_KEYS } from '../tracker/ids';
import type { Channel } from '../tracker/model/channel';
import { learnedPrefixKey, recallLearned, rememberPrefix } from '../tracker/model/learnedPrefix';
import type { Log } from './oneLineLog';

/** Where a record is kept: globalState, or a test's stand-in for it (also ./privacyMemory.ts's). */
export interface StateStore {
  get(key: string): unknown;
  update(key: string, value: unknown): Thenable<void>;
}

/** The two options of a ServiceClient that read and keep the learned prefix. */
export interface PrefixMemory {
  readonly learnedHeaderPrefix: () => HeaderPrefix | undefined;
  readonly onHeaderPrefix: (prefix: HeaderPrefix) => void;
}

/** The memory of `channel`'s app and token; `where` names the route in the log. */
export function prefixMemory(
  memento: StateStore,
  log: Pick<Log, 'info' | 'warn'>,
  channel: Exclude<Channel, { kind: 'none' }>,
  where: string,
): PrefixMemory {
  const key = learnedPrefixKey(channel);
  const stored = (): unknown => memento.get(STORAGE_KEYS.learnedHeaderPrefixes);
  // The newest write this memory has seen, its own or another window's. globalState hands back an
  // echo of each write, and the echo of an older write may come after a newer one: taken for news,
  // it would send the next request with the prefix the app just refused.
  let newestSeen = 0;
  return {
    learnedHeaderPrefix: () => {
      const learned = recallLearned(stored(), key);
      if (learned === undefined || learned.generation < newestSeen) return undefined;
      newestSeen = learned.generation;
      return learned.prefix;
    },
    onHeaderPrefix: (prefix) => {
      log.info(`The app answers to X-${prefix}-* headers ${where}; they are used from now on.`);
      const record = rememberPrefix(stored(), key, prefix);
      newestSeen = record[key]?.generation ?? newestSeen;
      void Promise.resolve(memento.update(STORAGE_KEYS.learnedHeaderPrefixes, record)).catch((error: unknown) =>
        log.warn(`Keeping the header prefix for the next window failed: ${errorMessage(error)}`),
      );
    },
  };
}
