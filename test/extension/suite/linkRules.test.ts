/**
 * Which link decides, and Unlink of a pattern, in a real extension host on a real git repository
 * against the reference server: a folder link acts only when a window opens, so a `git checkout`
 * with only a folder link matching leaves what runs and is reported to the app; a branch link
 * beats a folder link written before it; Unlink on a branch a pattern matched asks whether the
 * pattern goes for every branch or only this branch stops, names what it unlinked, and its Undo
 * puts the settings back as they were.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { isDeepStrictEqual } from 'node:util';
import * as vscode from 'vscode';
import type { HandledSwitch } from '../../../src/extension/branchReporter';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { LinkOutcome } from '../../../src/extension/links/linkStart';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { runningOn } from './connected';
import { kind, until, untilEvent } from './states';

const extensionId = 'clessira-tools.clessira-time-tracker';
const TOKEN = 'link-rules-test-token-5c2a';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');
const userLinks = (): unknown => config().inspect('links')?.globalValue;

/** A quick pick as the extension showed it. */
interface PickShown {
  readonly title: string | undefined;
  readonly labels: readonly string[];
}

/**
 * Runs `run` with every showQuickPick answered by the item labelled `label` (undefined: Escape); each one shown is
 * recorded.
 */
async function withPickAnswer<T>(label: string | undefined, shown: PickShown[], run: () => Thenable<T>): Promise<T> {
  const window = vscode.window as unknown as { showQuickPick: unknown };
  const original = window.showQuickPick;
  window.showQuickPick = async (
    items: Thenable<readonly vscode.QuickPickItem[]> | readonly vscode.QuickPickItem[],
    options?: vscode.QuickPickOptions,
  ) => {
    const offered = await items;
    shown.push({ title: options?.title, labels: offered.map((item) => item.label) });
    return offered.find((item) => item.label === label);
  };
  try {
    return await run();
  } finally {
    window.showQuickPick = original;
  }
}

type ShowMessage = (message: string, ...rest: unknown[]) => Thenable<unknown>;

/**
 * Runs `run` recording the information messages shown; the one that starts with "Unlinked" is
 * answered with its Undo when `undoTo` is given, and `undone` resolves once the user settings'
 * links are `undoTo` again (within 10 s).
 */
async function unlinkAnswering(
  undoTo: unknown,
  run: () => Thenable<unknown>,
): Promise<{ readonly messages: string[]; readonly undone: Promise<void> }> {
  const window = vscode.window as unknown as { showInformationMessage: ShowMessage };
  const original = window.showInformationMessage;
  const messages: string[] = [];
  let undone: Promise<void> = Promise.resolve();
  window.showInformationMessage = (message, ...rest) => {
    messages.push(`${message} [${rest.filter((item) => typeof item === 'string').join(', ')}]`);
    if (undoTo === undefined || !message.startsWith('Unlinked')) return Promise.resolve(undefined);
    undone = new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the links are ${JSON.stringify(userLinks())} 10 s after Undo`)),
        10_000,
      );
      const subscription = vscode.workspace.onDidChangeConfiguration((change) => {
        if (!change.affectsConfiguration('timeTracker.links') || !isDeepStrictEqual(userLinks(), undoTo)) return;
        clearTimeout(timer);
        subscription.dispose();
        resolve();
      });
    });
    return Promise.resolve('Undo');
  };
  try {
    await run();
  } finally {
    window.showInformationMessage = original;
  }
  return { messages, undone };
}

describe('links: a folder link waits for a window to open, a branch link decides a switch, Unlink of a pattern asks', function () {
  this.timeout(30_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer;
  let root: string;
  let folderName: string;
  const made: string[] = [];
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  const switchTo = (branch: string): void => {
    made.push(branch);
    git('checkout', '-q', '-b', branch);
  };
  const reportedBranches = (): string[] => server.controls.state.listBranchReports().map(({ branch }) => branch);
  const running = (): string | undefined => runningOn(server);
  const nextSwitch = (): Promise<HandledSwitch> =>
    untilEvent<HandledSwitch | undefined>(
      api.onDidHandleBranchSwitch,
      () => undefined,
      (handled) => handled !== undefined,
      () => `no branch switch handled; the status bar shows ${api.text}`,
      10_000,
    ) as Promise<HandledSwitch>;

  // Ticket keys no other suite starts: the recent activities (kept across suites) would name them
  // by an id of this suite's server, which the next suite's server does not know.
  before(async function () {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) this.skip();
    root = folder.uri.fsPath;
    folderName = folder.name;
    server = createReferenceServer({ token: TOKEN });
    const port = await server.listen(0);
    api = (await vscode.extensions.getExtension(extensionId)!.activate()) as TimeTrackerApi;
    await config().update('port', port, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('timeTracker.setToken', TOKEN);
    await until(api, kind('idle'), 'the extension connected to the test server');
    await api.branchWatchReady();
  });

  after(async () => {
    await config().update('links', undefined, vscode.ConfigurationTarget.Global);
    git('checkout', '-q', 'main');
    for (const branch of made.splice(0)) git('branch', '-q', '-D', branch);
    await server.close();
  });

  it('leaves what runs on a switch where only a folder link matches, and reports the switch to the app', async () => {
    await config().update(
      'links',
      [{ folder: folderName, activity: 'Write docs', createIfMissing: true }],
      vscode.ConfigurationTarget.Global,
    );
    await api.branchWatchReady();
    server.controls.state.start({ name: 'Standup', createIfMissing: true });
    await until(
      api,
      (state) => state.kind === 'tracking' && state.activity.activityName === 'Standup',
      'Standup running',
    );
    const outcomes: LinkOutcome[] = [];
    const listener = api.onDidActOnLink((outcome) => outcomes.push(outcome));
    try {
      const handled = nextSwitch();
      switchTo('rules/other-work');
      assert.equal((await handled).outcome, 'reported', JSON.stringify(outcomes));
      assert.deepEqual(reportedBranches().slice(-1), ['rules/other-work'], 'POST /branch-changed, as without links');
      await api.refresh();
      assert.equal(running(), 'Standup', 'what the user started runs on');
      assert.deepEqual(outcomes, [], 'the folder link did nothing');
    } finally {
      listener.dispose();
    }
  });

  it('lets a {ticket} branch link written after a folder link decide the switch', async () => {
    const folderLink = { folder: folderName, activity: 'Write docs', createIfMissing: true };
    await config().update(
      'links',
      [folderLink, { branch: 'fix/**', activity: '{ticket}', createIfMissing: true }],
      vscode.ConfigurationTarget.Global,
    );
    await api.branchWatchReady();
    const linked = new Promise<LinkOutcome>((resolve) => {
      const subscription = api.onDidActOnLink((outcome) => {
        subscription.dispose();
        resolve(outcome);
      });
    });
    const handled = nextSwitch();
    switchTo('fix/PROJ-4711-x');
    assert.deepEqual(await linked, { kind: 'started', activity: 'PROJ-4711', previous: 'Standup' });
    assert.equal((await handled).outcome, 'linked');
    assert.equal(running(), 'PROJ-4711');
    assert.ok(
      api.tooltip.startsWith(
        'Your link for this branch (fix/\\*\\*) started PROJ\\-4711 without asking. [Open your links](command:workbench.action.openSettings?',
      ),
      api.tooltip,
    );
  });

  it('asks on Unlink of a pattern: Escape changes nothing, "stop only this branch" leaves it out, Undo restores', async () => {
    const written = [
      { branch: 'rules/exact', activity: 'Exact' },
      { branch: 'fix/**', activity: '{ticket}', createIfMissing: true },
    ];
    await config().update('links', written, vscode.ConfigurationTarget.Global);
    const shown: PickShown[] = [];
    await withPickAnswer(undefined, shown, () => vscode.commands.executeCommand('timeTracker.unlink'));
    assert.deepEqual(shown, [
      {
        title: 'fix/PROJ-4711-x tracks PROJ-4711 by a pattern, fix/** in your user settings',
        labels: ['Remove fix/** for every branch', 'Keep fix/**, stop only fix/PROJ-4711-x'],
      },
    ]);
    assert.deepEqual(userLinks(), written, 'Escape: nothing changed');

    const only = await withPickAnswer('Keep fix/**, stop only fix/PROJ-4711-x', [], () =>
      unlinkAnswering(written, () => vscode.commands.executeCommand('timeTracker.unlink')),
    );
    assert.deepEqual(only.messages, [
      'Unlinked fix/PROJ-4711-x: fix/** still links every other branch like it. [Undo]',
    ]);
    await only.undone;
    assert.deepEqual(userLinks(), written, 'Undo: the settings as before');
  });

  it('removes the pattern for every branch when told so, names it, and Undo brings it back', async () => {
    const written = [
      { branch: 'rules/exact', activity: 'Exact' },
      { branch: 'fix/**', activity: '{ticket}', createIfMissing: true },
    ];
    await config().update('links', written, vscode.ConfigurationTarget.Global);
    const shown: PickShown[] = [];
    let afterUnlink: unknown;
    const removed = await withPickAnswer('Remove fix/** for every branch', shown, () =>
      unlinkAnswering(undefined, async () => {
        await vscode.commands.executeCommand('timeTracker.unlink');
        afterUnlink = userLinks();
      }),
    );
    assert.equal(shown.length, 1);
    assert.deepEqual(afterUnlink, [written[0]]);
    assert.deepEqual(removed.messages, ['Unlinked fix/** (every branch like fix/PROJ-4711-x). [Undo]']);

    const kept = await withPickAnswer('Keep fix/**, stop only fix/PROJ-4711-x', [], async () => {
      await config().update('links', written, vscode.ConfigurationTarget.Global);
      return unlinkAnswering(undefined, () => vscode.commands.executeCommand('timeTracker.unlink'));
    });
    assert.deepEqual(userLinks(), [written[0], { ...written[1], except: ['fix/PROJ-4711-x'] }]);
    assert.equal(kept.messages.length, 1);
    // Left out, the branch is reported as without links, and what runs is left.
    const toMain = nextSwitch();
    git('checkout', '-q', 'main');
    assert.equal((await toMain).branch, 'main');
    const handled = nextSwitch();
    git('checkout', '-q', 'fix/PROJ-4711-x');
    assert.deepEqual([(await handled).branch, (await handled).outcome], ['fix/PROJ-4711-x', 'reported']);
  });
});
