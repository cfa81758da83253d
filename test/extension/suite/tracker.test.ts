/**
 * The extension in a real extension host against the reference server started in this very
 * process: every status bar state, the commands with arguments and the service state after
 * each, the token in SecretStorage, live settings, recovery after a restart, and a clean log.
 */
import * as assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ServiceClient } from '../../../src/client';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { loggedEntries } from '../../support/server';
import { NotificationSpy } from '../soak/spy';
import { kind, until, untilQueued } from './states';
import { connectToNewServer } from './connected';
import { withWizardAnswers } from './wizardAnswers';

const extensionId = 'clessira-tools.clessira-time-tracker';
const TOKEN = 'extension-test-token-7f3a9c';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');

/**
 * Every test twice: against the reference server's full answers, and against the smallest answers
 * the shipping app is known to give (PROTOCOL.md §8: `{"ok":true}`, flat results, upper-case ids).
 */
for (const answers of ['full', 'minimal'] as const) {
  describe(`the extension against the reference server (${answers} answers)`, function () {
    this.timeout(30_000);
    let api: TimeTrackerApi;
    let server: ReferenceServer;
    let port: number;

    async function startServer(atPort = 0): Promise<void> {
      server = createReferenceServer({ token: TOKEN, answers });
      port = await server.listen(atPort);
    }

    let savedLogLevel: unknown;

    before(async () => {
      // Requests are logged at debug: at that level the token check below sees one line per request.
      savedLogLevel = await vscode.commands.executeCommand('_extensionTests.getLogLevel');
      await vscode.commands.executeCommand('_extensionTests.setLogLevel', 'debug');
      await startServer();
      api = (await vscode.extensions.getExtension(extensionId)!.activate()) as TimeTrackerApi;
      await config().update('pollIntervalSeconds', 2, vscode.ConfigurationTarget.Global);
      await config().update('port', port, vscode.ConfigurationTarget.Global);
    });

    after(async () => {
      await server.close();
      await vscode.commands.executeCommand('timeTracker.clearToken');
      await vscode.commands.executeCommand('_extensionTests.setLogLevel', savedLogLevel);
    });

    it('registers exactly the commands it contributes', async () => {
      const manifest = vscode.extensions.getExtension(extensionId)!.packageJSON as {
        contributes: { commands: { command: string }[]; views: Record<string, { id: string }[]> };
      };
      const contributed = manifest.contributes.commands.map((command) => command.command).sort();
      // VS Code registers a view's own commands (`<view>.focus`, `.open`…): not ours to contribute.
      const views = Object.values(manifest.contributes.views).flatMap((list) => list.map((view) => `${view.id}.`));
      const registered = (await vscode.commands.getCommands(true))
        .filter((id) => id.startsWith('timeTracker.') && !views.some((view) => id.startsWith(view)))
        .sort();
      assert.deepEqual(registered, contributed);
    });

    it('asks for a token when none is stored', async () => {
      await vscode.commands.executeCommand('timeTracker.clearToken');
      await until(api, kind('noToken'), 'no token');
      assert.equal(api.text, '$(key) Time Tracker: set token');
    });

    it("stores the token in SecretStorage and shows the idle state with today's total", async () => {
      assert.equal(await vscode.commands.executeCommand('timeTracker.setToken', TOKEN), true);
      await until(api, kind('idle'), 'idle');
      assert.equal(api.text, '$(clock) Not tracking · today 0m');
    });

    it('starts, logs and stops through the commands with arguments', async () => {
      const started = await vscode.commands.executeCommand<{ activityID: string }>('timeTracker.start', {
        name: 'Extension work',
        createIfMissing: true,
      });
      assert.ok(started.activityID);
      // The app writes ids upper-case (as Swift does); the server keeps them lower-case.
      assert.equal(server.controls.state.snapshot().running?.activityID, started.activityID.toLowerCase());
      const tracking = await until(api, kind('tracking'), 'tracking');
      assert.equal(tracking.kind === 'tracking' && tracking.activity.activityName, 'Extension work');
      assert.match(api.text, /^\$\(record\) Extension work (?:< 1m|\d+m|\d+h(?: \d+m)?) · today \dm$/);

      await vscode.commands.executeCommand('timeTracker.log', {
        name: 'Reviews',
        durationMinutes: '1h30m',
        note: 'PR 7',
        createIfMissing: true,
      });
      const entries = server.controls.state.listEntries();
      assert.equal(entries.length, 1);
      assert.deepEqual({ minutes: entries[0]?.durationMinutes, note: entries[0]?.note }, { minutes: 90, note: 'PR 7' });
      assert.equal(
        server.controls.state.snapshot().running?.activityID,
        started.activityID.toLowerCase(),
        'logging leaves the running activity alone',
      );

      await vscode.commands.executeCommand('timeTracker.stop');
      assert.equal(server.controls.state.snapshot().running, null);
      assert.equal(server.controls.state.listSessions().length, 1);
      await until(api, kind('idle'), 'idle after stop');
      assert.match(api.text, /today 1h 3\dm|today 1h 30m/);
    });

    it('refuses bad command arguments with a sentence and sends nothing', async () => {
      const before = server.controls.debugView().length;
      assert.equal(
        await vscode.commands.executeCommand('timeTracker.log', { name: 'Reviews', durationMinutes: '0' }),
        undefined,
      );
      assert.equal(await vscode.commands.executeCommand('timeTracker.start', { createIfMissing: true }), undefined);
      assert.equal(server.controls.debugView().length, before);
    });

    it('shows the break, the locked license and the unwired endpoint distinctly', async () => {
      server.controls.setBreak(true);
      await until(api, (state) => state.kind === 'idle' && state.onBreak, 'on break');
      assert.match(api.text, /^\$\(coffee\) On break/);
      server.controls.setBreak(false);

      server.controls.setLicense('locked');
      await until(api, kind('licenseLocked'), 'license locked');
      assert.equal(api.text, '$(lock) Time Tracker: license locked');
      server.controls.setLicense('valid');

      server.controls.setUnwired('/status');
      await until(api, kind('unavailable'), 'unwired');
      server.controls.setUnwired('/status', false);
      await until(api, kind('idle'), 'idle again');
    });

    it("says the clock is off when the app's clock differs by more than 60 s", async () => {
      server.controls.setClock(() => Date.now() + 300_000);
      try {
        await until(api, kind('tokenRejected'), 'clock skew');
        assert.match(api.text, /your clock is off by (299|300|301) s/);
      } finally {
        server.controls.setClock(() => Date.now());
      }
      await vscode.commands.executeCommand('timeTracker.setToken', TOKEN);
      await until(api, kind('idle'), 'idle after the clock is right');
    });

    it('shows a rejected token and a lockout with the seconds left', async () => {
      await vscode.commands.executeCommand('timeTracker.setToken', 'not-the-token');
      await until(api, kind('tokenRejected'), 'token rejected');
      assert.equal(api.text, '$(error) Time Tracker: token rejected');
      const intruder = new ServiceClient({ token: 'wrong-token-again', port });
      try {
        for (let i = 0; i < 11; i++) await intruder.healthcheck().catch(() => undefined);
      } finally {
        await intruder.close();
      }
      await vscode.commands.executeCommand('timeTracker.setToken', TOKEN);
      await until(api, kind('lockedOut'), 'locked out');
      assert.match(api.text, /^\$\(circle-slash\) Time Tracker: locked out \(\d+ s\)$/);
    });

    it('shows offline when the app is gone and resumes polling by itself when it is back', async () => {
      await server.close();
      await until(api, kind('offline'), 'offline');
      assert.equal(api.text, '$(debug-disconnect) Time Tracker offline');
      await startServer(port);
      // No refresh from here on: the poller's own back-off must find the server again.
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`polling did not resume; ${api.text}`)), 15_000);
        const subscription = api.onDidChangeState((state) => {
          if (state.kind !== 'idle') return;
          clearTimeout(timer);
          subscription.dispose();
          resolve();
        });
      });
    });

    it('applies setting changes live', async () => {
      await config().update('statusBar.showTodayTotal', false, vscode.ConfigurationTarget.Global);
      try {
        assert.equal(api.text, '$(clock) Not tracking');
      } finally {
        await config().update('statusBar.showTodayTotal', undefined, vscode.ConfigurationTarget.Global);
      }
      const other = createReferenceServer({ token: TOKEN, answers, seedActivities: ['Elsewhere'] });
      const otherPort = await other.listen(0);
      try {
        other.controls.state.start({ name: 'Elsewhere' });
        await config().update('port', otherPort, vscode.ConfigurationTarget.Global);
        const state = await until(api, kind('tracking'), 'tracking on the other port');
        assert.equal(state.kind === 'tracking' && state.activity.activityName, 'Elsewhere');
      } finally {
        await config().update('port', port, vscode.ConfigurationTarget.Global);
        await other.close();
      }
      await until(api, kind('idle'), 'back on the first port');
    });

    it('never writes the token into its log', async () => {
      const folder = api.logUri.fsPath;
      const files = (await readdir(folder, { recursive: true })).filter((name) => name.endsWith('.log'));
      assert.ok(files.length > 0, `no log file in ${folder}`);
      let requestLines = 0;
      for (const file of files) {
        const text = await readFile(join(folder, file), 'utf8');
        assert.equal(text.includes(TOKEN), false, `${file} contains the token`);
        assert.equal(text.includes('not-the-token'), false, `${file} contains the wrong token`);
        requestLines += (text.match(/GET \/status \d{3} [\d.]+ ms/g) ?? []).length;
      }
      assert.ok(requestLines > 0, 'the log has one line per request');
    });
  });
}

describe('logging while the app is away', function () {
  this.timeout(40_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer;
  let port: number;

  before(async () => {
    ({ api, server, port } = await connectToNewServer(TOKEN));
  });

  after(async () => {
    await server.close();
    await vscode.commands.executeCommand('timeTracker.clearToken');
  });

  it('queues entries logged while the app is gone and sends them once, in order, when it is back', async () => {
    await server.close();
    await until(api, kind('offline'), 'offline');
    for (const [name, minutes] of [
      ['First', 10],
      ['Second', 20],
      ['Third', 30],
    ] as const) {
      const result = await vscode.commands.executeCommand('timeTracker.log', {
        name,
        durationMinutes: minutes,
        createIfMissing: true,
      });
      assert.equal(result, undefined, 'nothing was logged yet');
    }
    assert.equal(api.queuedEntries, 3);
    assert.match(api.text, /· \$\(inbox\) 3 queued$/);
    server = createReferenceServer({ token: TOKEN });
    await server.listen(port);
    // No user action from here: the next poll finds the app and the queue is sent.
    await untilQueued(api, 0, 'the queue to be sent', 20_000);
    assert.deepEqual(loggedEntries(server), [
      ['First', 10],
      ['Second', 20],
      ['Third', 30],
    ]);
    await api.refresh();
    assert.equal(server.controls.state.listEntries().length, 3, 'each exactly once');
    assert.doesNotMatch(api.text, /queued/);
  });

  it('names the activity picked from the list when Log Time queues its entry', async () => {
    // Logged once while the app answers, so the picker lists it as recent (its search cannot answer offline).
    await vscode.commands.executeCommand('timeTracker.log', {
      name: 'Picked work',
      durationMinutes: 5,
      createIfMissing: true,
    });
    await server.close();
    await until(api, kind('offline'), 'offline');
    const spy = new NotificationSpy();
    try {
      const result = await withWizardAnswers({ pick: 'Picked work', typed: ['45m', ''] }, () =>
        vscode.commands.executeCommand('timeTracker.log'),
      );
      assert.equal(result, undefined, 'nothing was logged yet');
      const warnings = spy.shown.filter(({ severity }) => severity === 'notice').map(({ message }) => message);
      assert.deepEqual(warnings, ['45m on Picked work is queued until the app answers.']);
    } finally {
      spy.dispose();
    }
    assert.equal(api.queuedEntries, 1);
    // The same app comes back, with the activity the entry names by its id.
    await server.listen(port);
    await untilQueued(api, 0, 'the queued entry to be sent', 20_000);
    assert.deepEqual(loggedEntries(server).at(-1), ['Picked work', 45]);
  });
});
