/**
 * What `npm start`'s keys do to its demo app (scripts/start/demoApp.mjs), through the in-process
 * controls only: the app quits and comes back in the same process (its socket and capability file
 * gone, then there again, with the state it had), and its token is replaced, which a capability
 * file already written does not know until the socket is announced again.
 */
import assert from 'node:assert/strict';
import { lstat, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCapability } from '../../../src/protocol/capability';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { sendOverSocket, type RawResponse } from '../../support/http';
import { manualClock, TEST_TOKEN, type ManualClock } from '../../support/server';
import { signedHeaders } from '../../support/signing';

describe('server: quitting and coming back in one process, and a replaced token', function () {
  this.timeout(10_000);
  let dir: string;
  let clock: ManualClock;
  let server: ReferenceServer;
  let socket: string;
  let capabilityFile: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tt-r-'));
    clock = manualClock();
    server = createReferenceServer({ token: TEST_TOKEN, clock });
    socket = join(dir, 'api.sock');
    capabilityFile = join(dir, 'api-endpoint.json');
    await server.listenOnSocket(socket, { capabilityFile });
  });

  afterEach(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });

  const get = (target: string, token = TEST_TOKEN): Promise<RawResponse> =>
    sendOverSocket(socket, {
      method: 'GET',
      target,
      headers: signedHeaders({ token, method: 'GET', target, nowMs: clock() }),
    });

  const announcedToken = async (): Promise<string> => {
    const parsed = parseCapability(await readFile(capabilityFile, 'utf8'));
    assert.ok(parsed.ok, 'the capability file is valid');
    return parsed.capability.token;
  };

  const exists = (path: string): Promise<boolean> =>
    lstat(path).then(
      () => true,
      () => false,
    );

  it('after close() it listens again on the same socket with the same state, and announces itself again', async () => {
    server.controls.seedActivity('Write docs');
    await server.close();
    assert.equal(await exists(socket), false, 'the socket is gone while it is closed');
    assert.equal(await exists(capabilityFile), false, 'the capability file is gone while it is closed');
    await server.listenOnSocket(socket, { capabilityFile });
    assert.equal(await announcedToken(), TEST_TOKEN);
    const status = await get('/status');
    assert.equal(status.status, 200);
    assert.deepEqual(
      server.controls.state.listActivities().map((activity) => activity.name),
      ['Write docs'],
    );
  });

  it('setToken: the old token is rejected from the next request on, the new one signs; the file names the new one once announced again', async () => {
    assert.equal((await get('/status')).status, 200);
    server.controls.setToken('the-new-token');
    assert.equal((await get('/status')).status, 401, 'the old token');
    assert.equal((await get('/status', 'the-new-token')).status, 200, 'the new token');
    assert.equal(await announcedToken(), TEST_TOKEN, 'the file written before still names the old token');
    await server.close();
    await server.listenOnSocket(socket, { capabilityFile });
    assert.equal(await announcedToken(), 'the-new-token');
    assert.throws(() => server.controls.setToken(''), /must not be empty/);
  });
});
