import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AnswerLostError,
  AuthenticationError,
  ConnectionError,
  HttpError,
  ServiceClient,
  type HeaderPrefix,
  type ServiceClientOptions,
} from '../../../src/client';
import { provesAuthentication } from '../../../src/client/headerPrefixChoice';
import { startAnswerLosingProxy, startCannedServer, type FaultServer } from '../../support/faults';
import { signedSend } from '../../support/http';
import { freePort } from '../../support/process';
import { createReferenceServer } from '../../../src/server/server';
import { startServer, TEST_TOKEN, type StartedServer } from '../../support/server';
import { rejection } from '../../support/rejection';

/** The requests the server saw, as `<status>`, oldest first. */
const statuses = (started: StartedServer): number[] =>
  started.server.controls.debugView().map((record) => record.status);
const count401 = (started: StartedServer): number => statuses(started).filter((status) => status === 401).length;

describe("client: headerPrefix 'auto' learns the app's prefix with at most one extra failed sign-in", () => {
  let started: StartedServer | undefined;
  const closers: (() => Promise<void>)[] = [];
  let settled: HeaderPrefix[];

  beforeEach(() => {
    settled = [];
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await started?.server.close();
    started = undefined;
  });

  const autoClient = (port: number, options: ServiceClientOptions = {}): ServiceClient => {
    const client = new ServiceClient({
      token: TEST_TOKEN,
      port,
      headerPrefix: 'auto',
      onHeaderPrefix: (prefix) => settled.push(prefix),
      ...(started ? { clock: started.clock } : {}),
      ...options,
    });
    closers.push(() => client.close());
    return client;
  };

  it('takes as proof of the prefix only the statuses the service gives after authentication', () => {
    const proving = [200, 201, 204, 400, 404, 405, 409, 413, 423, 503];
    for (let status = 100; status < 600; status++) {
      assert.equal(
        provesAuthentication(status),
        proving.includes(status) || (status >= 200 && status < 300),
        String(status),
      );
    }
    for (const status of [401, 403, 429, 500, 502]) assert.equal(provesAuthentication(status), false, String(status));
  });

  it('against a pre-rebrand app: one 401, then NowDoing for good', async () => {
    started = await startServer({ headerPrefix: 'NowDoing' });
    const client = autoClient(started.port);
    assert.equal(client.headerPrefix, 'Clessira', 'undecided: Clessira first');
    assert.equal((await client.getStatus()).isTracking, false);
    assert.deepEqual(statuses(started), [401, 200]);
    assert.equal(client.headerPrefix, 'NowDoing');
    assert.deepEqual(settled, ['NowDoing']);
    await client.startActivity({ name: 'Old app', createIfMissing: true });
    await client.getCurrent();
    await client.stopActivity();
    assert.deepEqual(statuses(started), [401, 200, 200, 200, 200], 'no 401 after the choice');
    assert.deepEqual(settled, ['NowDoing'], 'told once');
  });

  it('does a POST refused with 401 once, not twice, when it re-signs it for NowDoing', async () => {
    started = await startServer({ headerPrefix: 'NowDoing' });
    const client = autoClient(started.port);
    await client.logEntry({ name: 'Once', durationMinutes: 10, createIfMissing: true });
    assert.deepEqual(statuses(started), [401, 201]);
    assert.equal(started.server.controls.state.listEntries().length, 1);
  });

  it('against a current app: no 401 at all, Clessira for good', async () => {
    started = await startServer();
    const client = autoClient(started.port);
    await client.healthcheck();
    await client.getStatus();
    assert.deepEqual(statuses(started), [200, 200]);
    assert.equal(client.headerPrefix, 'Clessira');
    assert.deepEqual(settled, ['Clessira']);
  });

  it('with a wrong token: two 401s on the first call, one on each later call, and Clessira kept', async () => {
    started = await startServer({ headerPrefix: 'NowDoing' });
    const client = autoClient(started.port, { token: 'wrong-token-value' });
    const first = await rejection(client.getStatus());
    assert.ok(first instanceof AuthenticationError && first.clockSkewSeconds === undefined);
    assert.equal(first.message.includes('wrong-token-value'), false);
    assert.equal(count401(started), 2);
    assert.equal(client.headerPrefix, 'Clessira');
    // Two 401s teach nothing about the prefix (only an authenticated answer does), so
    // nothing is reported, and nothing is kept for the next window under this wrong token.
    assert.deepEqual(settled, []);
    for (let call = 1; call <= 3; call++) {
      assert.ok((await rejection(client.getStatus())) instanceof AuthenticationError);
      assert.equal(count401(started), 2 + call, `call ${call + 1}`);
    }
    assert.deepEqual(settled, []);
  });

  it('lets one of five concurrent undecided calls probe; the others wait and use its answer', async () => {
    started = await startServer({ headerPrefix: 'NowDoing' });
    const client = autoClient(started.port);
    const results = await Promise.all([
      client.getStatus(),
      client.getCurrent(),
      client.healthcheck(),
      client.getStatus(),
      client.searchActivities(''),
    ]);
    assert.equal(results.length, 5);
    assert.equal(count401(started), 1);
    assert.deepEqual(statuses(started), [401, 200, 200, 200, 200, 200]);
    assert.deepEqual(settled, ['NowDoing']);
  });

  it('takes a 401 with a Date far from the local clock for a clock problem: no NowDoing try, still undecided', async () => {
    started = await startServer({ headerPrefix: 'NowDoing' });
    const server = started;
    let offsetMs = -300_000;
    const client = autoClient(server.port, { clock: () => server.clock() + offsetMs });
    const error = await rejection(client.getStatus());
    assert.ok(error instanceof AuthenticationError && error.clockSkewSeconds === 300);
    assert.deepEqual(statuses(server), [401]);
    assert.deepEqual(settled, []);
    offsetMs = 0;
    await client.getStatus();
    assert.deepEqual(statuses(server), [401, 401, 200]);
    assert.deepEqual(settled, ['NowDoing']);
  });

  it('leaves the choice open after a 429 lockout, and makes it once the lockout is over', async () => {
    started = await startServer({ headerPrefix: 'NowDoing' });
    const server = started;
    for (let i = 0; i < 11; i++) {
      await signedSend(server, {
        method: 'GET',
        target: '/status',
        token: 'wrong-token-value',
        headerPrefix: 'NowDoing',
      });
    }
    const client = autoClient(server.port);
    const lockedOut = await rejection(client.getStatus());
    assert.ok(lockedOut instanceof HttpError && lockedOut.status === 429);
    assert.deepEqual(statuses(server).slice(11), [429], 'no NowDoing try on a 429');
    assert.equal(client.headerPrefix, 'Clessira');
    assert.deepEqual(settled, []);
    server.clock.advance(61_000);
    await client.getStatus();
    assert.deepEqual(statuses(server).slice(11), [429, 401, 200]);
    assert.deepEqual(settled, ['NowDoing']);
  });

  it('leaves the choice open after a 403 and after no connection at all', async () => {
    const answers = [403, 401, 200];
    const seen: string[] = [];
    const canned: FaultServer = await startCannedServer((request) => {
      const status = answers.shift() ?? 500;
      seen.push(`${request.headers['x-nowdoing-token'] === undefined ? 'Clessira' : 'NowDoing'} ${status}`);
      return { status, body: status === 200 ? '{"ok":true,"result":{"isTracking":false}}' : '{"error":"no"}' };
    });
    closers.push(() => canned.close());
    const client = autoClient(canned.port);
    const forbidden = await rejection(client.getStatus());
    assert.ok(forbidden instanceof HttpError && forbidden.status === 403);
    assert.equal(client.headerPrefix, 'Clessira');
    assert.deepEqual(settled, []);
    await client.getStatus();
    assert.deepEqual(seen, ['Clessira 403', 'Clessira 401', 'NowDoing 200'], 'the call after the 403 probed again');
    assert.deepEqual(settled, ['NowDoing']);

    // The app is not running yet: refused, nothing settled; it starts, and the next call probes.
    settled = [];
    const port = await freePort();
    const early = autoClient(port);
    const refused = await rejection(early.getStatus());
    assert.ok(refused instanceof ConnectionError && !refused.sent);
    assert.deepEqual(settled, []);
    const late = createReferenceServer({ token: TEST_TOKEN, headerPrefix: 'NowDoing' });
    closers.push(() => late.close());
    await late.listen(port);
    await early.getStatus();
    assert.deepEqual(
      late.controls.debugView().map((record) => record.status),
      [401, 200],
    );
    assert.deepEqual(settled, ['NowDoing']);
  });

  it('keeps the safe re-send: an answer lost after the service took the request is AnswerLostError, and settles Clessira', async () => {
    started = await startServer();
    const proxy = await startAnswerLosingProxy(started.port);
    closers.push(() => proxy.close());
    const client = autoClient(proxy.port);
    const error = await rejection(client.logEntry({ name: 'Once', durationMinutes: 25, createIfMissing: true }));
    assert.ok(error instanceof AnswerLostError);
    assert.equal(started.server.controls.state.listEntries().length, 1);
    assert.deepEqual(statuses(started), [201, 409]);
    assert.deepEqual(settled, ['Clessira']);
  });

  it('lets the NowDoing try finish when its caller aborts, so that the choice is made once', async () => {
    // Answers Clessira with 401 at once and NowDoing with 200 only when the test says so.
    const prefixes: string[] = [];
    let releaseNowDoing: (() => void) | undefined;
    let nowDoingArrived: () => void = () => undefined;
    const arrived = new Promise<void>((resolve) => (nowDoingArrived = resolve));
    const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
      request.resume();
      const nowDoing = request.headers['x-nowdoing-token'] !== undefined;
      prefixes.push(nowDoing ? 'NowDoing' : 'Clessira');
      const answer = (status: number): void =>
        void response
          .writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
          .end(status === 200 ? '{"ok":true,"result":{"isTracking":false}}' : '{"error":"no"}');
      if (!nowDoing) return answer(401);
      if (releaseNowDoing) return answer(200);
      releaseNowDoing = () => answer(200);
      nowDoingArrived();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const client = autoClient((server.address() as AddressInfo).port);

    const controller = new AbortController();
    const aborted = rejection(client.getStatus({ signal: controller.signal }));
    const waiting = client.getCurrent();
    await arrived;
    controller.abort();
    assert.equal(((await aborted) as Error).name, 'AbortError', 'the caller is answered at once');
    assert.deepEqual(settled, [], 'the NowDoing answer is still on its way');
    releaseNowDoing?.();
    await waiting;
    assert.deepEqual(settled, ['NowDoing']);
    assert.equal(client.headerPrefix, 'NowDoing');
    assert.deepEqual(
      prefixes,
      ['Clessira', 'NowDoing', 'NowDoing'],
      'the waiting call used the answer, without a probe of its own',
    );
  });
});
