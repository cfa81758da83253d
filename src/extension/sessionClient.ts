/**
 * One window's client for a channel, as the session builds it: the channel's route (the app's
 * socket or the loopback port) and token, the header prefix setting, and with `auto` the prefix
 * memory every window shares through globalState (./prefixMemory.ts). A test of the client that
 * means "a window's client" builds it here, so it cannot drift from the session's wiring.
 */
import { ServiceClient, type RequestRecord } from '../client';
import { describeRouteForLog, type Channel } from '../tracker/model/channel';
import { prefixMemory, type StateStore } from './prefixMemory';
import type { Settings } from './settings';
import type { Log } from './oneLineLog';

export interface ChannelClientParts {
  /** globalState: what `headerPrefix: auto` learned per app and token, shared by every window. */
  readonly memento: StateStore;
  readonly log: Pick<Log, 'info' | 'warn'>;
  readonly headerPrefix: Settings['headerPrefix'];
  /** Every request the client makes (the session writes one debug line, ./requestLog.ts). */
  readonly onRequest: (record: RequestRecord) => void;
  /** The client's clock; Date.now unless a test moves it. */
  readonly clock?: () => number;
}

/**
 * The client, and in the log where it talks and with which token; throws the client's ConfigurationError for a route it
 * refuses.
 */
export function channelClient(channel: Exclude<Channel, { kind: 'none' }>, parts: ChannelClientParts): ServiceClient {
  const where = describeRouteForLog(channel.route);
  const memory = prefixMemory(parts.memento, parts.log, channel, where);
  const client = new ServiceClient({
    token: channel.token,
    ...(channel.kind === 'integration' ? { socketPath: channel.route.socketPath } : { port: channel.route.port }),
    headerPrefix: parts.headerPrefix,
    onRequest: parts.onRequest,
    clock: parts.clock,
    ...memory,
  });
  const source =
    channel.kind === 'integration'
      ? `the token of ${channel.file}, app process ${channel.pid}`
      : `the token from ${channel.tokenSource === 'secretStorage' ? 'secret storage' : channel.tokenSource}`;
  parts.log.info(`Talking to the app ${where}, with ${source}.`);
  const learned = parts.headerPrefix === 'auto' ? memory.learnedHeaderPrefix() : undefined;
  if (learned !== undefined)
    parts.log.info(`Trying X-${learned}-* headers first: a window learned them for this app and token before.`);
  return client;
}
