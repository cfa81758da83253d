/**
 * While the app rejects the token (or locks everyone out), polling is paused, and nothing may send a
 * signed request on its own: Start's picker says why and offers the fixes only,
 * Log Time's searches nothing and offers what was last known and says once why with Set Token,
 * Check Connection and Set Token make
 * one signed request each, and a branch switch waits until the token works. Every request the
 * reference server in this process sees is recorded, and `failedSignIns` says what counted
 * toward a lockout.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import type { HandledSwitch } from '../../../src/extension/branchReporter';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { RequestRecord } from '../../../src/server/debugView';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { answering } from './pressEnter';
import { askTool } from './toolCalls';
import { kind, nextStateOr, until, untilEvent } from './states';
import { withWizardAnswers, type PickerSeen } from './wizardAnswers';
import { notificationsDuring, type ShownNotification } from './windowSpies';

const extensionId = 'clessira-tools.clessira-time-tracker';
const TOKEN = 'paused-test-token-3d9e';
const WRONG = 'paused-test-wrong-token-77a1';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');

describe('while the token is rejected, nothing signed goes out on its own', function () {
  this.timeout(40_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer;
  let root: string | undefined;
  const requests: RequestRecord[] = [];
  /** Checked after every request the server answers. */
  let onRequest: (() => void) | undefined;
  /** Resolves once `holds()` is true, looking after each request the server answers. */
  const untilServer = (holds: () => boolean, what: string): Promise<void> =>
    new Promise((resolve, reject) => {
      if (holds()) return resolve();
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${what}; the status bar shows ${api.text}`)),
        10_000,
      );
      onRequest = () => {
        if (!holds()) return;
        clearTimeout(timer);
        onRequest = undefined;
        resolve();
      };
    });
  const git = (...args: string[]): string => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
  /** The requests of `run`, and the failed sign-ins it added. */
  const signedDuring = async (run: () => Promise<unknown>): Promise<{ paths: string[]; failedSignIns: number }> => {
    const [seen, failed] = [requests.length, server.controls.failedSignIns];
    await run();
    return {
      paths: requests.slice(seen).map((record) => `${record.method} ${record.path} ${record.status}`),
      failedSignIns: server.controls.failedSignIns - failed,
    };
  };

  before(async () => {
    root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    server = createReferenceServer({
      token: TOKEN,
      seedActivities: ['Known work'],
      onRequest: (_line, record) => {
        requests.push(record);
        onRequest?.();
      },
    });
    const port = await server.listen(0);
    api = (await vscode.extensions.getExtension(extensionId)!.activate()) as TimeTrackerApi;
    await config().update('pollIntervalSeconds', 2, vscode.ConfigurationTarget.Global);
    await config().update('port', port, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('timeTracker.setToken', TOKEN);
    await until(api, kind('idle'), 'idle');
    // A search while the token works: what the pickers know from now on.
    await withWizardAnswers(
      { pick: 'no such item: dismiss', typed: [], pickerTyping: { text: 'Kno', keystrokeMs: 300 } },
      () => vscode.commands.executeCommand('timeTracker.start'),
    );
    assert.ok(
      requests.some((record) => record.path === '/activities/search' && record.status === 200),
      'the picker searched while the token worked',
    );
  });

  after(async () => {
    await vscode.commands.executeCommand('timeTracker.clearToken');
    if (root) git('checkout', '-q', 'main');
    await server.close();
  });

  it('makes one signed request for Set Token with a wrong token, and then pauses', async () => {
    const { paths, failedSignIns } = await signedDuring(async () => {
      await vscode.commands.executeCommand('timeTracker.setToken', WRONG);
      await nextStateOr(api, 1_500);
    });
    assert.equal(api.state, 'tokenRejected');
    assert.equal(failedSignIns, 1, `requests: ${paths.join(', ')}`);
  });

  it("sends nothing for the agent's search or Start while the token is rejected, and says why", async () => {
    let searched = '';
    let started = '';
    const { paths, failedSignIns } = await signedDuring(async () => {
      searched = await askTool('timeTracker_searchActivities', { query: 'kno' });
      await answering(async () => {
        started = await askTool('timeTracker_start', { name: 'Known work' });
      });
    });
    assert.deepEqual(paths, [], 'no signed request');
    assert.equal(failedSignIns, 0);
    assert.match(
      searched,
      /^The app rejected the token\b.* Activities the app named before that match "kno":\n- "Known work" \(id "/,
      searched,
    );
    assert.match(started, /rejected the token/, started);
    assert.match(started, /Tracking was not started\./, started);
  });

  it('searches nothing while a name is typed into Start, whose picker says why and offers the fixes, not a name', async () => {
    let shown: ShownNotification[] = [];
    const seen: PickerSeen[] = [];
    const { paths, failedSignIns } = await signedDuring(async () => {
      shown = await notificationsDuring(() =>
        withWizardAnswers(
          { pick: 'no such item: dismiss', typed: [], seen, pickerTyping: { text: 'Known work', keystrokeMs: 250 } },
          () => vscode.commands.executeCommand('timeTracker.start'),
        ),
      );
    });
    assert.deepEqual(paths, [], 'no signed request');
    assert.equal(failedSignIns, 0);
    const [picker] = seen;
    assert.ok(picker, 'the picker opened');
    // Said in the picker while it is open, before anything is typed: no notification needed after it.
    assert.equal(picker.opened.title, 'Nothing can be started: the app rejected the token');
    assert.equal(picker.opened.placeholder, 'Set the token the app shows in Settings → Integrations → HTTP API');
    assert.deepEqual(
      picker.chosenFrom.items.map((item) => item.label),
      ['$(key) Set Token…', '$(plug) Check Connection'],
      'neither the known activity typed nor a new name is offered',
    );
    assert.deepEqual(picker.notificationsWhileOpen, []);
    assert.deepEqual(shown, []);
    assert.equal(api.state, 'tokenRejected');
  });

  it('keeps what Log Time was given, says once why with Set Token, and sends it once the token works', async () => {
    const queuedBefore = api.queuedEntries;
    let shown: ShownNotification[] = [];
    const { paths } = await signedDuring(async () => {
      shown = await notificationsDuring(() =>
        withWizardAnswers(
          {
            pick: '$(add) Create “Paused entry”',
            typed: ['30m', 'while paused'],
            pickerTyping: { text: 'Paused entry', keystrokeMs: 20 },
          },
          () => vscode.commands.executeCommand('timeTracker.log'),
        ),
      );
    });
    assert.deepEqual(paths, [], 'no signed request');
    assert.equal(shown.length, 1, `said once: ${JSON.stringify(shown)}`);
    // A warning with its fix as a button, not a progress notice with the fix as a link in a line cut short.
    assert.deepEqual(shown[0]!.buttons, ['Set Token'], JSON.stringify(shown));
    assert.equal(shown[0]!.withdrawal, undefined);
    assert.match(shown[0]!.message, /^30m on Paused entry is queued; .* The app rejected the token/);
    assert.equal(api.queuedEntries, queuedBefore + 1, 'kept in the queue');
  });

  it('makes exactly one signed request for Check Connection while paused', async () => {
    const { paths, failedSignIns } = await signedDuring(async () => {
      await vscode.commands.executeCommand('timeTracker.checkConnection');
      await nextStateOr(api, 1_500);
    });
    assert.deepEqual(paths, ['GET /healthcheck 401']);
    assert.equal(failedSignIns, 1);
    assert.equal(api.state, 'tokenRejected');
  });

  it('holds a branch switch while paused and reports it once when the token works again', async function () {
    if (!root) this.skip();
    assert.deepEqual(await api.branchWatchReady(), [root]);
    const reportsBefore = server.controls.state.listBranchReports().length;
    const current = git('branch', '--show-current').trim();
    const target = current === 'feature' ? 'other' : 'feature';
    let handled: HandledSwitch | undefined;
    const { paths, failedSignIns } = await signedDuring(async () => {
      const seen = untilEvent<HandledSwitch | undefined>(
        api.onDidHandleBranchSwitch,
        () => undefined,
        (change) => change?.branch === target,
        () => `the switch to ${target} was not handled`,
        10_000,
      );
      git('checkout', '-q', target);
      handled = await seen;
    });
    assert.equal(handled?.outcome, 'waiting');
    assert.deepEqual(paths, [], 'nothing sent while paused');
    assert.equal(failedSignIns, 0);

    await vscode.commands.executeCommand('timeTracker.setToken', TOKEN);
    await until(api, kind('idle'), 'idle with the right token');
    await untilServer(() => server.controls.state.listBranchReports().length > reportsBefore, 'the held branch report');
    // The entry Log Time kept is sent now too.
    await untilServer(
      () => server.controls.state.listEntries().some((entry) => entry.note === 'while paused'),
      'the kept entry',
    );
    await api.refresh();
    const reports = server.controls.state.listBranchReports().slice(reportsBefore);
    assert.deepEqual(
      reports.map((report) => report.branch),
      [target],
      'reported once, after the token was fixed',
    );
    assert.equal(server.controls.state.listEntries().filter((entry) => entry.note === 'while paused').length, 1);
  });
});
