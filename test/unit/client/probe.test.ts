import assert from 'node:assert/strict';
import { ServiceClient } from '../../../src/client';
import { answersHttp } from '../../../src/client/probe';
import { startFaultServer } from '../../support/faults';
import { freePort } from '../../support/process';
import { startServer, TEST_TOKEN } from '../../support/server';

describe('client/probe: does anything answer HTTP on the port', () => {
  it('says yes when the app answers, with the 403 of its loopback hardening', async () => {
    const { server, port } = await startServer();
    try {
      assert.equal(await answersHttp({ port }), true);
      assert.deepEqual(
        server.debugView().map((record) => `${record.method} ${record.path} ${record.status}`),
        ['OPTIONS /healthcheck 403'],
      );
    } finally {
      await server.close();
    }
  });

  it('never counts as a failed authentication, however often it runs', async () => {
    const { server, port } = await startServer({ clock: Date.now });
    const client = new ServiceClient({ token: TEST_TOKEN, port });
    try {
      for (let i = 0; i < 15; i++) assert.equal(await answersHttp({ port }), true);
      assert.equal((await client.healthcheck()).license, 'valid');
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('says no when nothing listens, when the connection is reset and when nothing answers in time', async () => {
    assert.equal(await answersHttp({ port: await freePort() }), false);
    const reset = await startFaultServer('reset-on-request');
    const silent = await startFaultServer('silent');
    try {
      assert.equal(await answersHttp({ port: reset.port }), false);
      assert.equal(await answersHttp({ port: silent.port, timeoutMs: 200 }), false);
    } finally {
      await reset.close();
      await silent.close();
    }
  });
});
