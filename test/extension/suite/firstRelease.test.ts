/**
 * The app's first releases in a real extension host: five endpoints, X-NowDoing-* headers, no
 * GET /status, no stop, no entries (PROTOCOL.md §8). The reference server plays such a build
 * (`build: 'first-release'`); the extension must find the prefix by itself, show what runs from
 * GET /current, say in one sentence what this version cannot do, never queue an entry for it, and
 * use the full endpoints again once the app comes back updated.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { kind, until } from './states';

const extensionId = 'clessira-tools.clessira-time-tracker';
const TOKEN = 'first-release-token-4e1b';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');

describe('a first release of the app: five endpoints, no status, stop or entries', function () {
  this.timeout(30_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer;
  let port: number;
  const saved = { port: undefined as unknown, pollIntervalSeconds: undefined as unknown };
  const requests = (path: string): number =>
    server.controls.debugView().filter((record) => record.path === path).length;

  before(async () => {
    api = (await vscode.extensions.getExtension(extensionId)!.activate()) as TimeTrackerApi;
    saved.port = config().inspect('port')?.globalValue;
    saved.pollIntervalSeconds = config().inspect('pollIntervalSeconds')?.globalValue;
    server = createReferenceServer({ token: TOKEN, build: 'first-release', seedActivities: ['Review'] });
    port = await server.listen(0);
    await config().update('pollIntervalSeconds', 2, vscode.ConfigurationTarget.Global);
    await config().update('port', port, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('timeTracker.setToken', TOKEN);
  });

  after(async () => {
    await server.close();
    await vscode.commands.executeCommand('timeTracker.clearToken');
    await config().update('port', saved.port, vscode.ConfigurationTarget.Global);
    await config().update('pollIntervalSeconds', saved.pollIntervalSeconds, vscode.ConfigurationTarget.Global);
  });

  it('finds the X-NowDoing-* prefix by itself and shows what runs from GET /current, without a total for today', async () => {
    await until(api, kind('idle'), 'idle on a first release');
    assert.equal(api.text, '$(clock) Not tracking');
    assert.equal(
      server.controls.debugView().filter((record) => record.status === 401).length,
      1,
      'one refused request finds the prefix',
    );
    server.controls.state.start({ name: 'Review' });
    const state = await until(api, kind('tracking'), 'tracking on a first release');
    assert.equal(state.kind === 'tracking' && state.activity.activityName, 'Review');
    assert.match(api.text, /^\$\(record\) Review (?:< 1m|\d+m|\d+h(?: \d+m)?)$/);
    assert.match(api.tooltip, /does not report today's total, nor offer Stop and Log Time/);
    const statusPolls = requests('/status');
    await api.refresh();
    await api.refresh();
    assert.equal(requests('/status'), statusPolls, 'no more GET /status once it answered 404');
  });

  it('says in one sentence that Stop and Log Time are not there, sends neither, and queues nothing', async () => {
    const before = server.controls.debugView().length;
    assert.equal(await vscode.commands.executeCommand('timeTracker.stop'), undefined);
    assert.equal(
      await vscode.commands.executeCommand('timeTracker.log', { name: 'Review', durationMinutes: 15 }),
      undefined,
    );
    assert.deepEqual(
      server.controls
        .debugView()
        .slice(before)
        .filter((record) => record.path === '/activities/stop' || record.path === '/entries'),
      [],
    );
    assert.equal(api.queuedEntries, 0);
    assert.notEqual(server.controls.state.snapshot().running, null, 'still running: nothing was stopped');
  });

  it('uses the full endpoints again once the app comes back updated', async () => {
    await server.close();
    await until(api, kind('offline'), 'offline while the app updates');
    server = createReferenceServer({ token: TOKEN, headerPrefix: 'NowDoing' });
    await server.listen(port);
    // No command: the poller's back-off finds the app, which now has GET /status and a total.
    const state = await until(
      api,
      (state) => state.kind === 'idle' && state.todaySeconds !== undefined,
      'idle with a total after the update',
      20_000,
    );
    assert.equal(state.kind, 'idle');
    assert.match(api.text, /^\$\(clock\) Not tracking · today \d+m$/);
    await vscode.commands.executeCommand('timeTracker.log', {
      name: 'Review',
      durationMinutes: 15,
      createIfMissing: true,
    });
    assert.equal(server.controls.state.listEntries().length, 1);
  });
});
