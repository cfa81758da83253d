/**
 * Saying what happened, where the user is, and no longer than it is true: a status bar format with
 * an unknown token is said once with the way to the setting, and the item shows the rest of it; a
 * notice that the next state makes wrong ("…is queued", "the app rejected the token") is withdrawn
 * when that state comes.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { connectToNewServer } from './connected';
import { kind, until, untilQueued } from './states';
import { notificationsDuring, statusMessagesDuring, type ShownNotification } from './windowSpies';

const TOKEN = 'say-happened-token-61c2';
const WRONG = 'say-happened-wrong-token-0e7d';
const NAME = 'Say what happened';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');

/** Resolves once `notice` is withdrawn; fails after `ms`. */
async function withdrawn(notice: ShownNotification | undefined, ms = 5_000): Promise<void> {
  assert.ok(notice?.withdrawal, `a notice the extension withdraws: ${JSON.stringify(notice)}`);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>(
    (_resolve, reject) =>
      (timer = setTimeout(() => reject(new Error(`still shown after ${ms} ms: ${notice.message}`)), ms)),
  );
  try {
    await Promise.race([notice.withdrawal.done, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('saying what happened, for as long as it is true', function () {
  this.timeout(40_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer;
  let port: number;

  before(async () => {
    ({ api, server, port } = await connectToNewServer(TOKEN));
    server.controls.state.start({ name: NAME, createIfMissing: true });
    await until(api, (state) => state.kind === 'tracking' && state.activity.activityName === NAME, 'tracking');
  });

  after(async () => {
    await config().update('statusBar.format', undefined, vscode.ConfigurationTarget.Global);
    await server.close();
    await vscode.commands.executeCommand('timeTracker.clearToken');
  });

  it('says once that the status bar format names an unknown token, with Open Settings, and shows the rest of the format', async () => {
    const shown = await notificationsDuring(() =>
      config().update('statusBar.format', '{activty} {elapsed}', vscode.ConfigurationTarget.Global),
    );
    assert.equal(shown.length, 1, JSON.stringify(shown));
    assert.match(shown[0]!.message, /names \{activty\}, which it does not know/);
    assert.deepEqual(shown[0]!.buttons, ['Open Settings']);
    assert.match(
      api.text,
      /^\$\(record\) \{activty\} (?:< 1m|\d+m|\d+h(?: \d+m)?)$/,
      'the time, and the mistake where the name would be',
    );
    const again = await notificationsDuring(async () => {
      await api.refresh();
      await config().update('statusBar.private', true, vscode.ConfigurationTarget.Global);
      await config().update('statusBar.private', undefined, vscode.ConfigurationTarget.Global);
    });
    assert.deepEqual(again, [], 'not again while the value stays');
    await config().update('statusBar.format', undefined, vscode.ConfigurationTarget.Global);
  });

  it('shows the default for an empty status bar format, not a bare icon, and says nothing about it', async () => {
    const shown = await notificationsDuring(() =>
      config().update('statusBar.format', '', vscode.ConfigurationTarget.Global),
    );
    assert.match(api.text, /^\$\(record\) Say what happened (?:< 1m|\d+m|\d+h(?: \d+m)?) · today \d+m$/);
    assert.deepEqual(shown, []);
    await config().update('statusBar.format', undefined, vscode.ConfigurationTarget.Global);
  });

  it('withdraws "…is queued" once the queue sends the entry, and says what was sent', async () => {
    await server.close();
    await until(api, kind('offline'), 'offline');
    const queued = await notificationsDuring(() =>
      vscode.commands.executeCommand('timeTracker.log', {
        name: 'Code review',
        durationMinutes: 45,
        createIfMissing: true,
      }),
    );
    const whileWaiting = queued[0]?.withdrawal?.withdrawn;
    // The app comes back before anything is asserted: a failed assertion must leave the next test an app that answers.
    const sent = await notificationsDuring(async () => {
      server = createReferenceServer({ token: TOKEN });
      await server.listen(port);
      await untilQueued(api, 0, 'the queue to be sent', 20_000);
    });
    assert.equal(queued.length, 1, JSON.stringify(queued));
    assert.match(queued[0]!.message, /45m on Code review is queued/);
    assert.equal(whileWaiting, false, 'shown while the entry waits');
    await withdrawn(queued[0]);
    assert.deepEqual(
      sent.map(({ message }) => message),
      ['Sent 45m on Code review (logged while the app was offline).'],
    );
  });

  it('says a failed Start and Stop with the token rejected as errors with Set Token, and the recovery in the status bar', async () => {
    await vscode.commands.executeCommand('timeTracker.setToken', WRONG);
    await until(api, kind('tokenRejected'), 'the token rejected');
    const shown = await notificationsDuring(async () => {
      await vscode.commands.executeCommand('timeTracker.start', { name: 'Blocked start', createIfMissing: true });
      await vscode.commands.executeCommand('timeTracker.stop');
    });
    // The token works again before anything is asserted, for the tests after this one.
    const said = await statusMessagesDuring(async () => {
      await vscode.commands.executeCommand('timeTracker.setToken', TOKEN);
      await until(api, (state) => state.kind === 'idle' || state.kind === 'tracking', 'the token working again');
    });
    assert.deepEqual(
      shown.map(({ message, buttons, withdrawal }) => ({ message: message.split('.')[0], buttons, withdrawal })),
      [
        { message: 'Tracking was not started', buttons: ['Set Token'], withdrawal: undefined },
        { message: 'Tracking was not stopped', buttons: ['Set Token'], withdrawal: undefined },
      ],
      'errors, each with its fix as a button, not progress',
    );
    assert.match(shown[1]!.message, /^Tracking was not stopped\. The app rejected the token: copy it again/);
    assert.ok(said.includes('$(check) The app takes requests again.'), JSON.stringify(said));
  });
});
