/**
 * dist/client.js's transport: for scripts, the client stays one file that needs nothing beside
 * it, so esbuild.mjs builds it with this module in place of lazyTransport.ts (same exports: the
 * Transport takes the same arguments and answers a call after `close` the same way). The
 * extension's bundle keeps the lazy one, which loads dist/transport.js on the first request.
 */
export { Transport as LazyTransport, type WireRequest, type WireResponse } from './transport';
