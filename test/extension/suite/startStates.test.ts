/**
 * Start Tracking and Log Time where the app cannot take what they offer, as a user meets them:
 * with the app away (its integration's file gone), Start is still in the Command Palette (a hidden
 * one made its title + Enter open Log Time) and says once why it cannot act, with Log Time; with
 * the token rejected, the Start picker says so before anything is typed and offers the fixes, not
 * a name it could never start; offline, Log Time names an activity the app has as where the entry
 * goes, and promises no creation of it.
 */
import * as assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { loggedEntries } from '../../support/server';
import { connectToNewServer, EXTENSION_ID } from './connected';
import { kind, until, untilQueued } from './states';
import { withWizardAnswers, type PickerSeen, type PickerView, type Validation } from './wizardAnswers';
import type { ShownNotification } from './windowSpies';

const DISMISS = 'no such item: dismiss';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');
const labels = (view: PickerView): string[] => view.items.filter((item) => !item.separator).map((item) => item.label);

/** A list of pickers seen, and a promise of the first one closed: a picker a notification's button opens, later. */
function pickersSeen(): { readonly seen: PickerSeen[]; readonly first: Promise<PickerSeen> } {
  const seen: PickerSeen[] = [];
  const first = new Promise<PickerSeen>((resolve) => {
    seen.push = (...items: PickerSeen[]): number => {
      const length = Array.prototype.push.apply(seen, items);
      resolve(seen[0]!);
      return length;
    };
  });
  return { seen, first };
}

/** While `run` runs, every warning is recorded and answered with the button `choose`, as a user clicking it. */
async function answeringWarnings(choose: string, run: () => Thenable<unknown>): Promise<ShownNotification[]> {
  const window = vscode.window as unknown as { showWarningMessage: (...args: unknown[]) => unknown };
  const original = window.showWarningMessage;
  const shown: ShownNotification[] = [];
  window.showWarningMessage = (...args: unknown[]) => {
    const buttons = args.slice(1).filter((arg): arg is string => typeof arg === 'string');
    shown.push({ message: String(args[0]), buttons, links: [] });
    return Promise.resolve(buttons.includes(choose) ? choose : undefined);
  };
  try {
    await run();
  } finally {
    window.showWarningMessage = original;
  }
  return shown;
}

describe('Start Tracking with the app away (its VS Code integration gone)', function () {
  this.timeout(40_000);
  let api: TimeTrackerApi;
  let dir: string;
  const saved = { capabilityFile: undefined as unknown };

  before(async () => {
    api = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as TimeTrackerApi;
    saved.capabilityFile = config().inspect('capabilityFile')?.globalValue;
    // Short: a Unix socket path has room for 107 bytes.
    dir = await mkdtemp(join(tmpdir(), 'tts-'));
    const capabilityFile = join(dir, 'api-endpoint.json');
    await vscode.commands.executeCommand('timeTracker.clearToken');
    await config().update('capabilityFile', capabilityFile, vscode.ConfigurationTarget.Global);
    const app = createReferenceServer({ token: 'start-states-integration-4c1a' });
    await app.listenOnSocket(join(dir, 'a.sock'), { capabilityFile });
    await until(api, (state) => state.kind === 'idle' && api.channel === 'integration', 'idle through the integration');
    // The app quits: its socket and its file go.
    await app.close();
    await until(api, (state) => state.kind === 'offline' && api.channel === 'none', 'offline with no way to the app');
  });

  after(async () => {
    await config().update('capabilityFile', saved.capabilityFile, vscode.ConfigurationTarget.Global);
    await rm(dir, { recursive: true, force: true });
  });

  it('is in the Command Palette, and says once why it cannot act, with Log Time, which opens Log Time', async () => {
    const palette = (
      vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as {
        contributes: { menus: { commandPalette: { command: string; when?: string }[] } };
      }
    ).contributes.menus.commandPalette;
    assert.equal(
      palette.find((item) => item.command === 'timeTracker.start')?.when,
      undefined,
      'no `when` hides Start Tracking',
    );
    const { seen, first } = pickersSeen();
    const shown = await withWizardAnswers({ pick: DISMISS, typed: [], seen }, () =>
      answeringWarnings('Log Time', async () => {
        await vscode.commands.executeCommand('timeTracker.start');
        // The button's Log Time opens its picker after Start has returned.
        const logTime = await first;
        assert.equal(logTime.opened.title, 'Log Time (1/3): activity · The app is not answering');
        assert.match(logTime.opened.placeholder ?? '', /created when the entry is sent/);
      }),
    );
    assert.deepEqual(shown, [
      { message: 'The app is not running: start it, or log the time instead.', buttons: ['Log Time'], links: [] },
    ]);
    assert.equal(seen.length, 1, 'one picker: Log Time, and none of Start');
  });
});

describe('the Start picker while the app rejects the token', function () {
  this.timeout(40_000);
  const TOKEN = 'start-states-token-9e2b';
  let api: TimeTrackerApi;
  let server: ReferenceServer;

  before(async () => {
    ({ api, server } = await connectToNewServer(TOKEN, { seedActivities: ['Code review'] }));
    await vscode.commands.executeCommand('timeTracker.setToken', 'start-states-wrong-token-0d4f');
    await until(api, kind('tokenRejected'), 'the token rejected');
  });

  after(async () => {
    await vscode.commands.executeCommand('timeTracker.clearToken');
    await server.close();
  });

  it('says so before anything is typed, offers Set Token and Check Connection, no typed name, and Set Token opens the token box', async () => {
    const seen: PickerSeen[] = [];
    const validations: Validation[] = [];
    const requestsBefore = server.controls.debugView().length;
    await withWizardAnswers(
      {
        pick: '$(key) Set Token…',
        typed: [TOKEN],
        validations,
        seen,
        pickerTyping: { text: 'Code review', keystrokeMs: 20 },
      },
      () => vscode.commands.executeCommand('timeTracker.start'),
    );
    assert.equal(seen.length, 1);
    const picker = seen[0]!;
    assert.equal(picker.opened.title, 'Nothing can be started: the app rejected the token');
    assert.equal(picker.opened.placeholder, 'Set the token the app shows in Settings → Integrations → HTTP API');
    assert.deepEqual(labels(picker.opened), ['$(key) Set Token…', '$(plug) Check Connection']);
    assert.deepEqual(
      labels(picker.chosenFrom),
      ['$(key) Set Token…', '$(plug) Check Connection'],
      'the typed name is offered as nothing',
    );
    assert.deepEqual(
      validations.map(({ value, accepted }) => ({ value, accepted })),
      [{ value: TOKEN, accepted: true }],
      'Set Token asked for the token',
    );
    await until(api, kind('idle'), 'idle with the token set from the picker');
    const searches = server.controls
      .debugView()
      .slice(requestsBefore)
      .filter((record) => record.path.startsWith('/activities'));
    assert.deepEqual(searches, [], 'nothing searched or started while the token was rejected');
  });
});

describe('Log Time while the app is offline, for an activity it has', function () {
  this.timeout(40_000);
  const TOKEN = 'start-states-offline-token-51c8';
  const NAME = 'Code review';
  let api: TimeTrackerApi;
  let server: ReferenceServer;
  let port: number;

  before(async () => {
    ({ api, server, port } = await connectToNewServer(TOKEN, { seedActivities: [NAME] }));
    // The app runs it: what the app ran is recent (kept in globalState) from then on.
    server.controls.state.start({ name: NAME });
    await until(api, (state) => state.kind === 'tracking' && state.activity.activityName === NAME, `tracking ${NAME}`);
    server.controls.state.stop();
    await until(api, kind('idle'), 'idle');
    await server.close();
    await until(api, kind('offline'), 'offline');
  });

  after(async () => {
    await server.close();
    await vscode.commands.executeCommand('timeTracker.clearToken');
  });

  it('offers "Log to “Code review”" for the name typed in another case, not Create, and the entry lands on it', async () => {
    const seen: PickerSeen[] = [];
    const queuedBefore = api.queuedEntries;
    await withWizardAnswers(
      { pick: `Log to “${NAME}”`, typed: ['15m', ''], seen, pickerTyping: { text: 'code review', keystrokeMs: 20 } },
      () => vscode.commands.executeCommand('timeTracker.log'),
    );
    const queued = api.queuedEntries;
    // Back before anything is asserted: a failed assertion must leave no entry queued for the next tests.
    await server.listen(port);
    await untilQueued(api, 0, 'the queued entry to be sent', 20_000);
    const chosenFrom = labels(seen[0]!.chosenFrom);
    assert.equal(chosenFrom[0], `Log to “${NAME}”`, JSON.stringify(chosenFrom));
    assert.deepEqual(
      chosenFrom.filter((label) => label.startsWith('$(add)')),
      [],
      'no Create for a name the app has',
    );
    assert.equal(queued, queuedBefore + 1);
    assert.deepEqual(loggedEntries(server).at(-1), [NAME, 15]);
    assert.equal(
      server.controls.state.listActivities().filter((activity) => activity.name === NAME).length,
      1,
      'no second activity of that name',
    );
  });
});
