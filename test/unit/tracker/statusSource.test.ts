import assert from 'node:assert/strict';
import { ServiceClient, type RequestRecord } from '../../../src/client';
import { pollStatus } from '../../../src/tracker/statusSource';
import type { TrackerState } from '../../../src/tracker/trackerState';
import { freePort } from '../../support/process';
import { startServer, TEST_TOKEN, type StartedServer } from '../../support/server';

describe('tracker/statusSource against the reference server', () => {
  let started: StartedServer;
  let client: ServiceClient;
  let paths: string[];

  beforeEach(async () => {
    started = await startServer();
    paths = [];
    client = new ServiceClient({ token: TEST_TOKEN, port: started.port, clock: started.clock, onRequest: (record: RequestRecord) => paths.push(record.path) });
  });
  afterEach(async () => {
    await client.close();
    await started.server.close();
  });

  it('asks GET /current once per newly running activity, then only GET /status', async () => {
    let state: TrackerState = { kind: 'starting' };
    state = await pollStatus(client, state, started.clock);
    assert.equal(state.kind, 'idle');
    await client.startActivity({ name: 'Docs', createIfMissing: true });
    started.clock.advance(30_000);
    paths.length = 0;
    state = await pollStatus(client, state, started.clock);
    assert.deepEqual(paths, ['/status', '/current']);
    assert.equal(state.kind === 'tracking' && state.elapsedSeconds, 30);
    started.clock.advance(10_000);
    paths.length = 0;
    state = await pollStatus(client, state, started.clock);
    assert.deepEqual(paths, ['/status']);
    assert.equal(state.kind === 'tracking' && state.elapsedSeconds, 40);
  });

  it('turns failures into states: license locked, unwired, no token, offline', async () => {
    started.server.setLicense('locked');
    assert.equal((await pollStatus(client, { kind: 'starting' }, started.clock)).kind, 'licenseLocked');
    started.server.setLicense('valid');
    started.server.setUnwired('/status');
    assert.equal((await pollStatus(client, { kind: 'starting' }, started.clock)).kind, 'unavailable');
    assert.deepEqual(await pollStatus(undefined, { kind: 'starting' }, started.clock), { kind: 'noToken' });
    const port = await freePort();
    const nowhere = new ServiceClient({ token: TEST_TOKEN, port });
    try {
      assert.deepEqual(await pollStatus(nowhere, { kind: 'starting' }, started.clock), { kind: 'offline' });
    } finally {
      await nowhere.close();
    }
  });
});
