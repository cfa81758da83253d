/**
 * undici's Pool, its `request` and its connector, without the rest of undici. The package's entry
 * point also loads fetch, WebSocket, EventSource, the caches and the mock agents, which esbuild
 * cannot drop from a CommonJS package: 535 KB of a 600 KB budget for the extension's bundle. These
 * modules are all that `pool.request(...)` runs on (the entry point only copies `request` onto
 * Dispatcher.prototype), and the Pool loads the connector itself, so it costs no byte more.
 * test/unit/client/undiciPool.test.ts fails if an undici update moves them.
 */
import type { Dispatcher } from 'undici';
import requestFrom from 'undici/lib/api/api-request';
import buildConnector from 'undici/lib/core/connect';
import Pool from 'undici/lib/dispatcher/pool';

export { buildConnector, Pool };

export function request(pool: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData> {
  return requestFrom.call(pool, options);
}
