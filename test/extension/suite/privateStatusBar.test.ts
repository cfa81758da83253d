/**
 * A private status bar in a real extension host: Toggle Private Status Bar writes the user's
 * settings even where the workspace holds a value; while private, Start, Stop, a link's notice, its
 * Undo and the note that queued entries went out say what happened without a name or a time, and
 * the "Time by Branch" view holds no items until the status bar shows names again.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { LinkOutcome } from '../../../src/extension/links/linkStart';
import type { ReferenceServer } from '../../../src/server/server';
import { NotificationSpy } from '../soak/spy';
import { connectToNewServer } from './connected';
import { kind, ledgerHasTimeToday, until, untilQueued } from './states';
import { statusMessagesDuring } from './windowSpies';

const TOKEN = 'private-status-token-4c7a';
const NAME = 'Confidential client work';
const BRANCH = 'work/PRIV-731-secret';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');
/** The tooltip without its last paragraph, which names the port the app answers on. */
const tooltipWords = (api: TimeTrackerApi): string => api.tooltip.replace(/\n\nConnected [^\n]*$/, '');

/**
 * Runs `run` while timeTracker's configuration reports a workspace value of statusBar.private (as
 * an older version wrote, or a repository's settings), and records where each write of it went.
 * A write to the workspace is recorded, not made: the test workspace stays as it was.
 */
async function withWorkspaceValue(workspaceValue: boolean, run: () => Thenable<unknown>): Promise<unknown[]> {
  const workspace = vscode.workspace as unknown as { getConfiguration: typeof vscode.workspace.getConfiguration };
  const original = workspace.getConfiguration;
  const targets: unknown[] = [];
  workspace.getConfiguration = (...args: Parameters<typeof vscode.workspace.getConfiguration>) => {
    const real = original(...args);
    if (args[0] !== 'timeTracker') return real;
    return {
      ...real,
      get: real.get.bind(real),
      has: real.has.bind(real),
      inspect: <T>(key: string) => {
        const inspected = real.inspect<T>(key);
        return key === 'statusBar.private' && inspected
          ? { ...inspected, workspaceValue: workspaceValue as T }
          : inspected;
      },
      update: (key: string, value: unknown, target?: vscode.ConfigurationTarget | boolean | null) => {
        if (key !== 'statusBar.private') return real.update(key, value, target);
        targets.push(target);
        return target === vscode.ConfigurationTarget.Global ? real.update(key, value, target) : Promise.resolve();
      },
    };
  };
  try {
    await run();
  } finally {
    workspace.getConfiguration = original;
  }
  return targets;
}

describe('a private status bar names nothing unasked', function () {
  this.timeout(60_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer;
  let port: number;
  let root: string;
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  const running = (): string | undefined => {
    const session = server.controls.state.snapshot().running;
    return session === null
      ? undefined
      : server.controls.state
          .listActivities()
          .find((activity) => activity.id.toLowerCase() === session.activityID.toLowerCase())?.name;
  };

  before(async function () {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) this.skip();
    root = folder.uri.fsPath;
    git('checkout', '-q', 'main');
    ({ api, server, port } = await connectToNewServer(TOKEN));
    await api.branchWatchReady();
  });

  afterEach(async () => {
    await config().update('statusBar.private', undefined, vscode.ConfigurationTarget.Global);
    // A link test that failed leaves its notice up for seconds: taking the start back clears it.
    if (api.text.startsWith('$(link)')) await vscode.commands.executeCommand('timeTracker.undoLink');
    await config().update('links', undefined, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await vscode.commands.executeCommand('timeTracker.stop');
    git('checkout', '-q', 'main');
    // Made only when the link's test got that far.
    try {
      git('branch', '-q', '-D', BRANCH);
    } catch {
      // No such branch: nothing to remove.
    }
    await config().update('pollIntervalSeconds', undefined, vscode.ConfigurationTarget.Global);
    await config().update('port', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('timeTracker.clearToken');
    await server.close();
  });

  it("writes the user's settings when toggled, even where the workspace holds a value, and says that value is not used", async () => {
    const spy = new NotificationSpy();
    try {
      const targets = await withWorkspaceValue(false, () =>
        vscode.commands.executeCommand('timeTracker.togglePrivateStatusBar'),
      );
      assert.deepEqual(targets, [vscode.ConfigurationTarget.Global], 'never the workspace settings');
      assert.equal(config().inspect<boolean>('statusBar.private')?.globalValue, true, "the user's value switched");
      assert.deepEqual(
        spy.shown.map(({ message }) => message),
        [
          "The status bar is private now (your user settings). This repository's settings also set timeTracker.statusBar.private; their value is not used.",
        ],
      );
    } finally {
      spy.dispose();
    }
    assert.equal(api.text, '$(clock) Not tracking');
  });

  it('starts and stops without the name or the time: the item, its tooltip and the brief lines', async () => {
    await config().update('statusBar.private', true, vscode.ConfigurationTarget.Global);
    const started = await statusMessagesDuring(() =>
      vscode.commands.executeCommand('timeTracker.start', { name: NAME, createIfMissing: true }),
    );
    await until(api, kind('tracking'), 'tracking');
    assert.deepEqual(started, ['$(record) Tracking started.']);
    assert.equal(api.text, '$(record) Tracking');
    assert.doesNotMatch(tooltipWords(api), /Confidential|\d+:\d\d|\dm\b|\dh\b/, api.tooltip);
    const stopped = await statusMessagesDuring(() => vscode.commands.executeCommand('timeTracker.stop'));
    await until(api, kind('idle'), 'idle');
    assert.deepEqual(stopped, ['$(debug-stop) Tracking stopped.']);
    assert.doesNotMatch(api.text + api.tooltip, /Confidential/);
  });

  it('holds no items in Time by Branch while private, and shows them again when the status bar names things', async () => {
    server.controls.state.start({ name: NAME, createIfMissing: true });
    await until(api, kind('tracking'), 'tracking');
    assert.ok(await ledgerHasTimeToday(api), 'the ledger has time to hide');
    assert.deepEqual(
      api.branchTimeItems.map(({ label }) => label),
      ['Today', 'This Week', 'Last Week'],
    );
    await config().update('statusBar.private', true, vscode.ConfigurationTarget.Global);
    assert.deepEqual(api.branchTimeItems, [], 'no branch, no activity, no minutes on screen');
    await vscode.commands.executeCommand('timeTracker.togglePrivateStatusBar');
    assert.equal(api.branchTimeItems.length, 3, 'shown again with the toggle its welcome text offers');
    server.controls.state.stop();
    await until(api, kind('idle'), 'idle');
  });

  it('says that an entry logged offline went out, without its name or its time', async () => {
    await config().update('statusBar.private', true, vscode.ConfigurationTarget.Global);
    await server.close();
    // A keep-alive socket closing under the first ask shows as a failure, not yet as offline.
    for (let attempt = 0; attempt < 5 && api.state !== 'offline'; attempt++) await api.refresh();
    await until(api, kind('offline'), 'offline');
    await vscode.commands.executeCommand('timeTracker.log', { name: NAME, durationMinutes: 35, createIfMissing: true });
    await untilQueued(api, 1, 'the entry queued', 10_000);
    const spy = new NotificationSpy();
    try {
      await server.listen(port);
      await api.refresh();
      await untilQueued(api, 0, 'the queue sent', 20_000);
      assert.deepEqual(
        spy.shown.map(({ message }) => message),
        ['Sent an entry logged while the app was offline.'],
      );
    } finally {
      spy.dispose();
    }
    await until(api, kind('idle'), 'idle with the app back');
  });

  it('says a link started its activity without naming it, and Undo takes it back without a name', async () => {
    await config().update('statusBar.private', true, vscode.ConfigurationTarget.Global);
    await config().update(
      'links',
      [{ branch: '**', activity: '{ticket}', createIfMissing: true }],
      vscode.ConfigurationTarget.Global,
    );
    await api.branchWatchReady();
    server.controls.state.start({ name: NAME, createIfMissing: true });
    await until(api, (state) => state.kind === 'tracking' && state.activity.activityName === NAME, 'tracking');
    const linked = new Promise<LinkOutcome>((resolve) => {
      const subscription = api.onDidActOnLink((outcome) => {
        subscription.dispose();
        resolve(outcome);
      });
    });
    git('checkout', '-q', '-b', BRANCH);
    assert.deepEqual(await linked, { kind: 'started', activity: 'PRIV-731', previous: NAME });
    assert.equal(api.text, '$(link) Tracking started (linked to this branch)');
    assert.doesNotMatch(api.tooltip, /PRIV|Confidential/, api.tooltip);
    assert.match(api.tooltip, /\(command:timeTracker\.undoLink\) restarts the previous activity\./);
    const undone = await statusMessagesDuring(() => vscode.commands.executeCommand('timeTracker.undoLink'));
    assert.deepEqual(undone, ['$(discard) Tracking the previous activity again.']);
    assert.equal(running(), NAME, 'what ran before runs again');
  });
});
