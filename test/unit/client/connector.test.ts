/**
 * The pool's connector: it opens connections without `net.connect` (which VS Code's extension
 * host wraps with a certificate loader that runs on every connection), and keeps the codes the
 * transport sorts failures by.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { holdingConnector } from '../../../src/client/connector';
import { Pool, request } from '../../../src/client/undiciPool';
import { rejection } from '../../support/rejection';
import { stalledListener } from '../../support/stalledListener';

describe('client/connector: opening the connections of the pool', () => {
  it("connects without net.connect, which VS Code's extension host wraps", async () => {
    const server = createServer((_incoming, answer) => answer.end('here'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { connect: holdingConnector({ timeoutMs: 5_000 }) });
    const wrapped = { connect: net.connect, createConnection: net.createConnection };
    let calls = 0;
    // What the extension host's proxy agent does, made visible: count calls, then connect as before.
    const counting = ((...args: Parameters<typeof net.connect>) => {
      calls++;
      return wrapped.connect(...args);
    }) as typeof net.connect;
    net.connect = counting;
    net.createConnection = counting;
    try {
      const answer = await request(pool, { method: 'GET', path: '/status' });
      assert.equal(await answer.body.text(), 'here');
      assert.equal(calls, 0, 'the connection did not go through net.connect');
    } finally {
      net.connect = wrapped.connect;
      net.createConnection = wrapped.createConnection;
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
