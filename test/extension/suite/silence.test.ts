/**
 * Nothing ends in silence, in a real extension host against the reference server:
 * Log Time's duration step refuses an empty or rounded-away duration and stays open, Set Token
 * says at once whether the app took the token (with one signed request, none during a lockout),
 * Clear Token says what it removed, Stop says what stopped and for how long (or that nothing
 * runs), and a queued entry that is finally sent is said once. Against the full answers and the
 * smallest the shipping app gives (PROTOCOL.md §8).
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ServiceClient } from '../../../src/client';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { RequestRecord } from '../../../src/server/debugView';
import type { ReferenceServer } from '../../../src/server/server';
import { loggedEntries } from '../../support/server';
import { NotificationSpy, type Severity } from '../soak/spy';
import { kind, until, untilQueued } from './states';
import { statusMessagesDuring } from './windowSpies';
import { connectToNewServer } from './connected';
import { withWizardAnswers, type Validation } from './wizardAnswers';

const TOKEN = 'silence-test-token-5b21';
const WRONG = 'silence-test-wrong-token-90c4';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');

/** The notifications `run` shows, as `severity: message`. */
async function notificationsDuring(run: () => Thenable<unknown>): Promise<string[]> {
  const spy = new NotificationSpy();
  try {
    await run();
    return spy.shown.map(({ severity, message }) => `${severity}: ${message}`);
  } finally {
    spy.dispose();
  }
}

/**
 * Closes the server and waits for the extension to show it offline, asking once per try (polling
 * is slowed down in this suite): a keep-alive socket closing under the first ask shows as a
 * failure that may have reached the app, not yet as offline.
 */
async function goOffline(api: TimeTrackerApi, server: ReferenceServer): Promise<void> {
  await server.close();
  for (let attempt = 0; attempt < 5 && api.state !== 'offline'; attempt++) await api.refresh();
  await until(api, kind('offline'), 'offline');
}

const of = (severity: Severity, messages: readonly string[]): string[] =>
  messages
    .filter((message) => message.startsWith(`${severity}: `))
    .map((message) => message.slice(severity.length + 2));

for (const answers of ['full', 'minimal'] as const) {
  describe(`nothing ends in silence (${answers} answers)`, function () {
    this.timeout(40_000);
    let api: TimeTrackerApi;
    let server: ReferenceServer;
    let port: number;
    const requests: RequestRecord[] = [];
    // A name of this server's own: the picker lists recent activities first, and another server's has another id.
    const activity = `Code review ${answers}`;
    /** The requests the server saw during `run`, as `METHOD /path status`, and the failed sign-ins it added. */
    const requestsDuring = async (
      run: () => Thenable<unknown>,
    ): Promise<{ paths: string[]; failedSignIns: number }> => {
      const [seen, failed] = [requests.length, server.controls.failedSignIns];
      await run();
      return {
        paths: requests.slice(seen).map((record) => `${record.method} ${record.path} ${record.status}`),
        failedSignIns: server.controls.failedSignIns - failed,
      };
    };

    before(async () => {
      // No poll of its own in the middle of a test (every 60 s): each request counted here is one a command made.
      ({ api, server, port } = await connectToNewServer(
        TOKEN,
        { answers, seedActivities: [activity], onRequest: (_line, record) => void requests.push(record) },
        60,
      ));
    });

    after(async () => {
      await server.close();
      await vscode.commands.executeCommand('timeTracker.clearToken');
      await config().update('pollIntervalSeconds', undefined, vscode.ConfigurationTarget.Global);
    });

    it("keeps Log Time's duration step open on an empty or rounded-away duration, with the activity chosen", async () => {
      const validations: Validation[] = [];
      await withWizardAnswers(
        { pick: activity, typed: ['', '0.4', '45m', ''], validations, pickerTyping: { text: 'Code', keystrokeMs: 50 } },
        () => vscode.commands.executeCommand('timeTracker.log'),
      );
      assert.deepEqual(validations, [
        { value: '', message: 'Type how long, for example 30m or 1h30m.', severity: 'error', accepted: false },
        { value: '0.4', message: 'The duration must be at least 1 minute.', severity: 'error', accepted: false },
        { value: '45m', message: 'Logs 45m (45 minutes).', severity: 'info', accepted: true },
        // The note step: empty is no note.
        { value: '', message: undefined, severity: undefined, accepted: true },
      ]);
      assert.deepEqual(loggedEntries(server).at(-1), [activity, 45]);
    });

    it('says what Stop stopped and for how long, where the answer does not say it', async () => {
      await vscode.commands.executeCommand('timeTracker.start', { name: 'Stop me', createIfMissing: true });
      await until(
        api,
        (state) => state.kind === 'tracking' && state.startedAtMs !== undefined,
        'tracking with its start',
      );
      let shown: string[] = [];
      const said = await statusMessagesDuring(async () => {
        shown = await notificationsDuring(() => vscode.commands.executeCommand('timeTracker.stop'));
      });
      assert.equal(server.controls.state.snapshot().running, null);
      assert.deepEqual(shown, []);
      assert.equal(said.length, 1, JSON.stringify(said));
      assert.match(said[0]!, /^\$\(debug-stop\) Stopped Stop me after (< 1m|\d+m)$/);
      await until(api, kind('idle'), 'idle after stop');
    });

    it('keeps Stop for when nothing runs, and says so once', async () => {
      await until(api, kind('idle'), 'idle');
      const shown = await notificationsDuring(() => vscode.commands.executeCommand('timeTracker.stop'));
      assert.deepEqual(shown, ['info: Not tracking: there is nothing to stop.'], 'worded as the status bar says it');
    });

    it('says at once that the app accepted or rejected a token set, with one signed request', async () => {
      let shown: string[] = [];
      const accepted = await requestsDuring(async () => {
        shown = await notificationsDuring(() => vscode.commands.executeCommand('timeTracker.setToken', TOKEN));
      });
      assert.deepEqual(shown, ['info: The app accepted the token.']);
      assert.deepEqual(accepted.paths, ['GET /status 200']);

      const rejected = await requestsDuring(async () => {
        shown = await notificationsDuring(() => vscode.commands.executeCommand('timeTracker.setToken', WRONG));
      });
      assert.deepEqual(shown, ['error: The app rejected this token: copy it again from Settings → Integrations.']);
      // One ask: `headerPrefix: auto` may send its one copy with the other prefix, which counts for nothing.
      assert.ok(
        rejected.paths.length > 0 && rejected.paths.every((path) => path === 'GET /status 401'),
        rejected.paths.join(', '),
      );
      assert.equal(rejected.failedSignIns, 1);
      assert.equal(api.state, 'tokenRejected');

      shown = await notificationsDuring(() => vscode.commands.executeCommand('timeTracker.setToken', TOKEN));
      assert.deepEqual(shown, ['info: The app accepted the token.']);
      assert.equal(api.state, 'idle');
    });

    it('says a token set while the app is away is checked when it answers', async () => {
      await goOffline(api, server);
      const shown = await notificationsDuring(() => vscode.commands.executeCommand('timeTracker.setToken', TOKEN));
      assert.deepEqual(shown, ['info: The token is stored; it is checked when the app answers.']);
      await server.listen(port);
      await until(api, kind('idle'), 'idle once the app is back');
    });

    it('says that Clear Token removed the token, or that there was none', async () => {
      const removed = await notificationsDuring(() => vscode.commands.executeCommand('timeTracker.clearToken'));
      assert.equal(removed.length, 1, JSON.stringify(removed));
      assert.match(removed[0]!, /^info: Removed the token from VS Code\./);
      const none = await notificationsDuring(() => vscode.commands.executeCommand('timeTracker.clearToken'));
      assert.deepEqual(none, ['info: There was no token to remove.']);
      await vscode.commands.executeCommand('timeTracker.setToken', TOKEN);
      await until(api, kind('idle'), 'idle with the token again');
    });

    it('says once what a queued entry was when it is finally sent, and one sentence for several', async () => {
      for (const batch of [
        [['Code review', 45]],
        [
          ['Code review', 20],
          ['Reviews', 45],
        ],
      ] as const) {
        await goOffline(api, server);
        for (const [name, minutes] of batch)
          await vscode.commands.executeCommand('timeTracker.log', {
            name,
            durationMinutes: minutes,
            createIfMissing: true,
          });
        assert.equal(api.queuedEntries, batch.length);
        const shown = await notificationsDuring(async () => {
          await server.listen(port);
          await api.refresh();
          await untilQueued(api, 0, 'the queue to be sent', 20_000);
        });
        assert.deepEqual(
          of('info', shown),
          [
            batch.length === 1
              ? 'Sent 45m on Code review (logged while the app was offline).'
              : 'Sent 2 entries logged while the app was offline, 1h 5m in all.',
          ],
          JSON.stringify(shown),
        );
      }
    });

    // Last: the lockout outlasts the test.
    it('sends nothing for Set Token while the app locks us out, and says when the token is checked', async () => {
      await vscode.commands.executeCommand('timeTracker.setToken', WRONG);
      const intruder = new ServiceClient({ token: 'silence-intruder-token', port });
      try {
        for (let i = 0; i < 11; i++) await intruder.healthcheck().catch(() => undefined);
      } finally {
        await intruder.close();
      }
      await until(api, kind('lockedOut'), 'locked out');
      let shown: string[] = [];
      const { paths } = await requestsDuring(async () => {
        shown = await notificationsDuring(() => vscode.commands.executeCommand('timeTracker.setToken', TOKEN));
      });
      assert.deepEqual(paths, [], 'no signed request');
      assert.equal(shown.length, 1, JSON.stringify(shown));
      assert.match(
        shown[0]!,
        /^warning: The token is stored\. The app refuses every request for \d+ s more after too many failed sign-ins; the token is checked when that ends\.$/,
      );
      assert.equal(api.state, 'lockedOut');
    });
  });
}
