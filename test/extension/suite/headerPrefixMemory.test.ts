/**
 * In a real extension host: `headerPrefix: auto` against a first release (X-NowDoing-*
 * only) that counts every unsigned request as a failed sign-in (`--count-unsigned`) and that some
 * other tool has just pushed to 10 of them. The window's first Clessira request is the 11th and
 * starts the lockout; the window must show the lockout, not "token rejected", and work with the
 * right token once it is over, without a second lockout. What it learned is kept in globalState:
 * a new client for the same app and token (as after a reload) signs in without a refused request,
 * and when the app comes back as another build with the same token, the window follows.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { AppBuild } from '../../../src/protocol/types';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { signedSend } from '../../support/http';
import { manualClock } from '../../support/server';
import { kind, until } from './states';

const extensionId = 'clessira-tools.clessira-time-tracker';
const TOKEN = 'prefix-memory-token-61c2';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');

describe('header prefix auto: no wrong prefix after a lockout, and kept for the next client', function () {
  this.timeout(40_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer;
  let port = 0;
  // The app's clock runs 30 s behind at first, so that the 61 s this test moves it on to end the
  // lockout leave it 31 s ahead: both inside the 60 s the signature window allows.
  const clock = manualClock(Date.now() - 30_000);
  const saved = {
    port: undefined as unknown,
    pollIntervalSeconds: undefined as unknown,
    headerPrefix: undefined as unknown,
  };
  const refused = (): number => server.controls.debugView().filter((record) => record.status === 401).length;

  async function startApp(build: AppBuild): Promise<void> {
    server = createReferenceServer({ token: TOKEN, build, countUnsigned: true, clock });
    port = await server.listen(port);
  }

  before(async () => {
    api = (await vscode.extensions.getExtension(extensionId)!.activate()) as TimeTrackerApi;
    saved.port = config().inspect('port')?.globalValue;
    saved.pollIntervalSeconds = config().inspect('pollIntervalSeconds')?.globalValue;
    saved.headerPrefix = config().inspect('headerPrefix')?.globalValue;
    await vscode.commands.executeCommand('timeTracker.clearToken');
    await startApp('first-release');
    await config().update('headerPrefix', 'auto', vscode.ConfigurationTarget.Global);
    await config().update('pollIntervalSeconds', 2, vscode.ConfigurationTarget.Global);
    await config().update('port', port, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await server.close();
    await vscode.commands.executeCommand('timeTracker.clearToken');
    await config().update('port', saved.port, vscode.ConfigurationTarget.Global);
    await config().update('pollIntervalSeconds', saved.pollIntervalSeconds, vscode.ConfigurationTarget.Global);
    await config().update('headerPrefix', saved.headerPrefix, vscode.ConfigurationTarget.Global);
  });

  it('shows the lockout its first request started, and works with the right token once it is over', async () => {
    for (let i = 0; i < 10; i++) {
      const answer = await signedSend(
        { server, port, clock },
        { method: 'GET', target: '/current', token: 'another-tools-wrong-token', headerPrefix: 'NowDoing' },
      );
      assert.equal(answer.status, 401);
    }
    await vscode.commands.executeCommand('timeTracker.setToken', TOKEN);
    await until(api, kind('lockedOut'), 'the lockout the 11th failed sign-in started');
    assert.equal(server.controls.failedSignIns, 11);

    clock.advance(61_000);
    await api.refresh();
    assert.equal(api.state, 'idle', `after the lockout: ${api.text}`);
    await api.refresh();
    await api.refresh();
    assert.equal(api.state, 'idle');
    assert.equal(server.controls.failedSignIns, 11, 'not one failed sign-in after the lockout');
  });

  it('signs in at once with what it learned when a new client starts for the same app and token', async () => {
    await vscode.commands.executeCommand('timeTracker.clearToken');
    await until(api, kind('noToken'), 'no token');
    const before = refused();
    await vscode.commands.executeCommand('timeTracker.setToken', TOKEN);
    await until(api, kind('idle'), 'idle with the new client');
    assert.equal(refused(), before, 'no refused request: X-NowDoing-* came from globalState');
    assert.equal(server.controls.failedSignIns, 11);
  });

  it('follows the app when it comes back as another build with the same token, at the cost of one refused request each time', async () => {
    for (const build of ['current', 'first-release'] as const) {
      await server.close();
      await until(api, kind('offline'), `offline before the ${build} build`);
      await startApp(build);
      await until(api, kind('idle'), `idle with the ${build} build`);
      assert.equal(refused(), 1, `the ${build} build: one refused request finds its prefix`);
      await api.refresh();
      assert.equal(api.state, 'idle');
      assert.equal(refused(), 1, 'and it is kept');
    }
  });
});
