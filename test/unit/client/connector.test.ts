/**
 * The pool's connector: it opens connections without `net.connect` (which VS Code's extension
 * host wraps with a certificate loader that runs on every connection), and keeps the codes the
 * transport sorts failures by.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { holdingConnector } from '../../../src/client/connector';
import { Pool, request } from '../../../src/client/undiciPool';
import { countNetConnects } from '../../support/netConnectCounter';
import { rejection } from '../../support/rejection';
import { stalledListener } from '../../support/stalledListener';

describe('client/connector: opening the connections of the pool', () => {
  it("connects without net.connect, which VS Code's extension host wraps", async () => {
    const server = createServer((_incoming, answer) => answer.end('here'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, {
      connect: holdingConnector({ timeoutMs: 5_000 }),
    });
    try {
      const { result, calls } = await countNetConnects(async () =>
        (await request(pool, { method: 'GET', path: '/status' })).body.text(),
      );
      assert.equal(result, 'here');
      assert.equal(calls, 0, 'the connection did not go through net.connect');
    } finally {
      await pool.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("fails with undici's connect time-out code when a connect neither succeeds nor fails", async function () {
    if (process.platform === 'win32') this.skip();
    const listener = await stalledListener();
    const pool = new Pool(`http://127.0.0.1:${listener.port}`, { connect: holdingConnector({ timeoutMs: 200 }) });
    try {
      const started = Date.now();
      const error = await rejection(request(pool, { method: 'GET', path: '/status' }));
      assert.equal((error as { code?: unknown }).code, 'UND_ERR_CONNECT_TIMEOUT', String(error));
      assert.match(String(error), new RegExp(`Connecting to 127\\.0\\.0\\.1:${listener.port} took longer than 200 ms`));
      assert.ok(Date.now() - started < 2_000, 'the time-out bounded the connect');
    } finally {
      await pool.destroy();
      listener.close();
    }
  });
});
