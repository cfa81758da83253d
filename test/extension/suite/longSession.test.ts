/**
 * A session left running for hours, in a real extension host against the reference server: once it
 * has run timeTracker.statusBar.longSessionHours, the item turns the warning colour, its tooltip says
 * since when it runs with Stop as its first command, and the menu leads with Stop; private, the colour
 * stays and the time goes; a threshold beyond the session, or one out of range, is honoured as held.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { ReferenceServer } from '../../../src/server/server';
import { connectToNewServer } from './connected';
import { commandsOf, withMenuChoice } from './menuAnswers';
import { kind, until } from './states';

const TOKEN = 'long-session-token-5b2f';
const NAME = 'Forgotten timer';
const HOUR = 3_600_000;
const SETTINGS = ['statusBar.longSessionHours', 'statusBar.private'] as const;
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');
/** The commands the tooltip's links run, in the order it offers them. */
const tooltipCommands = (api: TimeTrackerApi): string[] =>
  [...api.tooltip.matchAll(/\(command:timeTracker\.(\w+)\)/g)].map((match) => match[1] ?? '');
/** The tooltip without its last paragraph, which names the port the app answers on (digits that are no time). */
const tooltipWords = (api: TimeTrackerApi): string => api.tooltip.replace(/\n\nConnected [^\n]*$/, '');

describe('a session left running for hours', function () {
  this.timeout(30_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer;

  before(async () => {
    ({ api, server } = await connectToNewServer(TOKEN));
    server.controls.state.startAgo({ name: NAME, createIfMissing: true }, 9 * HOUR);
    await until(
      api,
      (state) => state.kind === 'tracking' && state.activity.activityName === NAME && state.startedAtMs !== undefined,
      'the session started nine hours ago',
    );
  });

  afterEach(async () => {
    for (const key of SETTINGS) await config().update(key, undefined, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    server.controls.state.stop();
    await until(api, kind('idle'), 'idle');
    await server.close();
    await vscode.commands.executeCommand('timeTracker.clearToken');
  });

  it('turns the warning colour nine hours after it started, with Stop first in the tooltip and the menu', async () => {
    assert.equal(api.tone, 'warning', api.tooltip);
    assert.match(api.text, /^\$\(record\) Forgotten timer 9h(?: \dm)? · today/);
    assert.match(api.tooltip, / for 9h(?: \dm)?\. Running since (?:\d{4}-\d\d-\d\d )?\d\d:\d\d\./);
    assert.equal(tooltipCommands(api)[0], 'stop', api.tooltip);
    const menu = await withMenuChoice(undefined, () => vscode.commands.executeCommand('timeTracker.showMenu'));
    assert.equal(commandsOf(menu)[0], 'stop', JSON.stringify(menu.entries));
    assert.match(menu.entries[0]?.detail ?? '', /^Forgotten timer · running since (?:\d{4}-\d\d-\d\d )?\d\d:\d\d$/);
  });

  it('keeps the colour and Stop but shows no time while private', async () => {
    await config().update('statusBar.private', true, vscode.ConfigurationTarget.Global);
    assert.equal(api.text, '$(record) Tracking');
    assert.equal(api.tone, 'warning');
    assert.doesNotMatch(tooltipWords(api), /\d/, api.tooltip);
    assert.equal(tooltipCommands(api)[0], 'stop');
  });

  it('waits for a longer threshold, and holds one out of range at the nearer end', async () => {
    await config().update('statusBar.longSessionHours', 10, vscode.ConfigurationTarget.Global);
    assert.equal(api.tone, 'normal');
    assert.doesNotMatch(api.tooltip, /Running/);
    await config().update('statusBar.longSessionHours', 0, vscode.ConfigurationTarget.Global);
    assert.equal(api.tone, 'warning', 'held at 1 hour, not 0');
    await config().update('statusBar.longSessionHours', 1000, vscode.ConfigurationTarget.Global);
    assert.equal(api.tone, 'normal', 'held at 24 hours');
  });
});
