import * as assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as undici from 'undici';
import requestFrom from 'undici/lib/api/api-request';
import { ConnectTimeoutError, Pool, request } from '../../../src/client/undiciPool';

describe('client/undiciPool: undici without its entry point', () => {
  it("loads the very Pool, request and connect time-out error of undici's public API (an update that moves them fails here)", () => {
    assert.equal(Pool, undici.Pool);
    assert.equal(ConnectTimeoutError, undici.errors.ConnectTimeoutError);
    // The entry point copies `request` onto Dispatcher.prototype: the one undiciPool calls.
    const publicRequest = (undici.Dispatcher.prototype as unknown as { request: unknown }).request;
    assert.equal(typeof publicRequest, 'function');
    assert.equal(requestFrom, publicRequest);
  });

  it('sends a request through the pool and reads the answer', async () => {
    const server = createServer((incoming, answer) => {
      answer.setHeader('content-type', 'text/plain');
      answer.end(`${incoming.method} ${incoming.url}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const pool = new Pool(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      const response = await request(pool, { method: 'GET', path: '/status?x=1' });
      assert.equal(response.statusCode, 200);
      assert.equal(await response.body.text(), 'GET /status?x=1');
    } finally {
      await pool.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
