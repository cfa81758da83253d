import assert from 'node:assert/strict';
import { ENDPOINTS } from '../../../src/protocol/types';
import { send, signedSend, type RawResponse, type SignedCall } from '../../support/http';
import { startServer, type StartedServer } from '../../support/server';

const FIVE = [
  ['GET', '/healthcheck'],
  ['GET', '/current'],
  ['GET', '/activities/search?q='],
  ['POST', '/activities/start'],
  ['POST', '/branch-changed'],
] as const;
const MISSING = [
  ['GET', '/status'],
  ['POST', '/activities/stop'],
  ['POST', '/entries'],
] as const;

const BODIES: Readonly<Record<string, Record<string, unknown>>> = {
  '/activities/start': { name: 'Deep work', createIfMissing: true },
  '/activities/stop': {},
  '/entries': { name: 'Deep work', durationMinutes: 5, createIfMissing: true },
  '/branch-changed': { branch: 'main', repoPath: '/src/shop' },
};

describe('server build: --build first-release has the five endpoints of SDK 0.1.0 (PROTOCOL.md §8)', () => {
  let started: StartedServer;
  /** Signed with X-NowDoing-*, the first release's headers. */
  const call = (method: string, target: string, extra: Partial<SignedCall> = {}): Promise<RawResponse> =>
    signedSend(started, {
      method,
      target,
      headerPrefix: 'NowDoing',
      body: method === 'POST' ? BODIES[target.split('?')[0] ?? ''] : undefined,
      ...extra,
    });

  beforeEach(async () => {
    started = await startServer({ build: 'first-release' });
  });

  afterEach(async () => {
    await started.server.close();
  });

  it('answers its five endpoints', async () => {
    for (const [method, target] of FIVE) {
      const response = await call(method, target);
      assert.equal(response.status, 200, `${method} ${target}: ${response.text}`);
    }
    assert.equal(started.server.controls.state.listBranchReports().length, 1);
  });

  it('answers /status, /activities/stop and /entries with 404 as unknown paths, and does nothing', async () => {
    await call('POST', '/activities/start');
    for (const [method, target] of MISSING) {
      const response = await call(method, target);
      assert.equal(response.status, 404, `${method} ${target}`);
      assert.equal(response.text, `{"error":"There is no endpoint at ${target}."}`);
    }
    assert.equal(
      (await call('GET', '/entries')).status,
      404,
      'an unknown path, so 404 and not 405 for the wrong method',
    );
    assert.equal(started.server.controls.state.listEntries().length, 0, 'no entry was logged');
    assert.equal(started.server.controls.state.listSessions().length, 0, 'nothing was stopped');
    assert.notEqual(started.server.controls.state.current(), null);
  });

  it('authenticates first: unsigned is 401 and a locked license 423 on those paths too, as on any unknown path', async () => {
    for (const [method, target] of MISSING) {
      assert.equal((await send(started.port, { method, target })).status, 401, `${method} ${target} unsigned`);
    }
    started.server.controls.setLicense('locked');
    for (const [method, target] of MISSING)
      assert.equal((await call(method, target)).status, 423, `${method} ${target} locked`);
  });

  it('expects X-NowDoing-* headers unless a header prefix is given', async () => {
    assert.equal((await call('GET', '/healthcheck', { headerPrefix: 'Clessira' })).status, 401);
    await started.server.close();
    started = await startServer({ build: 'first-release', headerPrefix: 'Clessira' });
    assert.equal((await call('GET', '/healthcheck', { headerPrefix: 'Clessira' })).status, 200);
    assert.equal((await call('GET', '/healthcheck')).status, 401);
  });

  it('stays a 404 even when the missing endpoint is also unwired', async () => {
    started.server.controls.setUnwired(ENDPOINTS.status.path);
    assert.equal((await call('GET', '/status')).status, 404);
  });

  it('offers all eight again once set to the current build, keeping its header prefix', async () => {
    assert.equal(started.server.controls.build, 'first-release');
    started.server.controls.setBuild('current');
    for (const [method, target] of [...FIVE, ...MISSING]) {
      const response = await call(method, target);
      assert.ok(
        response.status === 200 || response.status === 201,
        `${method} ${target}: ${response.status} ${response.text}`,
      );
    }
  });
});

describe('server build: the current build', () => {
  it('answers all eight endpoints with X-Clessira-* by default', async () => {
    const started = await startServer();
    try {
      assert.equal(started.server.controls.build, 'current');
      for (const [method, target] of [...FIVE, ...MISSING]) {
        const body = method === 'POST' ? BODIES[target] : undefined;
        const response = await signedSend(started, { method, target, body });
        assert.ok(response.status === 200 || response.status === 201, `${method} ${target}: ${response.status}`);
      }
    } finally {
      await started.server.close();
    }
  });
});
