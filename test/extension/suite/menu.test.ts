/**
 * The status bar menu in a real extension host, against the reference server in this process:
 * it offers what works in each state, Log Time from it queues while the app is
 * offline or rejects the token, its placeholder says what it is for (§7), and a long activity
 * name is cut in the item's text while the time stays in view (§4).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { ReferenceServer } from '../../../src/server/server';
import { loggedEntries } from '../../support/server';
import { commandsOf, withMenuChoice } from './menuAnswers';
import { kind, until, untilQueued } from './states';
import { connectToNewServer } from './connected';
import { withWizardAnswers } from './wizardAnswers';

const TOKEN = 'menu-test-token-5c2b';
const WRONG = 'menu-test-wrong-token-a913';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');

describe('the status bar menu: what works in each state', function () {
  this.timeout(40_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer;
  let port: number;

  before(async () => {
    ({ api, server, port } = await connectToNewServer(TOKEN));
    // Logged once while the app answers, so the picker lists it as recent when its search cannot answer.
    await vscode.commands.executeCommand('timeTracker.log', {
      name: 'Menu work',
      durationMinutes: 5,
      createIfMissing: true,
    });
  });

  after(async () => {
    await config().update('statusBar.maxNameLength', undefined, vscode.ConfigurationTarget.Global);
    await server.close();
    await vscode.commands.executeCommand('timeTracker.clearToken');
  });

  it('offers Log Time first while the app is offline, and Log Time chosen there queues the entry', async () => {
    await server.close();
    await until(api, kind('offline'), 'offline');
    const menu = await withMenuChoice('timeTracker.log', () =>
      withWizardAnswers({ pick: 'Menu work', typed: ['30m', ''] }, () =>
        vscode.commands.executeCommand('timeTracker.showMenu'),
      ),
    );
    assert.deepEqual(commandsOf(menu), ['log', 'showQueue', 'checkConnection', 'showLog', 'setToken', 'clearToken']);
    assert.equal(menu.placeholder, 'Choose what to do while the app is not answering (logged time waits in the queue)');
    assert.equal(api.queuedEntries, 1, 'the entry waits in the queue');
    // The same app comes back: the entry goes by itself.
    await server.listen(port);
    await untilQueued(api, 0, 'the queued entry to be sent', 20_000);
    assert.deepEqual(loggedEntries(server).at(-1), ['Menu work', 30]);
  });

  it('offers Set Token, Check Connection and Log Time while the token is rejected, and Log Time queues without a request', async () => {
    await vscode.commands.executeCommand('timeTracker.setToken', WRONG);
    await until(api, kind('tokenRejected'), 'token rejected');
    const before = server.controls.debugView().length;
    const menu = await withMenuChoice('timeTracker.log', () =>
      withWizardAnswers({ pick: 'Menu work', typed: ['15m', ''] }, () =>
        vscode.commands.executeCommand('timeTracker.showMenu'),
      ),
    );
    assert.deepEqual(commandsOf(menu), ['setToken', 'clearToken', 'checkConnection', 'log', 'showLog']);
    assert.equal(menu.placeholder, 'Choose what to do about the rejected token (logged time waits in the queue)');
    assert.equal(api.queuedEntries, 1, 'the entry waits in the queue');
    assert.equal(server.controls.debugView().length, before, 'nothing signed went out with the rejected token');
    await vscode.commands.executeCommand('timeTracker.setToken', TOKEN);
    await untilQueued(api, 0, 'the queued entry to be sent with the right token', 20_000);
    assert.deepEqual(loggedEntries(server).at(-1), ['Menu work', 15]);
  });

  it("says what the menu is for while the app answers, not the status bar's spoken text", async () => {
    await until(api, kind('idle'), 'idle');
    const menu = await withMenuChoice(undefined, () => vscode.commands.executeCommand('timeTracker.showMenu'));
    assert.deepEqual(commandsOf(menu), ['start', 'log', 'checkConnection', 'showLog']);
    assert.equal(menu.placeholder, 'Choose what to do (not tracking)');
  });

  it('offers Continue "<activity>" first on a break, and Continue ends the break on that activity', async () => {
    server.controls.state.start({ name: 'Write docs', createIfMissing: true });
    server.controls.setBreak(true);
    await until(api, (state) => state.kind === 'tracking' && state.onBreak, 'on a break from Write docs');
    const menu = await withMenuChoice('timeTracker.start', () =>
      vscode.commands.executeCommand('timeTracker.showMenu'),
    );
    assert.equal(menu.entries[0]?.label, '$(debug-continue) Continue “Write docs”');
    assert.deepEqual(commandsOf(menu), ['start', 'start', 'stop', 'log', 'checkConnection', 'showLog']);
    await until(
      api,
      (state) => state.kind === 'tracking' && !state.onBreak && state.activity.activityName === 'Write docs',
      'Write docs running again, the break over',
    );
    server.controls.state.stop();
    await until(api, kind('idle'), 'idle again');
  });

  it("cuts a 105-character activity name in the status bar, never the elapsed time or today's total", async () => {
    const long =
      'Prepare the quarterly report with every figure the board asked for and the notes of the last two meetings';
    assert.equal(long.length, 105);
    server.controls.state.start({ name: long, createIfMissing: true });
    await until(
      api,
      (state) => state.kind === 'tracking' && state.activity.activityName === long,
      'tracking the long name',
    );
    assert.match(
      api.text,
      /^\$\(record\) Prepare the quarterly report with every… (?:< 1m|\d+m|\d+h(?: \d+m)?) · today \d+m$/,
    );
    assert.ok(api.tooltip.includes(long), 'the tooltip says the name whole');
    await config().update('statusBar.maxNameLength', 12, vscode.ConfigurationTarget.Global);
    assert.match(
      api.text,
      /^\$\(record\) Prepare the… (?:< 1m|\d+m|\d+h(?: \d+m)?) · today \d+m$/,
      'the setting applies at once',
    );
    await config().update('statusBar.maxNameLength', undefined, vscode.ConfigurationTarget.Global);
    server.controls.state.stop();
    await until(api, kind('idle'), 'idle again');
  });
});
