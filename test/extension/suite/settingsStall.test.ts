/**
 * Globs and lists from settings, and the branch names a repository's HEAD holds, in a real
 * extension host: a 500,000-star ignoreBranches glob against a HEAD naming a branch of 60,000
 * characters held the whole host busy (every extension of the window froze), and a `{ticket}` link
 * reads the branch under every ticket prefix the setting may list. Here the switch is handled, the
 * glob is named in one warning, and the status bar still follows the app afterwards.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { HandledSwitch } from '../../../src/extension/branchReporter';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { MAX_TICKET_PREFIX_LENGTH, MAX_TICKET_PREFIXES } from '../../../src/tracker/branchTime/ticketKeys';
import { NotificationSpy } from '../soak/spy';
import { kind, until } from './states';

const extensionId = 'clessira-tools.clessira-time-tracker';
const TOKEN = 'stall-test-token-51c7';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');
const GLOBAL = vscode.ConfigurationTarget.Global;

describe('no glob, list or branch name stalls the extension host', function () {
  this.timeout(30_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer;
  let root: string;
  const made: string[] = [];
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  /** The next switch handled, within 10 s (a stalled host would never get here). */
  const nextSwitch = (): Promise<HandledSwitch> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        subscription.dispose();
        reject(new Error(`no branch switch handled within 10 s; the status bar shows ${api.text}`));
      }, 10_000);
      const subscription = api.onDidHandleBranchSwitch((value) => {
        clearTimeout(timer);
        subscription.dispose();
        resolve(value);
      });
    });
  /** The status bar follows the app: what the app starts now shows. */
  const followsTheApp = async (name: string): Promise<void> => {
    server.controls.state.start({ name, createIfMissing: true });
    await until(api, (state) => state.kind === 'tracking' && state.activity.activityName === name, `${name} running`);
    server.controls.state.stop();
    await until(api, kind('idle'), 'idle again');
  };

  before(async function () {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) this.skip();
    root = folder.uri.fsPath;
    server = createReferenceServer({ token: TOKEN, answers: 'full' });
    const port = await server.listen(0);
    api = (await vscode.extensions.getExtension(extensionId)!.activate()) as TimeTrackerApi;
    await config().update('port', port, GLOBAL);
    await vscode.commands.executeCommand('timeTracker.setToken', TOKEN);
    await until(api, kind('idle'), 'the extension connected to the test server');
    assert.deepEqual(await api.branchWatchReady(), [root]);
  });

  after(async () => {
    for (const key of ['ticketPrefixes', 'links', 'git.ignoreBranches']) await config().update(key, undefined, GLOBAL);
    git('checkout', '-q', '-f', 'main');
    for (const branch of made.splice(0)) git('branch', '-q', '-D', branch);
    await server.close().catch(() => undefined);
  });

  it('handles a switch to a branch of keys under a {ticket} link and the most ticket prefixes read, and goes on following the app', async () => {
    // As many prefixes as are read, each as long as one may be, none of them the branch's.
    const prefixes = Array.from(
      { length: MAX_TICKET_PREFIXES },
      (_, index) => `P${String(index).padStart(MAX_TICKET_PREFIX_LENGTH - 1, 'X')}`,
    );
    await config().update('ticketPrefixes', prefixes, GLOBAL);
    await config().update('links', [{ branch: '**', activity: '{ticket}' }], GLOBAL);
    const branch = 'AB-1-'.repeat(40);
    const handled = nextSwitch();
    made.push(branch);
    git('checkout', '-q', '-b', branch);
    const change = await handled;
    assert.equal(change.branch, branch);
    assert.equal(change.outcome, 'reported', 'no key with a listed prefix, so no link decided it');
    await followsTheApp('After the prefixes');
    await config().update('links', undefined, GLOBAL);
    await config().update('ticketPrefixes', undefined, GLOBAL);
  });

  it('names a 500,000-star ignoreBranches glob once, and handles a HEAD naming a branch of 60,000 characters', async () => {
    const spy = new NotificationSpy();
    try {
      const stars = '*'.repeat(500_000);
      await config().update('git.ignoreBranches', [stars, 'tmp-*'], GLOBAL);
      await until(api, kind('idle'), 'settings applied');
      const handled = nextSwitch();
      // HEAD as a repository may write it: git itself would refuse to make such a branch.
      const long = `feature/${'a'.repeat(60_000)}`;
      writeFileSync(join(root, '.git', 'HEAD'), `ref: refs/heads/${long}\n`);
      const change = await handled;
      assert.equal(change.branch, long);
      assert.notEqual(change.outcome, 'ignored', 'the refused glob ignores nothing');
    } finally {
      spy.dispose();
    }
    const warnings = spy.shown.filter(({ message }) => message.includes('timeTracker.git.ignoreBranches'));
    assert.equal(warnings.length, 1, JSON.stringify(spy.shown.map(({ message }) => message.slice(0, 200))));
    assert.match(
      warnings[0]?.message ?? '',
      /has 500000 characters, more than the 1000 a glob may have, so it ignores no branch/,
    );
    const back = nextSwitch();
    writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    assert.equal((await back).branch, 'main');
    await followsTheApp('After the glob');
  });
});
