/**
 * Link This Branch… on a branch that names a ticket, in a real extension host on a real git
 * repository: it asks what to link, "Every branch like this one" writes the ticket link for the
 * branch's prefix, and Start Now on its message starts the ticket on the reference server; linked
 * again while the ticket runs, the message says so instead; and the Link picker refuses a typed
 * `{ticket}`, saying why, where it offered to create an activity literally so named.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { ReferenceServer } from '../../../src/server/server';
import type { TrackerState } from '../../../src/tracker/model/trackerState';
import { connectToNewServer, runningOn } from './connected';
import { until } from './states';
import { withWizardAnswers, type PickerSeen } from './wizardAnswers';

const TOKEN = 'link-choices-test-token-61c4';
const BRANCH = 'fix/PROJ-733-login-crash';
const DISMISS = 'no such item: dismiss';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');
const userLinks = (): unknown => config().inspect('links')?.globalValue;

/** A notification as shown, with its buttons, and the button the stand-in clicked. */
interface Notified {
  readonly message: string;
  readonly buttons: readonly string[];
}

/**
 * Runs `run` with every showQuickPick answered by the item whose label `choose` names (undefined:
 * left), and every information message recorded and answered by `click` (undefined: closed); the
 * offered labels and the messages are recorded. The extension shares this `vscode.window`.
 */
async function answering(
  run: () => Thenable<unknown>,
  choose: (labels: readonly string[]) => string | undefined,
  click: (message: string) => string | undefined,
): Promise<{ readonly offered: string[][]; readonly notified: Notified[] }> {
  const window = vscode.window as unknown as Record<'showQuickPick' | 'showInformationMessage', unknown>;
  const originals = { showQuickPick: window.showQuickPick, showInformationMessage: window.showInformationMessage };
  const offered: string[][] = [];
  const notified: Notified[] = [];
  window.showQuickPick = async (items: Thenable<readonly vscode.QuickPickItem[]> | readonly vscode.QuickPickItem[]) => {
    const shown = await items;
    const labels = shown.map((item) => item.label);
    offered.push(labels);
    const label = choose(labels);
    return shown.find((item) => item.label === label);
  };
  window.showInformationMessage = (message: string, ...rest: unknown[]) => {
    const buttons = rest.filter((item): item is string => typeof item === 'string');
    notified.push({ message, buttons });
    const label = click(message);
    return Promise.resolve(buttons.find((button) => button === label));
  };
  try {
    await run();
  } finally {
    Object.assign(window, originals);
  }
  return { offered, notified };
}

describe('links: Link This Branch… on a branch that names a ticket', function () {
  this.timeout(40_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer;
  let root: string;
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  const tracking = (name: string) => (state: TrackerState) =>
    state.kind === 'tracking' && state.activity.activityName === name;
  const running = (): string | undefined => runningOn(server);
  /** Link This Branch… → "Every branch like this one" → "Only for me", clicking Start Now where it is offered. */
  const linkEveryBranch = (): ReturnType<typeof answering> =>
    answering(
      // A picker would mean no question came first: it is left, so that the test fails rather than waits.
      () =>
        withWizardAnswers({ pick: DISMISS, typed: [] }, () => vscode.commands.executeCommand('timeTracker.linkBranch')),
      (labels) => labels.find((label) => label === 'Every branch like this one' || label === 'Only for me'),
      () => 'Start Now',
    );

  before(async function () {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) this.skip();
    root = folder.uri.fsPath;
    ({ api, server } = await connectToNewServer(TOKEN));
    await api.branchWatchReady();
    git('checkout', '-q', '-b', BRANCH);
  });

  after(async () => {
    await config().update('links', undefined, vscode.ConfigurationTarget.Global);
    git('checkout', '-q', 'main');
    git('branch', '-q', '-D', BRANCH);
    await server.close();
    await vscode.commands.executeCommand('timeTracker.clearToken');
  });

  it('writes the ticket link for every branch like this one, and Start Now starts the ticket', async () => {
    assert.equal(running(), undefined);
    const { offered, notified } = await linkEveryBranch();
    assert.deepEqual(offered, [
      ['This branch only', 'Every branch like this one'],
      ['Only for me', 'For everyone in this repository'],
    ]);
    assert.deepEqual(userLinks(), [{ branch: 'fix/**', activity: '{ticket}', createIfMissing: true }]);
    assert.deepEqual(notified, [
      {
        message:
          'Every branch like fix/** is linked to its ticket in your user settings: switching to one tracks the ticket its name holds (PROJ-733 on this one) without asking.',
        buttons: ['Start Now'],
      },
    ]);
    await until(api, tracking('PROJ-733'), 'PROJ-733 started by Start Now');
    assert.equal(running(), 'PROJ-733', 'created and started on the app');
  });

  it('says that the ticket runs already instead of offering Start Now', async () => {
    const { notified } = await linkEveryBranch();
    assert.deepEqual(notified, [
      {
        message:
          'Every branch like fix/** is linked to its ticket in your user settings: switching to one tracks the ticket its name holds (PROJ-733 on this one) without asking. PROJ-733 runs already.',
        buttons: [],
      },
    ]);
  });

  it('refuses a typed {ticket} in the Link picker, saying why, and writes no link', async () => {
    const before = userLinks();
    const seen: PickerSeen[] = [];
    await answering(
      () =>
        withWizardAnswers({ pick: DISMISS, typed: [], seen, pickerTyping: { text: '{ticket}', keystrokeMs: 20 } }, () =>
          vscode.commands.executeCommand('timeTracker.linkBranch'),
        ),
      (labels) => labels.find((label) => label === 'This branch only'),
      () => undefined,
    );
    assert.equal(seen.length, 1, 'the picker was shown');
    const { items } = seen[0]!.chosenFrom;
    const labels = items.map((item) => item.label);
    assert.ok(!labels.some((label) => label.startsWith('$(add)')), `no Create: ${JSON.stringify(labels)}`);
    const refused = items.find((item) => item.label === '$(circle-slash) Not an activity name: “{ticket}”');
    assert.match(
      refused?.detail ?? '',
      /is a placeholder: .*\{ticket\}.*"Every branch like this one"/,
      JSON.stringify(items),
    );
    assert.deepEqual(userLinks(), before, 'no link written');
  });
});
