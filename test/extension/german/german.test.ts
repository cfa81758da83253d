/**
 * The extension with VS Code's display language set to German: VS Code must hand it the German
 * runtime bundle (l10n/bundle.l10n.de.json) and the German manifest (package.nls.de.json), and
 * what the user sees (status bar, notifications, the connection check) must come out in German,
 * from both translation paths: vscode.l10n in src/extension and @vscode/l10n in src/tracker.
 */
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { manifestKeys, valueAt } from '../../support/manifest';
import { NotificationSpy } from '../soak/spy';
import { kind, until } from '../suite/states';

const extensionId = 'clessira-tools.clessira-time-tracker';
const repoRoot = join(__dirname, '..', '..', '..', '..');
const TOKEN = 'german-test-token-4e1b';
const readJson = (...path: string[]): unknown => JSON.parse(readFileSync(join(repoRoot, ...path), 'utf8'));
const german = readJson('l10n', 'bundle.l10n.de.json') as Record<string, string>;
const germanManifest = readJson('package.nls.de.json') as Record<string, string>;

/** The German text for an English message, with its {placeholders} filled in. */
function de(message: string, values: Record<string, string> = {}): string {
  const template = german[message];
  assert.ok(template !== undefined, `no German for "${message}"`);
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

describe('the extension in German', function () {
  this.timeout(30_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer | undefined;
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');

  before(async () => {
    api = (await vscode.extensions.getExtension(extensionId)!.activate()) as TimeTrackerApi;
  });

  after(async () => {
    await server?.close();
  });

  it('runs with the display language German, and VS Code loaded the German bundle', () => {
    assert.equal(vscode.env.language, 'de');
    assert.ok(vscode.l10n.uri?.path.endsWith('/l10n/bundle.l10n.de.json'), `bundle: ${String(vscode.l10n.uri)}`);
    assert.deepEqual(vscode.l10n.bundle, german);
  });

  it('shows every text of the manifest in German: commands, settings, walkthrough', () => {
    const extension = vscode.extensions.getExtension(extensionId)!;
    // VS Code puts the text in place of each %key% of `packageJSON`; a command title becomes `{ value, original }`.
    const texts = manifestKeys(readJson('package.json')).map(({ path, key }) => {
      const shown = valueAt(extension.packageJSON, path);
      return { key, shown: typeof shown === 'object' && shown !== null && 'value' in shown ? shown.value : shown };
    });
    const wrong = texts.filter(({ key, shown }) => shown !== germanManifest[key]);
    assert.deepEqual(wrong, [], 'texts not shown in German');
    assert.deepEqual(
      new Set(texts.map(({ key }) => key)),
      new Set(Object.keys(germanManifest)),
      'every German text is used',
    );
  });

  it('shows the status bar in German, from "no token" to tracking', async () => {
    await until(api, kind('noToken'), 'no token (a fresh profile)');
    assert.equal(api.text, `$(key) ${de('Time Tracker: set token')}`);
    server = createReferenceServer({ token: TOKEN });
    await config().update('port', await server.listen(0), vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('timeTracker.setToken', TOKEN);
    await until(api, kind('idle'), 'idle');
    assert.equal(api.text, `$(clock) ${de('Not tracking')} · ${de('today {0}', { 0: '0m' })}`);
    await vscode.commands.executeCommand('timeTracker.start', { name: 'Übersetzung', createIfMissing: true });
    await until(api, kind('tracking'), 'tracking');
    assert.match(api.text, /^\$\(record\) Übersetzung (?:< 1m|\d+m) · heute 0m$/);
  });

  it('says what it did and what is wrong in German', async () => {
    const spy = new NotificationSpy();
    try {
      await vscode.commands.executeCommand('timeTracker.log', { name: 'Übersetzung', durationMinutes: 25 });
      const advice = await vscode.commands.executeCommand<{ message: string }>('timeTracker.checkConnection');
      assert.deepEqual(
        spy.shown.map(({ message }) => message),
        [de('Logged {duration} to {name}.', { duration: '25m', name: 'Übersetzung' }), advice.message],
      );
      const route = de('through the HTTP API on {0}', { 0: `127.0.0.1:${config().get<number>('port')}` });
      assert.equal(
        advice.message,
        de('Connected to the time tracker {0}: the token works and the license is valid.', { 0: route }),
      );
    } finally {
      spy.dispose();
    }
  });
});
