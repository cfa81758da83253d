/** Before the reload: the app goes away and three entries are logged; all three wait on disk. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../../src/extension/extension';
import { loggedEntries } from '../../../support/server';
import { kind, until } from '../../suite/states';
import { extensionApi, OFFLINE_ENTRIES, startApp } from '../setup';

describe('before the reload: logging while the app is away', function () {
  this.timeout(30_000);
  let api: TimeTrackerApi;

  it('connects to the app with the token from the environment', async () => {
    const server = await startApp();
    try {
      api = await extensionApi();
      await until(api, kind('idle'), 'idle');
      assert.deepEqual(loggedEntries(server), [], 'a fresh app');
    } finally {
      // Killing the app: from here on nothing listens on its port.
      await server.close();
    }
  });

  it('queues the three entries logged while the app is gone, in order', async () => {
    await until(api, kind('offline'), 'offline');
    for (const [name, durationMinutes] of OFFLINE_ENTRIES) {
      const result = await vscode.commands.executeCommand('timeTracker.log', {
        name,
        durationMinutes,
        createIfMissing: true,
      });
      assert.equal(result, undefined, `${name} was not logged: the app is away`);
    }
    assert.equal(api.queuedEntries, OFFLINE_ENTRIES.length);
    assert.match(api.text, /· \$\(inbox\) 3 queued$/);
  });
});
