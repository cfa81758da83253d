/**
 * After the reload: a new extension host with nothing in memory from before. The queue must come
 * back from disk and reach the restarted app exactly once, in order, with no user action.
 */
import * as assert from 'node:assert/strict';
import type { TimeTrackerApi } from '../../../../src/extension/extension';
import type { ReferenceServer } from '../../../../src/server/server';
import { loggedEntries } from '../../../support/server';
import { kind, until, untilQueued } from '../../suite/states';
import { extensionApi, firstHalfHostPid, OFFLINE_ENTRIES, startApp } from '../setup';

describe('after the reload: the queue survives and is sent by itself', function () {
  this.timeout(90_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer | undefined;

  after(async () => {
    await server?.close();
  });

  it('runs in a new extension host, with nothing kept in memory from before', () => {
    assert.notEqual(process.pid, firstHalfHostPid());
  });

  it('still has the three entries queued, read back from disk', async () => {
    api = await extensionApi();
    await until(api, kind('offline'), 'offline: the app is still away');
    await untilQueued(api, OFFLINE_ENTRIES.length, 'the queue read back from disk', 10_000);
    assert.match(api.text, /· \$\(inbox\) 3 queued$/);
  });

  it('sends all three once, in order, when the app is back, with no user action', async () => {
    server = await startApp();
    assert.deepEqual(loggedEntries(server), [], 'the app logged nothing while it was away');
    // No command and no refresh from here: the poller's back-off finds the app, the queue follows.
    await untilQueued(api, 0, 'the queue to be sent', 60_000);
    assert.deepEqual(
      loggedEntries(server),
      OFFLINE_ENTRIES.map(([name, minutes]) => [name, minutes]),
    );
    // One more round trip: nothing is sent a second time.
    await api.refresh();
    assert.equal(server.controls.state.listEntries().length, OFFLINE_ENTRIES.length, 'each exactly once');
    assert.doesNotMatch(api.text, /queued/);
  });
});
