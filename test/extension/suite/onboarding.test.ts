/**
 * Onboarding in a real extension host with a fresh profile: the first-run notice, the "Get
 * started" walkthrough opened, and its four steps walked from "no token" to "tracking" through
 * the commands of the walkthrough's buttons, each completion condition becoming true from the
 * real event (the reference server starting to listen, the token stored, the app accepting it,
 * an activity running).
 */
import * as assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { WALKTHROUGH_ID } from '../../../src/tracker/ids';
import { WALKTHROUGH_STEPS, type OnboardingProgress } from '../../../src/tracker/onboarding/onboardingProgress';
import { untilEvent } from './states';
import { suiteLaunch } from '../launch';

const extensionId = 'clessira-tools.clessira-time-tracker';
const TOKEN = 'onboarding-test-token-93d1';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');

describe('onboarding: the walkthrough from no token to tracking', function () {
  this.timeout(30_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer | undefined;
  let port: number;
  const saved = { port: undefined as unknown, pollIntervalSeconds: undefined as unknown };

  /** Resolves once the onboarding progress satisfies `predicate`; never sleeps blindly. */
  function until(
    predicate: (progress: OnboardingProgress) => boolean,
    what: string,
    timeoutMs = 10_000,
  ): Promise<OnboardingProgress> {
    return untilEvent(
      api.onboarding.onDidChange,
      () => api.onboarding.progress,
      predicate,
      () =>
        `Timed out waiting for ${what}; onboarding is at ${JSON.stringify(api.onboarding.progress)}, the status bar shows ${api.text}`,
      timeoutMs,
    );
  }

  before(async () => {
    api = (await vscode.extensions.getExtension(extensionId)!.activate()) as TimeTrackerApi;
    saved.port = config().inspect('port')?.globalValue;
    saved.pollIntervalSeconds = config().inspect('pollIntervalSeconds')?.globalValue;
    // A port on which nothing listens yet: the app with its HTTP API switch off.
    const probe = createReferenceServer({ token: TOKEN });
    port = await probe.listen(0);
    await probe.close();
    await config().update('pollIntervalSeconds', 2, vscode.ConfigurationTarget.Global);
    await config().update('port', port, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    if (api.state === 'tracking') await vscode.commands.executeCommand('timeTracker.stop');
    await vscode.commands.executeCommand('timeTracker.clearToken');
    await config().update('port', saved.port, vscode.ConfigurationTarget.Global);
    await config().update('pollIntervalSeconds', saved.pollIntervalSeconds, vscode.ConfigurationTarget.Global);
    await server?.close();
  });

  it('showed the first-run notice at activation, as the fresh profile had no token', () => {
    if (suiteLaunch().host === 'code-server') {
      // code-server starts with a new profile every run; SERVICE_TOKEN would count as a token.
      assert.equal(api.onboarding.notice, process.env.SERVICE_TOKEN ? 'hasToken' : 'shown');
    } else {
      // @vscode/test-electron keeps its profile between runs, where "Don't show again" may have been chosen.
      assert.notEqual(api.onboarding.notice, 'deciding');
    }
  });

  it('opens the "Get started" walkthrough', async () => {
    const tabs = (): string[] => vscode.window.tabGroups.all.flatMap((group) => group.tabs.map((tab) => tab.label));
    const before = tabs();
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${extensionId}#${WALKTHROUGH_ID}`, false);
    const opened = tabs().filter((label) => !before.includes(label));
    assert.equal(opened.length, 1, `tabs before ${JSON.stringify(before)}, after ${JSON.stringify(tabs())}`);
    assert.equal(vscode.window.tabGroups.activeTabGroup.activeTab?.label, opened[0]);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it("walks the four steps, each completed by its real event, through the buttons' commands", async () => {
    // The start: no token, and nothing answers on the port.
    await vscode.commands.executeCommand('timeTracker.clearToken');
    await until(
      (progress) => !progress.appReachable && !progress.hasToken && !progress.connected && !progress.tracking,
      'no progress',
    );

    // Step 1, "Connect the app", here through the HTTP API: the app starts listening on the port;
    // the step's button asks at once (without it the probe asks again every poll interval, see the
    // next test).
    server = createReferenceServer({ token: TOKEN });
    await server.listen(port);
    await vscode.commands.executeCommand('timeTracker.checkConnection');
    await until((progress) => progress.appReachable, 'the app answering');
    assert.deepEqual(api.onboarding.progress, {
      appReachable: true,
      hasToken: false,
      connected: false,
      tracking: false,
    });
    assert.equal(api.state, 'noToken');
    // The probe connects and closes without sending a byte: the app has seen no request it could count as a failed
    // sign-in.
    assert.deepEqual(server.controls.debugView(), []);

    // Step 2, "Set the token" (its button with the token as argument, as the input box would give it).
    assert.equal(await vscode.commands.executeCommand('timeTracker.setToken', TOKEN), true);
    await until((progress) => progress.hasToken, 'the token');

    // Step 3, "Check the connection": the app accepting the token is what completes it.
    const advice = await vscode.commands.executeCommand<{ severity: string; message: string }>(
      'timeTracker.checkConnection',
    );
    assert.equal(advice.severity, 'info', advice.message);
    await until((progress) => progress.connected, 'connected');
    assert.equal(api.state, 'idle');
    assert.equal(api.onboarding.progress.tracking, false);

    // Step 4, "Start tracking".
    const started = await vscode.commands.executeCommand<{ activityID: string; activityName: string } | undefined>(
      'timeTracker.start',
      { name: 'Onboarding', createIfMissing: true },
    );
    assert.equal(started?.activityName, 'Onboarding');
    await until((progress) => progress.tracking, 'tracking');
    assert.equal(api.state, 'tracking');
    assert.equal(server.controls.state.snapshot().running?.activityID, started.activityID);

    // Every step's completion condition holds at the end.
    const progress = api.onboarding.progress;
    assert.deepEqual(
      WALKTHROUGH_STEPS.filter((step) => !progress[step.progress]).map((step) => step.id),
      [],
    );
  });

  it('takes the connection back when the app goes away, and finds the app again by itself without a token', async () => {
    await vscode.commands.executeCommand('timeTracker.stop');
    await server?.close();
    server = undefined;
    await until((progress) => !progress.appReachable && !progress.connected && !progress.tracking, 'offline');
    await vscode.commands.executeCommand('timeTracker.clearToken');
    await until((progress) => !progress.hasToken, 'no token');

    // Something that accepts connections on the port and says nothing is reachable: the probe
    // connects and closes, sending no byte, and asks again every poll interval with no command.
    let connections = 0;
    let bytes = 0;
    let askedTwice: (() => void) | undefined;
    const sockets = new Set<Socket>();
    const listener = createServer((socket) => {
      sockets.add(socket);
      socket.on('data', (chunk) => (bytes += chunk.length));
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
      if (++connections === 2) askedTwice?.();
    });
    await new Promise<void>((resolve) => listener.listen(port, '127.0.0.1', resolve));
    try {
      await until((progress) => progress.appReachable, 'a listener on the port');
      await new Promise<void>((resolve, reject) => {
        if (connections >= 2) return resolve();
        const timer = setTimeout(() => reject(new Error(`the probe asked ${connections} time(s), not twice`)), 10_000);
        askedTwice = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      assert.equal(bytes, 0, 'the probe sent nothing');
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }

    // Nothing listens any more: the next probe is refused, and the step follows by itself.
    await until((progress) => !progress.appReachable, 'nothing listening on the port');

    // The app comes back: the next probe finds it, and it has seen no request.
    server = createReferenceServer({ token: TOKEN });
    await server.listen(port);
    await until((progress) => progress.appReachable, 'the app answering again');
    assert.deepEqual(server.controls.debugView(), []);
  });
});
