/**
 * In a real extension host: the status bar shows what timeTracker.statusBar.format
 * says, at once; a private status bar holds no name and no time in its text or tooltip while the
 * menu still names the activity; and a move to the other side keeps what the item shows.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { ReferenceServer } from '../../../src/server/server';
import { connectToNewServer } from './connected';
import { withMenuChoice } from './menuAnswers';
import { kind, until } from './states';

const TOKEN = 'status-shape-token-8d1e';
const NAME = 'Shape the status bar';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');
const SETTINGS = ['statusBar.format', 'statusBar.private', 'statusBar.alignment', 'statusBar.priority'] as const;

/** The tooltip without its last paragraph, which names the port the app answers on (digits that are no time). */
const tooltipWords = (api: TimeTrackerApi): string => api.tooltip.replace(/\n\nConnected [^\n]*$/, '');

describe('a status bar the user shapes', function () {
  this.timeout(30_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer;

  before(async () => {
    ({ api, server } = await connectToNewServer(TOKEN));
    server.controls.state.start({ name: NAME, createIfMissing: true });
    await until(api, (state) => state.kind === 'tracking' && state.activity.activityName === NAME, 'tracking');
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

  it('shows what the format says, at once, and an unknown token as written', async () => {
    assert.match(
      api.text,
      /^\$\(record\) Shape the status bar (?:< 1m|\d+m|\d+h(?: \d+m)?) · today (?:< 1m|\d+m|\d+h(?: \d+m)?)$/,
      'the default: whole minutes',
    );
    await config().update('statusBar.format', '{elapsed} – {activity} ({today})', vscode.ConfigurationTarget.Global);
    assert.match(
      api.text,
      /^\$\(record\) (?:< 1m|\d+m|\d+h(?: \d+m)?) – Shape the status bar \(today (?:< 1m|\d+m|\d+h(?: \d+m)?)\)$/,
    );
    await config().update('statusBar.format', '{activity} {elapsedSeconds}', vscode.ConfigurationTarget.Global);
    assert.match(api.text, /^\$\(record\) Shape the status bar \d+:\d\d$/, 'the seconds, one token away');
    await config().update('statusBar.format', '{activity} {nonsense}', vscode.ConfigurationTarget.Global);
    assert.equal(api.text, '$(record) Shape the status bar {nonsense}');
  });

  it('hides every name and time from the text and tooltip when private, and the menu still names the activity', async () => {
    await config().update(
      'statusBar.format',
      '{activity} {elapsed} {today} {branchToday}',
      vscode.ConfigurationTarget.Global,
    );
    await vscode.commands.executeCommand('timeTracker.togglePrivateStatusBar');
    assert.equal(config().get('statusBar.private'), true);
    assert.equal(api.text, '$(record) Tracking');
    assert.doesNotMatch(tooltipWords(api), /Shape|status bar \d|\d+:\d\d|\dm\b|\dh\b/, api.tooltip);
    assert.doesNotMatch(api.tooltip, /Shape/);
    const menu = await withMenuChoice(undefined, () => vscode.commands.executeCommand('timeTracker.showMenu'));
    assert.match(menu.placeholder ?? '', /Shape the status bar/, 'the menu, opened on purpose, names it');
    await vscode.commands.executeCommand('timeTracker.togglePrivateStatusBar');
    assert.match(api.text, /^\$\(record\) Shape the status bar (?:< 1m|\d+m|\d+h(?: \d+m)?)/);
  });

  it('keeps what it shows when it moves to the other side or changes its priority', async () => {
    const before = api.text;
    await config().update('statusBar.alignment', 'right', vscode.ConfigurationTarget.Global);
    await config().update('statusBar.priority', 5, vscode.ConfigurationTarget.Global);
    assert.match(
      api.text,
      /^\$\(record\) Shape the status bar (?:< 1m|\d+m|\d+h(?: \d+m)?) · today (?:< 1m|\d+m|\d+h(?: \d+m)?)$/,
    );
    assert.equal(api.text.replace(/(?:< )?\d+[hm]/g, ''), before.replace(/(?:< )?\d+[hm]/g, ''));
    await config().update('statusBar.private', true, vscode.ConfigurationTarget.Global);
    assert.equal(api.text, '$(record) Tracking');
  });
});
