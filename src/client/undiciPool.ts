/**
 * undici's Pool, its `request` and its connect time-out error, without the rest of undici. The
 * package's entry point also loads fetch, WebSocket, EventSource, the caches and the mock agents,
 * which esbuild cannot drop from a CommonJS package: 535 KB of a 600 KB budget for the extension's
 * bundle. These modules are all that `pool.request(...)` runs on (the entry point only copies
 * `request` onto Dispatcher.prototype), and the Pool loads the errors itself, so they cost no byte
 * more. These paths inside undici's lib/ are no public API, and a minor release may move them:
 * so package.json pins undici to its patch releases (`~7.30.2`), and a move to a newer minor is a
 * change made on purpose. test/unit/client/undiciPool.test.ts fails if an undici update moves them.
 */
import type { buildConnector, Dispatcher } from 'undici';
import requestFrom from 'undici/lib/api/api-request';
import { ConnectTimeoutError } from 'undici/lib/core/errors';
import Pool from 'undici/lib/dispatcher/pool';

export { ConnectTimeoutError, Pool };

/** What the pool calls to open a connection (its `connect` option). */
export type Connector = buildConnector.connector;

export function request(pool: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return requestFrom.call(pool, options);
}
