/**
 * The reference server's strictest reading of the app (`countUnsigned`, `--count-unsigned`):
 * every request without the four signing headers counts as a failed sign-in, whatever it is
 * answered. Without the switch such requests never count (PROTOCOL.md §2, steps 0 and 2). This is
 * what makes the onboarding probe's acceptance test able to fail (test/unit/tracker/reachabilityProbing.test.ts).
 */
import assert from 'node:assert/strict';
import { send, signedSend } from '../../support/http';
import { startServer, type StartedServer } from '../../support/server';

describe('server: --count-unsigned, the strictest reading of the app', () => {
  let started: StartedServer | undefined;

  afterEach(async () => {
    await started?.server.close();
    started = undefined;
  });

  const unsignedOptions = (port: number): Promise<number> =>
    send(port, { method: 'OPTIONS', target: '/healthcheck' }).then((response) => response.status);
  const signedStatus = (server: StartedServer): Promise<number> =>
    signedSend(server, { method: 'GET', target: '/status' }).then((response) => response.status);

  it('counts each unsigned OPTIONS /healthcheck, still answered 403: eleven lock a signed client out', async () => {
    started = await startServer({ countUnsigned: true });
    for (let i = 1; i <= 10; i++) assert.equal(await unsignedOptions(started.port), 403, `probe ${i}`);
    assert.equal(started.server.controls.failedSignIns, 10);
    assert.equal(await signedStatus(started), 200, 'ten failures are not yet a lockout');
    assert.equal(await unsignedOptions(started.port), 403, 'the eleventh is answered as before');
    assert.equal(started.server.controls.failedSignIns, 11);
    const locked = await signedSend(started, { method: 'GET', target: '/status' });
    assert.equal(locked.status, 429);
    assert.equal(locked.headers['retry-after'], '60');
  });

  it('counts an unsigned GET (401) too, and nothing during the lockout, which it does not extend', async () => {
    started = await startServer({ countUnsigned: true });
    for (let i = 0; i < 11; i++)
      assert.equal((await send(started.port, { method: 'GET', target: '/healthcheck' })).status, 401);
    assert.equal(started.server.controls.failedSignIns, 11);
    started.clock.advance(30_000);
    assert.equal(await unsignedOptions(started.port), 403);
    assert.equal((await send(started.port, { method: 'GET', target: '/healthcheck' })).status, 429);
    assert.equal(started.server.controls.failedSignIns, 11, 'nothing counted while locked out');
    started.clock.advance(30_000);
    assert.equal(await signedStatus(started), 200, 'the lockout ended 60 s after it started');
  });

  it('without the switch, unsigned requests never count: fifteen OPTIONS and a signed client is served', async () => {
    started = await startServer();
    for (let i = 0; i < 15; i++) assert.equal(await unsignedOptions(started.port), 403);
    for (let i = 0; i < 15; i++)
      assert.equal((await send(started.port, { method: 'GET', target: '/healthcheck' })).status, 401);
    assert.equal(started.server.controls.failedSignIns, 0);
    assert.equal(await signedStatus(started), 200);
  });

  it('counts a signed request with a wrong token either way', async () => {
    started = await startServer();
    assert.equal((await signedSend(started, { method: 'GET', target: '/status', token: 'wrong-token' })).status, 401);
    assert.equal(started.server.controls.failedSignIns, 1);
  });
});
