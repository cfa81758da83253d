/**
 * code-server runs the extension in the remote (workspace-side) extension host, as an SSH or dev
 * container window that installed it there would: 127.0.0.1 there is the remote machine's. The
 * harness's user settings opt in (`timeTracker.remote.allowWorkspaceHost`); with the opt-in off,
 * the window must send the app nothing at all (no poll, no check, no token check, no branch
 * report), show that it must run locally, and say so once with the way there; back on, it connects.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import type { HandledSwitch } from '../../../src/extension/branchReporter';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { RequestRecord } from '../../../src/server/debugView';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { suiteLaunch } from '../launch';
import { EXTENSION_ID } from './connected';
import { kind, nextStateOr, until, untilEvent } from './states';
import { notificationsDuring } from './windowSpies';

const TOKEN = 'remote-host-token-5b1e';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');

// Desktop VS Code (test/extension/electron.mjs) runs the extension locally: nothing to refuse there.
const onRemoteHost = suiteLaunch().host === 'code-server' ? describe : describe.skip;

onRemoteHost(
  "a remote window's extension host on the remote machine sends nothing without the user's opt-in",
  function () {
    this.timeout(60_000);
    let api: TimeTrackerApi;
    let server: ReferenceServer;
    let root: string | undefined;
    const requests: RequestRecord[] = [];
    const saved = {
      port: undefined as unknown,
      pollIntervalSeconds: undefined as unknown,
      optIn: undefined as unknown,
    };
    const git = (...args: string[]): string => execFileSync('git', args, { cwd: root, encoding: 'utf8' });

    before(async () => {
      root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      server = createReferenceServer({ token: TOKEN, onRequest: (_line, record) => requests.push(record) });
      const port = await server.listen(0);
      api = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as TimeTrackerApi;
      saved.port = config().inspect('port')?.globalValue;
      saved.pollIntervalSeconds = config().inspect('pollIntervalSeconds')?.globalValue;
      saved.optIn = config().inspect('remote.allowWorkspaceHost')?.globalValue;
      await config().update('pollIntervalSeconds', 2, vscode.ConfigurationTarget.Global);
      await config().update('port', port, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('timeTracker.setToken', TOKEN);
      await until(api, kind('idle'), 'idle with the opt-in on');
    });

    after(async () => {
      // The harness's own opt-in, back as it was: every later test talks to its server from this host.
      await config().update('remote.allowWorkspaceHost', saved.optIn ?? true, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('timeTracker.clearToken');
      await config().update('port', saved.port, vscode.ConfigurationTarget.Global);
      await config().update('pollIntervalSeconds', saved.pollIntervalSeconds, vscode.ConfigurationTarget.Global);
      if (root) git('checkout', '-q', 'main');
      await server.close();
    });

    it('runs where the test expects: the remote host of a remote window, with the opt-in on', () => {
      assert.ok(vscode.env.remoteName, 'remoteName is set');
      assert.equal(vscode.extensions.getExtension(EXTENSION_ID)!.extensionKind, vscode.ExtensionKind.Workspace);
      assert.equal(saved.optIn, true, "the harness's user settings opt in");
    });

    it('with the opt-in off: shows that it must run locally, says it once with the way there, and sends nothing', async () => {
      const shown = await notificationsDuring(async () => {
        await config().update('remote.allowWorkspaceHost', false, vscode.ConfigurationTarget.Global);
        await until(api, kind('remoteHost'), 'the remote machine state');
        // A poll under way as the opt-in went off has its answer, and its record, once this returns.
        await api.refresh();
      });
      const before = requests.length;
      assert.equal(api.text, '$(remote) Time Tracker: runs remotely');
      assert.match(api.tooltip, /runs on the remote machine of this window/);
      assert.ok(api.tooltip.includes(`"remote.extensionKind": { "${EXTENSION_ID}": ["ui"] }`), api.tooltip);
      assert.equal(api.channel, 'none');
      assert.equal(shown.length, 1, `said once: ${JSON.stringify(shown)}`);
      assert.match(
        shown[0]!.message,
        /^Time Tracker runs on the remote machine of this window, .*Install Locally in the Extensions view, or add "remote\.extensionKind"/,
      );
      assert.deepEqual(shown[0]!.buttons, ['Open Settings']);

      // Every way a request could go out: commands, a token, a poll's interval, a branch switch.
      const said = await notificationsDuring(async () => {
        await vscode.commands.executeCommand('timeTracker.checkConnection');
        await vscode.commands.executeCommand('timeTracker.start', { name: 'Remote work', createIfMissing: true });
        await vscode.commands.executeCommand('timeTracker.stop');
        await vscode.commands.executeCommand('timeTracker.log', { name: 'Remote work', durationMinutes: 5 });
        await vscode.commands.executeCommand('timeTracker.setToken', TOKEN);
        await api.refresh();
      });
      assert.equal(said.length, 5, `each command said why, once: ${JSON.stringify(said)}`);
      for (const { message } of said.filter((_, index) => index !== 4))
        assert.match(message, /^Time Tracker runs on the remote machine of this window/);
      assert.match(
        said[4]!.message,
        /^The token is stored, but not checked: .* It is checked once the extension runs on your computer\.$/,
      );
      if (root) {
        const target = git('branch', '--show-current').trim() === 'feature' ? 'other' : 'feature';
        const handled = untilEvent<HandledSwitch | undefined>(
          api.onDidHandleBranchSwitch,
          () => undefined,
          (change) => change?.branch === target,
          () => `the switch to ${target} was not handled`,
          10_000,
        );
        git('checkout', '-q', target);
        assert.equal((await handled)?.outcome, 'noToken', 'not reported');
      }
      // Two poll intervals and more, with nothing polled.
      await nextStateOr(api, 5_000);
      assert.deepEqual(
        requests.slice(before).map((record) => `${record.method} ${record.path}`),
        [],
        'not one request reached the app',
      );
      assert.equal(api.state, 'remoteHost');
    });

    it('with the opt-in on again: connects, with the token Set Token stored meanwhile', async () => {
      const before = requests.length;
      await config().update('remote.allowWorkspaceHost', true, vscode.ConfigurationTarget.Global);
      await until(api, kind('idle'), 'idle again');
      assert.ok(requests.length > before, 'it talks to the app again');
      assert.equal(api.channel, 'http');
    });
  },
);
