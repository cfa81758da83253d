/**
 * The application's own JavaScript SDK runs on Node's built-in `fetch` (undici's), which adds
 * `sec-fetch-mode: cors` to every request. That header alone is not a browser's (PROTOCOL.md §2,
 * step 0), so a request signed as the SDK signs it must be served, not refused as a web page's.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signingHeaderNames } from '../../../src/protocol/headers';
import { signRequest, timestampFor } from '../../../src/protocol/signing';
import { startServer, TEST_TOKEN, type StartedServer } from '../../support/server';

/** One request as the SDK makes it: Node's `fetch`, the four signing headers, a JSON body on POST. */
function sdkFetch(started: StartedServer, method: 'GET' | 'POST', target: string, body?: string): Promise<Response> {
  const names = signingHeaderNames();
  const timestamp = timestampFor(started.clock());
  const nonce = randomBytes(16).toString('hex');
  const signature = signRequest({ token: TEST_TOKEN, method, target, timestamp, nonce, body });
  return fetch(`http://127.0.0.1:${started.port}${target}`, {
    method,
    headers: {
      [names.token]: TEST_TOKEN,
      [names.timestamp]: timestamp,
      [names.nonce]: nonce,
      [names.signature]: signature,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json; charset=utf-8' }),
    },
    ...(body === undefined ? {} : { body }),
  });
}

/** The headers Node's `fetch` sends, as a plain server receives them. */
async function headersNodeFetchSends(): Promise<Record<string, string | string[] | undefined>> {
  let seen: Record<string, string | string[] | undefined> = {};
  const echo = createServer((request, response) => {
    seen = { ...request.headers };
    response.end();
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  try {
    await (await fetch(`http://127.0.0.1:${(echo.address() as AddressInfo).port}/`)).arrayBuffer();
  } finally {
    await new Promise<void>((resolve) => echo.close(() => resolve()));
  }
  return seen;
}

describe("server: the app's own JavaScript SDK, on Node's built-in fetch, is served (PROTOCOL.md §2, step 0)", () => {
  let started: StartedServer;

  beforeEach(async () => {
    started = await startServer();
  });

  afterEach(async () => {
    await started.server.close();
  });

  it('sends sec-fetch-mode: cors, as the reason this test exists', async () => {
    assert.equal((await headersNodeFetchSends())['sec-fetch-mode'], 'cors');
  });

  it('answers GET /status and POST /activities/start signed as the SDK signs them with 200', async () => {
    const status = await sdkFetch(started, 'GET', '/status');
    assert.equal(status.status, 200, await status.clone().text());
    assert.equal(((await status.json()) as { result: { isTracking: boolean } }).result.isTracking, false);

    started.server.controls.state.seedActivity('Deep work');
    const start = await sdkFetch(started, 'POST', '/activities/start', JSON.stringify({ name: 'Deep work' }));
    assert.equal(start.status, 200, await start.clone().text());
    const after = await sdkFetch(started, 'GET', '/status');
    assert.equal(((await after.json()) as { result: { isTracking: boolean } }).result.isTracking, true);
    assert.deepEqual(
      started.server.controls.debugView().map((record) => record.status),
      [200, 200, 200],
    );
  });
});
