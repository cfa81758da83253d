import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { signedHeaders } from '../../support/signing';
import { send, signedSend } from '../../support/http';
import { startServer, TEST_TOKEN, type StartedServer } from '../../support/server';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('server over HTTP: every status of PROTOCOL.md', () => {
  let started: StartedServer;

  beforeEach(async () => {
    started = await startServer();
  });

  afterEach(async () => {
    await started.server.close();
  });

  describe('200 and 201 with the success envelope', () => {
    it('answers GET /healthcheck', async () => {
      const response = await signedSend(started, { method: 'GET', target: '/healthcheck' });
      assert.equal(response.status, 200);
      assert.equal(response.headers['content-type'], 'application/json; charset=utf-8');
      assert.deepEqual(response.json, { ok: true, result: { status: 'ok', license: 'valid', version: '1' } });
    });

    it('walks start, current, status, stop with the service state after each', async () => {
      // Half a second past the full second: startedAt must still come out in whole seconds.
      started.clock.set(Date.UTC(2026, 4, 26, 14, 30, 0, 500));
      const start = await signedSend(started, {
        method: 'POST',
        target: '/activities/start',
        body: { name: ' Deep Work ', createIfMissing: true },
      });
      assert.equal(start.status, 200);
      const started1 = (start.json as { result: { activityID: string } }).result;
      assert.match(started1.activityID, UUID);
      assert.deepEqual(start.json, {
        ok: true,
        result: {
          activityID: started1.activityID,
          activityName: 'Deep Work',
          created: true,
          startedAt: '2026-05-26T14:30:00Z',
          stopped: null,
        },
      });

      started.clock.advance(90_000);
      const current = await signedSend(started, { method: 'GET', target: '/current' });
      assert.deepEqual(
        current.json,
        {
          ok: true,
          result: {
            activityID: started1.activityID,
            activityName: 'Deep Work',
            startedAt: '2026-05-26T14:30:00Z',
            isOnBreak: false,
          },
        },
        'the reference, startedAt in whole seconds and isOnBreak: no elapsedSeconds, nothing else',
      );
      assert.equal(
        current.headers.date,
        'Tue, 26 May 2026 14:31:30 GMT',
        'the client computes the elapsed time from this',
      );
      const status = await signedSend(started, { method: 'GET', target: '/status' });
      assert.deepEqual(status.json, {
        ok: true,
        result: {
          isTracking: true,
          isOnBreak: false,
          currentActivity: { activityID: started1.activityID, activityName: 'Deep Work' },
          todaySeconds: 90,
        },
      });

      const stop = await signedSend(started, { method: 'POST', target: '/activities/stop', body: {} });
      assert.deepEqual(stop.json, {
        ok: true,
        result: { stopped: { activityID: started1.activityID, activityName: 'Deep Work' }, durationSeconds: 90 },
      });
      const again = await signedSend(started, { method: 'POST', target: '/activities/stop' });
      assert.deepEqual(
        again.json,
        { ok: true, result: { stopped: null, durationSeconds: null } },
        'stop is idempotent, also without a body',
      );
      const idle = await signedSend(started, { method: 'GET', target: '/current' });
      assert.deepEqual(idle.json, { ok: true, result: null });
    });

    it('answers POST /entries with 201 and keeps the running state', async () => {
      const { activityID } = started.server.controls.seedActivity('Review');
      const response = await signedSend(started, {
        method: 'POST',
        target: '/entries',
        body: { activityID, name: 'ignored when the id is given', durationMinutes: 2, note: 'PR 12' },
      });
      assert.equal(response.status, 201);
      const result = (response.json as { result: { entryID: string } }).result;
      assert.match(result.entryID, UUID);
      assert.deepEqual(response.json, {
        ok: true,
        result: {
          entryID: result.entryID,
          activityID,
          activityName: 'Review',
          created: false,
          durationMinutes: 2,
          note: 'PR 12',
        },
      });
      assert.equal(started.server.controls.state.listEntries().length, 1);
      const status = await signedSend(started, { method: 'GET', target: '/status' });
      assert.deepEqual(status.json, {
        ok: true,
        result: { isTracking: false, isOnBreak: false, currentActivity: null, todaySeconds: 120 },
      });
    });

    it('searches with q and limit, and carries items beside result (groupName null, PROTOCOL.md §4)', async () => {
      for (const name of ['Backend', 'end', 'Endgame', 'Other']) started.server.controls.seedActivity(name);
      started.server.controls.seedActivity('Frontend', 'Client work');
      const response = await signedSend(started, { method: 'GET', target: '/activities/search?q=END&limit=4' });
      const body = response.json as {
        result: { activityName: string; activityID: string }[];
        items: { id: string; name: string; groupName: string | null }[];
      };
      assert.deepEqual(
        body.result.map((hit) => hit.activityName),
        ['end', 'Endgame', 'Backend', 'Frontend'],
      );
      assert.deepEqual(
        body.items,
        body.result.map((hit) => ({ id: hit.activityID, name: hit.activityName, groupName: null })),
      );
      const all = await signedSend(started, { method: 'GET', target: '/activities/search?q=' });
      assert.equal((all.json as { result: unknown[] }).result.length, 5);
    });

    it('answers POST /branch-changed and records the report, with its repoPath or null', async () => {
      const response = await signedSend(started, {
        method: 'POST',
        target: '/branch-changed',
        body: { branch: 'feature/login', repo: 'shop', previousBranch: 'main', repoPath: ' /Users/me/src/shop ' },
      });
      assert.deepEqual(response.json, { ok: true, result: { prompted: true } });
      const longest = `/${'p'.repeat(4095)}`;
      const withoutPath = await signedSend(started, {
        method: 'POST',
        target: '/branch-changed',
        body: { branch: 'main', repoPath: null },
      });
      assert.equal(withoutPath.status, 200);
      const atLimit = await signedSend(started, {
        method: 'POST',
        target: '/branch-changed',
        body: { branch: 'dev', repoPath: longest },
      });
      assert.equal(atLimit.status, 200, 'a repoPath of exactly 4,096 characters is accepted');
      assert.deepEqual(
        started.server.controls.state
          .listBranchReports()
          .map(({ branch, repo, previousBranch, repoPath }) => ({ branch, repo, previousBranch, repoPath })),
        [
          { branch: 'feature/login', repo: 'shop', previousBranch: 'main', repoPath: '/Users/me/src/shop' },
          { branch: 'main', repo: null, previousBranch: null, repoPath: null },
          { branch: 'dev', repo: null, previousBranch: null, repoPath: longest },
        ],
      );
    });

    it('accepts the pre-rebrand X-NowDoing- headers when configured so, and only those', async () => {
      await started.server.close();
      started = await startServer({ headerPrefix: 'NowDoing' });
      const old = await signedSend(started, { method: 'GET', target: '/status', headerPrefix: 'NowDoing' });
      assert.equal(old.status, 200);
      const current = await signedSend(started, { method: 'GET', target: '/status', headerPrefix: 'Clessira' });
      assert.equal(current.status, 401);
    });

    it('matches signing headers without regard to case', async () => {
      const headers = signedHeaders({ token: TEST_TOKEN, method: 'GET', target: '/status', nowMs: started.clock() });
      const shouted = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value]));
      const response = await send(started.port, { method: 'GET', target: '/status', headers: shouted });
      assert.equal(response.status, 200);
    });

    it('sends the Date header from the service clock', async () => {
      started.clock.set(Date.UTC(2030, 0, 2, 3, 4, 5));
      const response = await signedSend(started, { method: 'GET', target: '/healthcheck' });
      assert.equal(response.headers.date, 'Wed, 02 Jan 2030 03:04:05 GMT');
    });
  });

  describe('400 for invalid payloads', () => {
    const cases: [string, string, string | Record<string, unknown>][] = [
      ['empty branch', '/branch-changed', { branch: '   ' }],
      ['missing branch', '/branch-changed', { repo: 'x' }],
      ['branch over 255 characters', '/branch-changed', { branch: 'b'.repeat(256) }],
      ['durationMinutes of 0', '/entries', { name: 'A', durationMinutes: 0, createIfMissing: true }],
      ['negative durationMinutes', '/entries', { name: 'A', durationMinutes: -5, createIfMissing: true }],
      ['durationMinutes over a day', '/entries', { name: 'A', durationMinutes: 1441, createIfMissing: true }],
      ['durationMinutes as text', '/entries', { name: 'A', durationMinutes: '30', createIfMissing: true }],
      ['durationMinutes of 1.5', '/entries', { name: 'A', durationMinutes: 1.5, createIfMissing: true }],
      ['durationMinutes of 0.5', '/entries', { name: 'A', durationMinutes: 0.5, createIfMissing: true }],
      [
        'durationMinutes just over a whole number',
        '/entries',
        '{"name":"A","durationMinutes":1440.0000000001,"createIfMissing":true}',
      ],
      ['a repoPath that is not a string', '/branch-changed', { branch: 'main', repoPath: 42 }],
      ['an empty repoPath', '/branch-changed', { branch: 'main', repoPath: '  ' }],
      ['a repoPath over 4096 characters', '/branch-changed', { branch: 'main', repoPath: `/${'p'.repeat(4096)}` }],
      ['neither activityID nor name', '/entries', { durationMinutes: 30 }],
      ['an activityID that is no UUID', '/activities/start', { activityID: '42' }],
      ['a name of 201 characters', '/activities/start', { name: 'n'.repeat(201), createIfMissing: true }],
      ['createIfMissing as text', '/activities/start', { name: 'A', createIfMissing: 'yes' }],
      [
        'a note over 2000 characters',
        '/entries',
        { name: 'A', durationMinutes: 5, note: 'x'.repeat(2001), createIfMissing: true },
      ],
      ['a JSON array', '/activities/start', '[]'],
      ['broken JSON', '/activities/start', '{"name":'],
      ['a __proto__ key', '/activities/start', '{"name":"A","__proto__":{"admin":true}}'],
      ['a nested constructor key', '/entries', '{"name":"A","durationMinutes":5,"x":{"constructor":1}}'],
      ['no body on start', '/activities/start', ''],
      ['a stop body that is not an object', '/activities/stop', '"stop"'],
    ];
    for (const [what, target, body] of cases) {
      it(`refuses ${what}`, async () => {
        const response = await signedSend(started, { method: 'POST', target, body });
        assert.equal(response.status, 400, response.text);
        assert.deepEqual(Object.keys(response.json as object), ['error']);
        assert.equal(
          started.server.controls.state.listEntries().length + started.server.controls.state.listBranchReports().length,
          0,
          'nothing was stored',
        );
      });
    }

    it('says in one sentence why 1.5 minutes are refused, and logs nothing', async () => {
      const response = await signedSend(started, {
        method: 'POST',
        target: '/entries',
        body: { name: 'A', durationMinutes: 1.5, createIfMissing: true },
      });
      assert.equal(response.status, 400);
      assert.equal(
        response.text,
        '{"error":"durationMinutes must be a whole number of minutes from 1 to 1440, not 1.5."}',
      );
      assert.deepEqual(started.server.controls.state.listActivities(), [], 'not even the activity was created');
    });

    it('refuses search without q, with a bad limit, or with q over 200 characters', async () => {
      for (const target of [
        '/activities/search',
        '/activities/search?q=a&limit=0',
        '/activities/search?q=a&limit=101',
        '/activities/search?q=a&limit=ten',
        `/activities/search?q=${'q'.repeat(201)}`,
      ]) {
        const response = await signedSend(started, { method: 'GET', target });
        assert.equal(response.status, 400, target);
      }
    });

    it('refuses a body that is not UTF-8', async () => {
      const response = await signedSend(started, {
        method: 'POST',
        target: '/activities/start',
        body: new Uint8Array([0x7b, 0xff, 0x7d]),
      });
      assert.equal(response.status, 400);
    });
  });

  describe('401 for failed authentication', () => {
    it('refuses a wrong token, a bad signature, missing headers and a malformed timestamp', async () => {
      const good = signedHeaders({ token: TEST_TOKEN, method: 'GET', target: '/status', nowMs: started.clock() });
      const variants: Record<string, string>[] = [
        { ...signedHeaders({ token: 'wrong-token', method: 'GET', target: '/status', nowMs: started.clock() }) },
        { ...good, 'X-Clessira-Signature': '0'.repeat(64) },
        Object.fromEntries(Object.entries(good).filter(([name]) => name !== 'X-Clessira-Nonce')),
        {},
        { ...good, 'X-Clessira-Timestamp': `0${good['X-Clessira-Timestamp'] ?? ''}` },
      ];
      for (const headers of variants) {
        const response = await send(started.port, { method: 'GET', target: '/status', headers });
        assert.equal(response.status, 401, JSON.stringify(headers));
        assert.equal(typeof (response.json as { error: unknown }).error, 'string');
      }
    });

    it('refuses a signature made for another target or body', async () => {
      const headers = signedHeaders({ token: TEST_TOKEN, method: 'GET', target: '/status', nowMs: started.clock() });
      assert.equal((await send(started.port, { method: 'GET', target: '/status?x=1', headers })).status, 401);
      const post = signedHeaders({
        token: TEST_TOKEN,
        method: 'POST',
        target: '/entries',
        body: '{}',
        nowMs: started.clock(),
      });
      assert.equal(
        (await send(started.port, { method: 'POST', target: '/entries', headers: post, body: '{ }' })).status,
        401,
      );
    });

    it('accepts a drift of exactly 60 s either way and refuses 61 s', async () => {
      const now = started.clock();
      for (const offset of [-60_000, 60_000]) {
        assert.equal(
          (await signedSend(started, { method: 'GET', target: '/status', nowMs: now + offset })).status,
          200,
          String(offset),
        );
      }
      for (const offset of [-61_000, 61_000]) {
        const response = await signedSend(started, { method: 'GET', target: '/status', nowMs: now + offset });
        assert.equal(response.status, 401, String(offset));
        assert.match((response.json as { error: string }).error, /61 s/);
      }
    });

    it('never echoes the token in an answer', async () => {
      const response = await signedSend(started, { method: 'GET', target: '/status', token: 'my-secret-token-value' });
      assert.equal(response.status, 401);
      assert.equal(response.text.includes('my-secret-token-value'), false);
      assert.equal(response.text.includes(TEST_TOKEN), false);
    });
  });

  describe('403 loopback hardening', () => {
    it('refuses a foreign, missing or portless Host, and accepts localhost', async () => {
      for (const host of [
        'evil.example:80',
        `evil.example:${started.port}`,
        '127.0.0.1',
        `127.0.0.2:${started.port}`,
      ]) {
        const response = await signedSend(started, { method: 'GET', target: '/status', headers: { host } });
        assert.equal(response.status, 403, host);
      }
      const missing = await new Promise<string>((resolve) => {
        const socket = connect(started.port, '127.0.0.1', () => socket.end('GET /status HTTP/1.0\r\n\r\n'));
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('close', () => resolve(text));
      });
      assert.match(missing, /^HTTP\/1\.1 403 /);
      const local = await signedSend(started, {
        method: 'GET',
        target: '/status',
        headers: { host: `LOCALHOST:${started.port}` },
      });
      assert.equal(local.status, 200);
    });

    it('refuses any request with an Origin header and any OPTIONS, with no CORS headers', async () => {
      const withOrigin = await signedSend(started, {
        method: 'GET',
        target: '/status',
        headers: { origin: 'http://127.0.0.1:3000' },
      });
      const options = await signedSend(started, { method: 'OPTIONS', target: '/status' });
      for (const response of [withOrigin, options]) {
        assert.equal(response.status, 403);
        assert.equal(
          Object.keys(response.headers).some((name) => name.startsWith('access-control-')),
          false,
        );
      }
    });

    it('does not count loopback refusals as failed authentications', async () => {
      for (let i = 0; i < 15; i++) {
        const response = await send(started.port, {
          method: 'GET',
          target: '/status',
          headers: { origin: 'http://evil.example' },
        });
        assert.equal(response.status, 403);
      }
      assert.equal((await signedSend(started, { method: 'GET', target: '/status' })).status, 200);
    });
  });

  describe('404, 405, 409, 413', () => {
    it('answers 404 for an unknown path and for an unknown activity', async () => {
      assert.equal((await signedSend(started, { method: 'GET', target: '/nope' })).status, 404);
      assert.equal((await signedSend(started, { method: 'GET', target: '/status/' })).status, 404);
      const unknownName = await signedSend(started, {
        method: 'POST',
        target: '/entries',
        body: { name: 'Nobody', durationMinutes: 5 },
      });
      assert.equal(unknownName.status, 404);
      const unknownId = await signedSend(started, {
        method: 'POST',
        target: '/activities/start',
        body: { activityID: '00000000-0000-4000-8000-000000000000', createIfMissing: true },
      });
      assert.equal(unknownId.status, 404);
      assert.equal(started.server.controls.state.listEntries().length, 0);
    });

    it('answers 405 with Allow for a known path and the wrong method', async () => {
      const wrongPost = await signedSend(started, { method: 'POST', target: '/status', body: {} });
      assert.equal(wrongPost.status, 405);
      assert.equal(wrongPost.headers.allow, 'GET');
      const wrongGet = await signedSend(started, { method: 'GET', target: '/entries' });
      assert.equal(wrongGet.status, 405);
      assert.equal(wrongGet.headers.allow, 'POST');
    });

    it('answers 409 to a nonce reused within 180 s, also for a different request', async () => {
      const nonce = 'feedfacefeedfacefeedfacefeedface';
      assert.equal((await signedSend(started, { method: 'GET', target: '/status', nonce })).status, 200);
      assert.equal((await signedSend(started, { method: 'GET', target: '/status', nonce })).status, 409);
      assert.equal((await signedSend(started, { method: 'GET', target: '/current', nonce })).status, 409);
      started.clock.advance(181_000);
      assert.equal((await signedSend(started, { method: 'GET', target: '/status', nonce })).status, 200);
    });

    it('answers 409 to a nonce replayed in another letter case: nonces are compared lower-cased', async () => {
      const nonce = 'FeedFace0123456789abcdefABCDEF42';
      assert.equal((await signedSend(started, { method: 'GET', target: '/status', nonce })).status, 200);
      const upper = await signedSend(started, { method: 'GET', target: '/status', nonce: nonce.toUpperCase() });
      assert.equal(upper.status, 409, 'correctly signed over the upper-case nonce, and still a replay');
      assert.equal(
        (await signedSend(started, { method: 'GET', target: '/status', nonce: nonce.toLowerCase() })).status,
        409,
      );
    });

    it('refuses nonces with _ or - as malformed (401), and takes 16 to 128 letters and digits', async () => {
      for (const nonce of ['abcdefgh_ijklmnop', 'abcdefgh-ijklmnop', 'a'.repeat(15), 'a'.repeat(129)]) {
        const response = await signedSend(started, { method: 'GET', target: '/status', nonce });
        assert.equal(response.status, 401, nonce);
        assert.match(
          (response.json as { error: string }).error,
          /X-Clessira-Nonce header must be 16 to 128 ASCII letters and digits\./,
        );
      }
      for (const nonce of ['ABCDEFGHijklmnop', `Z9${'x'.repeat(126)}`]) {
        assert.equal((await signedSend(started, { method: 'GET', target: '/status', nonce })).status, 200, nonce);
      }
    });

    it('a replayed POST /entries logs nothing twice', async () => {
      const body = { name: 'Once', durationMinutes: 10, createIfMissing: true };
      const nonce = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
      assert.equal((await signedSend(started, { method: 'POST', target: '/entries', body, nonce })).status, 201);
      assert.equal((await signedSend(started, { method: 'POST', target: '/entries', body, nonce })).status, 409);
      assert.equal(started.server.controls.state.listEntries().length, 1);
    });

    it('a nonce with a bad signature is not remembered', async () => {
      const nonce = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
      assert.equal(
        (await signedSend(started, { method: 'GET', target: '/status', nonce, token: 'wrong' })).status,
        401,
      );
      assert.equal((await signedSend(started, { method: 'GET', target: '/status', nonce })).status, 200);
    });

    it('answers 413 to a signed body over 64 KiB, and 401 first when unsigned', async () => {
      const body = JSON.stringify({ name: 'A', note: 'x'.repeat(64 * 1024) });
      const signed = await signedSend(started, { method: 'POST', target: '/entries', body });
      assert.equal(signed.status, 413);
      const unsigned = await send(started.port, { method: 'POST', target: '/entries', body });
      assert.equal(unsigned.status, 401);
      const exactly = await signedSend(started, {
        method: 'POST',
        target: '/branch-changed',
        body: `{"branch":"b"}${' '.repeat(64 * 1024 - 14)}`,
      });
      assert.equal(exactly.status, 200, 'a body of exactly 64 KiB is accepted');
    });

    it('answers 431 to headers over 8 KiB, as JSON', async () => {
      const response = await signedSend(started, {
        method: 'GET',
        target: '/status',
        headers: { 'x-padding': 'p'.repeat(9 * 1024) },
      });
      assert.equal(response.status, 431);
      assert.deepEqual(Object.keys(response.json as object), ['error']);
    });
  });

  describe('423 while the license is locked', () => {
    it('answers every path but GET /healthcheck with exactly {"error":"license locked"}', async () => {
      started.server.controls.setLicense('locked');
      for (const [method, target] of [
        ['GET', '/status'],
        ['GET', '/current'],
        ['POST', '/entries'],
        ['POST', '/healthcheck'],
        ['GET', '/unknown'],
      ] as const) {
        const response = await signedSend(started, { method, target, body: method === 'POST' ? {} : undefined });
        assert.equal(response.status, 423, `${method} ${target}`);
        assert.equal(response.text, '{"error":"license locked"}');
      }
      const health = await signedSend(started, { method: 'GET', target: '/healthcheck' });
      assert.deepEqual(health.json, { ok: true, result: { status: 'ok', license: 'locked', version: '1' } });
    });

    it('still authenticates first: a bad signature is 401, not 423', async () => {
      started.server.controls.setLicense('locked');
      assert.equal((await signedSend(started, { method: 'GET', target: '/status', token: 'wrong' })).status, 401);
    });
  });

  describe('429 lockout', () => {
    const fail = (): Promise<{ status: number }> =>
      signedSend(started, { method: 'GET', target: '/status', token: 'wrong' });

    it('answers the 11th failure inside 30 s with 401, then everything with 429 and a counting Retry-After', async () => {
      for (let i = 1; i <= 11; i++) {
        started.clock.advance(1_000);
        assert.equal((await fail()).status, 401, `failure ${i}`);
      }
      const locked = await signedSend(started, { method: 'GET', target: '/status' });
      assert.equal(locked.status, 429);
      assert.equal(locked.headers['retry-after'], '60');
      started.clock.advance(20_500);
      const later = await signedSend(started, { method: 'GET', target: '/healthcheck' });
      assert.equal(later.status, 429, 'even a correctly signed healthcheck');
      assert.equal(later.headers['retry-after'], '40');
      assert.equal((await fail()).status, 429, 'failures during the lockout do not extend it');
      started.clock.advance(39_500);
      assert.equal((await signedSend(started, { method: 'GET', target: '/status' })).status, 200, 'over after 60 s');
    });

    it('ten failures inside 30 s do not lock', async () => {
      for (let i = 0; i < 10; i++) assert.equal((await fail()).status, 401);
      assert.equal((await signedSend(started, { method: 'GET', target: '/status' })).status, 200);
    });
  });

  describe('503 for an endpoint that is not wired', () => {
    it('answers 503 until the endpoint is wired again', async () => {
      started.server.controls.setUnwired('/branch-changed');
      const refused = await signedSend(started, {
        method: 'POST',
        target: '/branch-changed',
        body: { branch: 'main' },
      });
      assert.equal(refused.status, 503);
      assert.equal(started.server.controls.state.listBranchReports().length, 0);
      started.server.controls.setUnwired('/branch-changed', false);
      const accepted = await signedSend(started, {
        method: 'POST',
        target: '/branch-changed',
        body: { branch: 'main' },
      });
      assert.equal(accepted.status, 200);
    });
  });

  describe('controls', () => {
    it('shows the break flag, cleared by start and kept by stop', async () => {
      started.server.controls.setBreak(true);
      const onBreak = await signedSend(started, { method: 'GET', target: '/status' });
      assert.equal((onBreak.json as { result: { isOnBreak: boolean } }).result.isOnBreak, true);
      await signedSend(started, {
        method: 'POST',
        target: '/activities/start',
        body: { name: 'A', createIfMissing: true },
      });
      assert.equal(started.server.controls.state.isOnBreak, false);
      started.server.controls.setBreak(true);
      await signedSend(started, { method: 'POST', target: '/activities/stop', body: {} });
      assert.equal(started.server.controls.state.isOnBreak, true);
    });

    it('keeps the last 25 requests in the debug view, without queries', async () => {
      for (let i = 0; i < 27; i++) await signedSend(started, { method: 'GET', target: `/activities/search?q=${i}` });
      await signedSend(started, { method: 'GET', target: '/nope' });
      const view = started.server.controls.debugView();
      assert.equal(view.length, 25);
      assert.deepEqual(view.at(-1), {
        time: new Date(started.clock()).toISOString(),
        method: 'GET',
        path: '/nope',
        status: 404,
      });
      assert.equal(view[0]?.path, '/activities/search');
    });
  });
});

describe('server over HTTP: limits', () => {
  it('answers 429 with Retry-After when the nonce store is full, and never forgets early', async () => {
    const started = await startServer({ maxNonces: 2 });
    try {
      assert.equal((await signedSend(started, { method: 'GET', target: '/status' })).status, 200);
      started.clock.advance(30_000);
      assert.equal((await signedSend(started, { method: 'GET', target: '/status' })).status, 200);
      const full = await signedSend(started, { method: 'GET', target: '/status' });
      assert.equal(full.status, 429);
      assert.equal(full.headers['retry-after'], '150');
      started.clock.advance(150_001);
      assert.equal((await signedSend(started, { method: 'GET', target: '/status' })).status, 200);
    } finally {
      await started.server.close();
    }
  });

  it('answers 408 as JSON and closes when a request does not arrive in time', async () => {
    const started = await startServer({
      timeouts: { headersMs: 150, requestMs: 300, connectionsCheckingIntervalMs: 50 },
    });
    try {
      const answer = await new Promise<string>((resolve) => {
        const socket = connect(started.port, '127.0.0.1', () =>
          socket.write(`GET /status HTTP/1.1\r\nHost: 127.0.0.1:${started.port}\r\n`),
        );
        let text = '';
        socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
        socket.on('close', () => resolve(text));
      });
      assert.match(answer, /^HTTP\/1\.1 408 /);
      assert.match(answer, /\{"error":"[^"]+"\}$/);
    } finally {
      await started.server.close();
    }
  });

  it('answers a body far over the limit with 413 and closes the connection', async () => {
    const started = await startServer();
    try {
      const response = await signedSend(started, {
        method: 'POST',
        target: '/entries',
        body: 'x'.repeat(2 * 1024 * 1024),
      });
      assert.equal(response.status, 413);
      assert.equal(response.headers.connection, 'close');
    } finally {
      await started.server.close();
    }
  });
});

describe('server over HTTP: expectations', () => {
  const exchange = (port: number, raw: string): Promise<string> =>
    new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(raw));
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('close', () => resolve(text));
    });

  it('never writes "100 Continue" into the answer of an earlier pipelined request', async () => {
    const started = await startServer();
    try {
      const host = `Host: 127.0.0.1:${started.port}\r\n`;
      const text = await exchange(
        started.port,
        `GET /status HTTP/1.1\r\n${host}\r\nGET /status HTTP/1.1\r\n${host}Expect: 100-continue\r\nConnection: close\r\n\r\n`,
      );
      const parts = text.split(/(?=HTTP\/1\.1 \d{3} )/);
      const finals = parts.filter((part) => !part.startsWith('HTTP/1.1 100 '));
      assert.deepEqual(
        finals.map((answer) => answer.slice(0, 12)),
        ['HTTP/1.1 401', 'HTTP/1.1 401'],
      );
      for (const answer of finals) assert.match(answer, /\r\n\r\n\{"error":"[^"]+"\}$/, answer);
      for (const interim of parts.filter((part) => part.startsWith('HTTP/1.1 100 ')))
        assert.equal(interim, 'HTTP/1.1 100 Continue\r\n\r\n');
    } finally {
      await started.server.close();
    }
  });

  it('answers an unknown Expect with a JSON 417', async () => {
    const started = await startServer();
    try {
      const text = await exchange(
        started.port,
        `GET /status HTTP/1.1\r\nHost: 127.0.0.1:${started.port}\r\nExpect: teapot\r\n\r\n`,
      );
      assert.match(text, /^HTTP\/1\.1 417 /);
      assert.match(text, /\r\n\r\n\{"error":"[^"]+"\}$/);
    } finally {
      await started.server.close();
    }
  });
});
