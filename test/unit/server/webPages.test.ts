import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../../src/client';
import { send, sendOverSocket, signedSend } from '../../support/http';
import { signedHeaders } from '../../support/signing';
import { startServer, TEST_TOKEN, type StartedServer } from '../../support/server';

/**
 * What Chromium sends for `<img src="http://127.0.0.1:PORT/status">` on https://evil.example/:
 * no Origin (an image is a no-cors request), but the Sec-Fetch-* metadata and the Referer.
 */
const chromiumImageHeaders = (port: number): Record<string, string> => ({
  host: `127.0.0.1:${port}`,
  connection: 'keep-alive',
  'sec-ch-ua-platform': '"macOS"',
  'user-agent':
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'sec-ch-ua': '"Google Chrome";v="131", "Chromium";v="131", "Not_A Brand";v="24"',
  'sec-ch-ua-mobile': '?0',
  accept: 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8',
  'sec-fetch-site': 'cross-site',
  'sec-fetch-mode': 'no-cors',
  'sec-fetch-dest': 'image',
  referer: 'https://evil.example/',
  'accept-encoding': 'gzip, deflate, br, zstd',
  'accept-language': 'en-US,en;q=0.9',
});

describe('server: a web page can neither get in nor lock the user out (PROTOCOL.md §2, steps 0 and 2)', () => {
  let started: StartedServer;
  let client: ServiceClient | undefined;

  beforeEach(async () => {
    started = await startServer();
  });

  afterEach(async () => {
    await client?.close();
    client = undefined;
    await started.server.close();
  });

  const signedStatus = (): Promise<number> =>
    signedSend(started, { method: 'GET', target: '/status' }).then((response) => response.status);

  it("refuses twelve <img> requests with Chromium's headers with 403, and a signed client still gets its status", async () => {
    for (let i = 1; i <= 12; i++) {
      const response = await send(started.port, {
        method: 'GET',
        target: '/status',
        headers: chromiumImageHeaders(started.port),
      });
      assert.equal(response.status, 403, `image request ${i}`);
      assert.deepEqual(response.json, { error: 'Requests from web pages (with a sec-fetch-site header) are refused.' });
      assert.equal(
        Object.keys(response.headers).some((name) => name.startsWith('access-control-')),
        false,
      );
    }
    client = new ServiceClient({ token: TEST_TOKEN, port: started.port, clock: started.clock });
    assert.equal((await client.getStatus()).isTracking, false, 'no lockout: the real client is served');
    assert.deepEqual(
      started.server.controls.debugView().map((record) => record.status),
      [...Array.from({ length: 12 }, () => 403), 200],
    );
  });

  it('refuses a Sec-Fetch-Site, a Sec-Fetch-Dest or a Referer alone, also on a correctly signed request and over the socket', async () => {
    const browserHeaders: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin' },
      { 'Sec-Fetch-Site': 'none' },
      { 'sec-fetch-dest': 'document' },
      { 'SEC-FETCH-DEST': 'empty' },
      { referer: `http://127.0.0.1:${started.port}/` },
    ];
    for (const headers of browserHeaders) {
      const response = await signedSend(started, { method: 'GET', target: '/status', headers });
      assert.equal(response.status, 403, JSON.stringify(headers));
      assert.match(
        (response.json as { error: string }).error,
        /^Requests from web pages \(with a (sec-fetch-site|sec-fetch-dest|referer) header\) are refused\.$/,
      );
    }
    const dir = await mkdtemp(join(tmpdir(), 'tt-web-'));
    try {
      const socketPath = join(dir, 'api.sock');
      await started.server.listenOnSocket(socketPath);
      const headers = {
        ...signedHeaders({ token: TEST_TOKEN, method: 'GET', target: '/status', nowMs: started.clock() }),
        referer: 'https://evil.example/',
      };
      assert.equal((await sendOverSocket(socketPath, { method: 'GET', target: '/status', headers })).status, 403);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    assert.equal(await signedStatus(), 200);
  });

  it("serves a signed request with Sec-Fetch-Mode or Sec-Fetch-User alone: Node's fetch sends Sec-Fetch-Mode on every request", async () => {
    const notBrowserShaped: Record<string, string>[] = [
      { 'sec-fetch-mode': 'cors' },
      { 'Sec-Fetch-Mode': 'navigate' },
      { 'sec-fetch-user': '?1' },
      { 'sec-fetch-mode': 'cors', 'sec-fetch-user': '?1', 'Sec-Fetch-Storage-Access': 'active' },
    ];
    for (const headers of notBrowserShaped) {
      const response = await signedSend(started, { method: 'GET', target: '/status', headers });
      assert.equal(response.status, 200, JSON.stringify(headers));
    }
    const unsigned = await send(started.port, {
      method: 'GET',
      target: '/status',
      headers: { 'sec-fetch-mode': 'cors' },
    });
    assert.equal(unsigned.status, 401, 'unsigned, it is refused at step 2 as any unsigned request, and not counted');
  });

  it('does not count a browser request as a failed authentication, even one with all four signing headers', async () => {
    for (let i = 0; i < 15; i++) {
      const headers = {
        ...signedHeaders({ token: 'wrong-token', method: 'GET', target: '/status', nowMs: started.clock() }),
        referer: 'https://evil.example/',
      };
      assert.equal((await send(started.port, { method: 'GET', target: '/status', headers })).status, 403);
    }
    assert.equal(await signedStatus(), 200);
  });

  it('answers twelve GETs without signing headers with 401 each, and starts no lockout', async () => {
    for (let i = 1; i <= 12; i++) {
      const response = await send(started.port, { method: 'GET', target: '/status' });
      assert.equal(response.status, 401, `unsigned request ${i}`);
      assert.match((response.json as { error: string }).error, /^Missing signing headers: /);
    }
    assert.equal(await signedStatus(), 200);
  });

  it('does not count requests that lack any one of the four headers, or carry one empty', async () => {
    const good = signedHeaders({ token: 'wrong-token', method: 'GET', target: '/status', nowMs: started.clock() });
    const names = Object.keys(good);
    for (let i = 0; i < 12; i++) {
      const name = names[i % names.length] ?? '';
      const headers =
        i < 8 ? Object.fromEntries(Object.entries(good).filter(([key]) => key !== name)) : { ...good, [name]: '' };
      const response = await send(started.port, { method: 'GET', target: '/status', headers });
      assert.equal(response.status, 401, JSON.stringify(headers));
      assert.equal((response.json as { error: string }).error, `Missing signing header: ${name}.`);
    }
    assert.equal(await signedStatus(), 200);
  });

  it('counts requests with all four headers and a bad signature: the 11th starts the lockout', async () => {
    for (let i = 1; i <= 11; i++) {
      const headers = {
        ...signedHeaders({ token: TEST_TOKEN, method: 'GET', target: '/status', nowMs: started.clock() }),
        'X-Clessira-Signature': 'ab'.repeat(32),
      };
      const response = await send(started.port, { method: 'GET', target: '/status', headers });
      assert.equal(response.status, 401, `bad signature ${i}`);
      assert.deepEqual(response.json, { error: 'The signature does not match the request.' });
    }
    const locked = await signedSend(started, { method: 'GET', target: '/status' });
    assert.equal(locked.status, 429);
    assert.equal(locked.headers['retry-after'], '60');
  });
});
