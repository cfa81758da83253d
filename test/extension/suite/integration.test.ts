/**
 * Zero setup: the app's VS Code integration in a real extension host. `timeTracker.capabilityFile`
 * points into a temporary folder, and the reference server in this process plays the app: it
 * listens on a Unix socket and writes the capability file there, restarts with a new token and
 * socket, quits, comes back as a build from before the rebrand, crashes. The extension must follow
 * each time by itself, with no command and no reload; the offline queue and branch reports must
 * work through the socket too.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, watch, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { HeaderPrefix } from '../../../src/protocol/headers';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import type { Advice } from '../../../src/tracker/advice/advice';
import type { TrackerState } from '../../../src/tracker/model/trackerState';
import { loggedEntries } from '../../support/server';
import { commandsOf, withMenuChoice } from './menuAnswers';
import { kind, until, untilEvent, untilQueued } from './states';
import { withWizardAnswers } from './wizardAnswers';

const extensionId = 'clessira-tools.clessira-time-tracker';
const TOKENS = [
  'integration-token-first-8c1d',
  'integration-token-second-2b7e',
  'integration-token-nowdoing-5f0a',
  'integration-token-back-93aa',
  'integration-token-menu-61fd',
] as const;
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');

describe("the app's VS Code integration: no setup, through its socket", function () {
  this.timeout(40_000);
  let api: TimeTrackerApi;
  let dir: string;
  let capabilityFile: string;
  const apps: ReferenceServer[] = [];
  const saved = { capabilityFile: undefined as unknown, pollIntervalSeconds: undefined as unknown };

  /** The app with its VS Code integration switched on: a socket, and the file announcing it. */
  async function startApp(
    token: string,
    socket: string,
    options: { headerPrefix?: HeaderPrefix; seed?: string[] } = {},
  ): Promise<ReferenceServer> {
    const app = createReferenceServer({
      token,
      seedActivities: options.seed ?? [],
      ...(options.headerPrefix ? { headerPrefix: options.headerPrefix } : {}),
    });
    await app.listenOnSocket(join(dir, socket), { capabilityFile });
    apps.push(app);
    return app;
  }

  /** Waits on the extension's own events only: no refresh, no command, as a user who does nothing. */
  function untilByItself(
    predicate: (state: TrackerState) => boolean,
    what: string,
    timeoutMs = 12_000,
  ): Promise<TrackerState> {
    return untilEvent(
      api.onDidChangeState,
      () => api.details,
      predicate,
      () => `Timed out waiting for ${what}; the status bar shows ${api.text} (channel ${api.channel})`,
      timeoutMs,
    );
  }

  before(async () => {
    api = (await vscode.extensions.getExtension(extensionId)!.activate()) as TimeTrackerApi;
    saved.capabilityFile = config().inspect('capabilityFile')?.globalValue;
    saved.pollIntervalSeconds = config().inspect('pollIntervalSeconds')?.globalValue;
    // Short: a Unix socket path has room for 107 bytes.
    dir = await mkdtemp(join(tmpdir(), 'tti-'));
    capabilityFile = join(dir, 'api-endpoint.json');
    await config().update('pollIntervalSeconds', 2, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('timeTracker.clearToken');
    await config().update('capabilityFile', capabilityFile, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    for (const app of apps) await app.close();
    await config().update('capabilityFile', saved.capabilityFile, vscode.ConfigurationTarget.Global);
    await config().update('pollIntervalSeconds', saved.pollIntervalSeconds, vscode.ConfigurationTarget.Global);
    await rm(dir, { recursive: true, force: true });
  });

  it('starts without a token and without the integration: not connected, pointing at the VS Code switch first', async () => {
    await until(api, kind('noToken'), 'no token');
    assert.equal(api.channel, 'none');
    assert.match(api.tooltip, /Settings → Integrations → VSCode/);
  });

  it('connects through the socket as soon as the app writes its file, with no command', async () => {
    const app = await startApp(TOKENS[0], 'a.sock', { seed: ['Deep work'] });
    app.controls.state.start({ name: 'Deep work' });
    const state = await untilByItself((state) => state.kind === 'tracking', 'tracking through the socket');
    assert.equal(state.kind === 'tracking' && state.activity.activityName, 'Deep work');
    assert.equal(api.channel, 'integration');
    assert.match(api.text, /^\$\(record\) Deep work (?:< 1m|\d+m|\d+h(?: \d+m)?) · today \dm$/);
    assert.match(api.tooltip, /Connected through the app's VS Code integration\.$/);
    assert.ok(app.controls.debugView().some((record) => record.path === '/status' && record.status === 200));
    assert.deepEqual(
      app.controls.debugView().filter((record) => record.status >= 400),
      [],
      'the current prefix works at once: no refused request',
    );
    const advice = await vscode.commands.executeCommand<Advice>('timeTracker.checkConnection');
    // The user never saw the integration's token: the verdict does not speak of one.
    assert.equal(
      advice.message,
      "Connected to the time tracker through the app's VS Code integration: the license is valid.",
    );
  });

  it('follows the app when it restarts with a new token and a new socket', async () => {
    await apps.pop()!.close();
    const app = await startApp(TOKENS[1], 'b.sock', { seed: ['After restart'] });
    app.controls.state.start({ name: 'After restart' });
    await untilByItself(
      (state) => state.kind === 'tracking' && state.activity.activityName === 'After restart',
      "the restarted app's state",
    );
    assert.equal(api.channel, 'integration');
    assert.deepEqual(
      app.controls.debugView().filter((record) => record.status === 401),
      [],
      'the new token is used from the first request',
    );
  });

  it('says in Set Token, while the integration is in use, that no token is needed, and what one set then does', async () => {
    assert.equal(api.channel, 'integration');
    const window = vscode.window as unknown as { showInputBox: typeof vscode.window.showInputBox };
    const { showInputBox } = window;
    const asked: (vscode.InputBoxOptions | undefined)[] = [];
    window.showInputBox = (options?: vscode.InputBoxOptions) => {
      asked.push(options);
      return Promise.resolve(undefined);
    };
    try {
      assert.equal(await vscode.commands.executeCommand('timeTracker.setToken'), false, 'left without a token');
    } finally {
      window.showInputBox = showInputBox;
    }
    assert.equal(asked.length, 1);
    assert.equal(
      asked[0]?.prompt,
      "No token is needed: the app's VS Code integration connects through its socket. " +
        "A token set here is kept for the app's HTTP API, used only when the integration is off.",
    );
    assert.equal(api.channel, 'integration', 'nothing changed');
  });

  it('goes offline when the app quits and its file goes, and says why', async () => {
    await apps.pop()!.close();
    // The socket may refuse a poll before the watcher sees the file gone: offline either way,
    // and then the channel must be given up. Not for `http`: the integration's token was never
    // copied into secret storage.
    await untilByItself(
      (state) => state.kind === 'offline' && api.channel === 'none',
      'offline with no channel after the app quit',
    );
    assert.equal(api.text, '$(debug-disconnect) Time Tracker offline');
    assert.match(api.tooltip, /not answering through its VS Code integration/);
    const advice = await vscode.commands.executeCommand<Advice>('timeTracker.checkConnection');
    assert.match(advice.message, /not running, or its VS Code integration is off/);
  });

  it('logs time from the menu while the app is gone and no way to it is left: the entry queues and goes once the app is back', async () => {
    assert.equal(api.channel, 'none');
    const menu = await withMenuChoice('timeTracker.log', () =>
      withWizardAnswers(
        {
          pick: '$(add) Log to “Socketless work” (matched by name when the app is back)',
          typed: ['20m', ''],
          pickerTyping: { text: 'Socketless work', keystrokeMs: 5 },
        },
        () => vscode.commands.executeCommand('timeTracker.showMenu'),
      ),
    );
    assert.equal(commandsOf(menu)[0], 'log');
    assert.equal(api.queuedEntries, 1, 'queued, not refused with "start the app"');
    const app = await startApp(TOKENS[4], 'm.sock');
    await untilQueued(api, 0, 'the queue to be sent through the socket', 20_000);
    assert.deepEqual(loggedEntries(app), [['Socketless work', 20]]);
    await apps.pop()!.close();
    await untilByItself((state) => state.kind === 'offline' && api.channel === 'none', 'offline with no channel again');
  });

  it('finds an app from before the rebrand (X-NowDoing-*) on the socket, at the cost of one refused request', async () => {
    const app = await startApp(TOKENS[2], 'c.sock', { headerPrefix: 'NowDoing' });
    await untilByItself(kind('idle'), 'idle through the socket of a NowDoing build');
    assert.equal(app.controls.debugView().filter((record) => record.status === 401).length, 1);
    await api.refresh();
    await api.refresh();
    assert.equal(
      app.controls.debugView().filter((record) => record.status === 401).length,
      1,
      'the prefix found is kept: no more refused requests',
    );
  });

  it('queues time logged while the app is away and sends it through the socket once the app is back', async () => {
    // A crash: the socket is gone, the file stays behind (its pid, this process, still runs).
    const announced = await readFile(capabilityFile, 'utf8');
    await apps.pop()!.close();
    await writeFile(capabilityFile, announced, { mode: 0o600 });
    // The watcher may still apply the moment the file was away (no channel) after a failed poll has
    // already shown offline through the integration: read the file now, as Check Connection does,
    // and wait for what it says to be applied, so that Log Time below meets the integration.
    await vscode.commands.executeCommand('timeTracker.checkConnection');
    await until(
      api,
      (state) => state.kind === 'offline' && api.channel === 'integration',
      'offline through the integration: the socket is gone',
    );
    const result = await vscode.commands.executeCommand('timeTracker.log', {
      name: 'Over the socket',
      durationMinutes: 25,
      createIfMissing: true,
    });
    assert.equal(result, undefined, 'not logged yet');
    await untilQueued(api, 1, 'the entry to be queued', 5_000);
    const app = await startApp(TOKENS[3], 'd.sock');
    // No user action from here: the new file is found, the app answers, the queue is sent.
    await untilQueued(api, 0, 'the queue to be sent through the socket', 20_000);
    assert.deepEqual(loggedEntries(app), [['Over the socket', 25]]);
  });

  it('reports a branch switch through the socket', async function () {
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    if (root === undefined) this.skip();
    const app = apps.at(-1)!;
    assert.equal(api.channel, 'integration');
    assert.deepEqual(await api.branchWatchReady(), [root]);
    const handled = new Promise<string>((resolve) => {
      const subscription = api.onDidHandleBranchSwitch((change) => {
        if (change.branch !== 'feature') return;
        subscription.dispose();
        resolve(change.outcome);
      });
    });
    execFileSync('git', ['checkout', '-q', 'feature'], { cwd: root, stdio: 'ignore' });
    try {
      assert.equal(await handled, 'reported');
      assert.deepEqual(
        app.controls.state.listBranchReports().map(({ branch }) => branch),
        ['feature'],
      );
    } finally {
      execFileSync('git', ['checkout', '-q', 'main'], { cwd: root, stdio: 'ignore' });
    }
  });

  it("never writes the integration's token into its log, settings or secret storage", async () => {
    const folder = api.logUri.fsPath;
    const files = (await readdir(folder, { recursive: true })).filter((name) => name.endsWith('.log'));
    assert.ok(files.length > 0, `no log file in ${folder}`);
    let text = '';
    for (const file of files) text += await readFile(join(folder, file), 'utf8');
    assert.match(text, /Talking to the app through the app's VS Code integration/, 'the log names the channel');
    for (const token of TOKENS) assert.equal(text.includes(token), false, `the log contains ${token}`);
    const settings = JSON.stringify(config());
    for (const token of TOKENS) assert.equal(settings.includes(token), false, 'settings');
  });

  it('keeps each log entry on one line whatever the capability file holds: its socket path, its wrong version', async () => {
    const forged = '2026-01-01 10:00:00.000 [error] forged entry';
    const forgedLines = (log: string): string[] => log.split('\n').filter((line) => line.startsWith(forged));
    // A file the extension uses: the socket path it names is logged, and answers nobody.
    const usable = {
      version: 1,
      socketPath: `${join(dir, 'e.sock')}\n${forged}`,
      token: 'integration-token-forged-4d1e',
      pid: process.pid,
    };
    await writeFile(capabilityFile, JSON.stringify(usable), { mode: 0o600 });
    await untilByItself(
      (state) => state.kind === 'offline' && api.channel === 'integration',
      'offline: the socket named is not there',
    );
    assert.deepEqual(
      forgedLines(await logMatching(/Talking to the app through .*e\.sock\\n2026-01-01/)),
      [],
      'the socket path starts no line of its own',
    );
    // A file it refuses: the wrong value is quoted in the sentence the status bar and the log give.
    await writeFile(capabilityFile, JSON.stringify({ ...usable, version: `1\n${forged}` }), { mode: 0o600 });
    const state = await untilByItself(
      (state) => state.kind === 'failed' && /is not valid/.test(state.message),
      'the file refused as not valid',
    );
    assert.equal(api.channel, 'none');
    assert.ok(
      state.kind === 'failed' && state.message.includes('not "1\\n2026-01-01'),
      state.kind === 'failed' ? state.message : state.kind,
    );
    const log = await logMatching(/is not valid: "version" must be 1, not "1\\n2026-01-01/);
    assert.deepEqual(forgedLines(log), [], 'the version starts no line of its own');
    assert.equal(log.includes(usable.token), false, 'nor is the token logged');
  });

  /**
   * The extension's log once it matches `pattern`. A line reaches the file a moment after it is
   * logged (spdlog writes it on a thread of its own): this waits for the folder to change, with a
   * bound, never for a fixed time.
   */
  async function logMatching(pattern: RegExp, timeoutMs = 5_000): Promise<string> {
    const folder = api.logUri.fsPath;
    const signal = AbortSignal.timeout(timeoutMs);
    const changes = watch(folder, { recursive: true, signal });
    const read = async (): Promise<string> => {
      const files = (await readdir(folder, { recursive: true })).filter((name) => name.endsWith('.log'));
      const texts = await Promise.all(files.map((name) => readFile(join(folder, name), 'utf8')));
      return texts.join('\n');
    };
    let text = await read();
    try {
      if (!pattern.test(text)) {
        for await (const change of changes) {
          if (change.filename !== null && !change.filename.endsWith('.log')) continue;
          text = await read();
          if (pattern.test(text)) break;
        }
      }
    } catch (error) {
      if (!signal.aborted) throw error;
    }
    // The line may have arrived between the first read and the watch starting.
    if (!pattern.test(text)) text = await read();
    assert.match(text, pattern, `the log never said it; it ends:\n${text.split('\n').slice(-6).join('\n')}`);
    return text;
  }
});
