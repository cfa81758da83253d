/**
 * Links in a real extension host: the workspace is a real git repository, branches are switched
 * with git, and the reference server in this process must see the linked activity start with no
 * branch report (the app would prompt on one), Undo restore what ran before,
 * `reportBranchChanges: "always"` report as well, an unlinked branch reported as before, and, with
 * the app gone or its answer failed, nothing start and the status bar say once why. A repository's
 * links (the workspace settings) ask once before they act; Link This Branch… asks where the link
 * goes; after Stop, what a window's opening does starts nothing.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import type { HandledSwitch } from '../../../src/extension/branchReporter';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { LinkOutcome } from '../../../src/extension/links/linkStart';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import type { TrackerState } from '../../../src/tracker/model/trackerState';
import { NotificationSpy } from '../soak/spy';
import { runningOn } from './connected';
import { commandsOf, withMenuChoice } from './menuAnswers';
import { kind, until, untilEvent } from './states';
import { withWizardAnswers, type PickerSeen } from './wizardAnswers';

const extensionId = 'clessira-tools.clessira-time-tracker';
const TOKEN = 'links-test-token-93e1';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');

type ShowMessage = (message: string, ...rest: unknown[]) => Thenable<unknown>;

/**
 * Answers the question about a repository's links with the button labelled `answer` (the
 * extension shares this `vscode.window`, see ../soak/spy.ts); every question asked is recorded.
 * Other notifications go through as they are. Returns the way back.
 */
function answerLinkQuestions(answer: string | Promise<string>, asked: string[]): vscode.Disposable {
  const window = vscode.window as unknown as { showInformationMessage: ShowMessage };
  const original = window.showInformationMessage;
  window.showInformationMessage = async (message, ...rest) => {
    if (!message.endsWith('Use its links?')) return original(message, ...rest);
    asked.push(message);
    const label = await answer;
    return rest.find((item) => item === label);
  };
  return new vscode.Disposable(() => (window.showInformationMessage = original));
}

/** The next notification whose text matches `pattern`, as the extension shows it (passed on to the window). */
function nextSaid(pattern: RegExp): Promise<string> {
  const window = vscode.window as unknown as { showInformationMessage: ShowMessage };
  const original = window.showInformationMessage;
  return new Promise((resolve) => {
    window.showInformationMessage = (message, ...rest) => {
      if (pattern.test(message)) {
        window.showInformationMessage = original;
        resolve(message);
      }
      return original(message, ...rest);
    };
  });
}

/** Runs `run` with the next showQuickPick answered by the item labelled `label` (where a new link goes). */
async function withWhere<T>(label: string, run: () => Thenable<T>, offered: string[] = []): Promise<T> {
  const window = vscode.window as unknown as { showQuickPick: unknown };
  const original = window.showQuickPick;
  window.showQuickPick = async (items: Thenable<readonly vscode.QuickPickItem[]> | readonly vscode.QuickPickItem[]) => {
    window.showQuickPick = original;
    const shown = await items;
    offered.push(...shown.map((item) => item.label));
    return shown.find((item) => item.label === label);
  };
  try {
    return await run();
  } finally {
    window.showQuickPick = original;
  }
}

for (const answers of ['full', 'minimal'] as const) {
  describe(`links: folders and branches to activities (${answers} answers)`, function () {
    this.timeout(30_000);
    let api: TimeTrackerApi;
    let server: ReferenceServer;
    let root: string;
    const made: string[] = [];
    /** A branch name of this run: the two runs share the repository. */
    const ticket = (number: number): string => `PROJ-${answers === 'full' ? number : number + 500}`;
    const git = (...args: string[]): void => void execFileSync('git', args, { cwd: root, stdio: 'ignore' });
    const switchTo = (branch: string): void => {
      made.push(branch);
      git('checkout', '-q', '-b', branch);
    };
    const reportedBranches = (): string[] => server.controls.state.listBranchReports().map(({ branch }) => branch);
    const running = (): string | undefined => runningOn(server);
    /** The next event of `event`, within 10 s. */
    const next = <T>(event: vscode.Event<T>, what: string): Promise<T> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          subscription.dispose();
          reject(new Error(`no ${what} within 10 s; the status bar shows ${api.text}`));
        }, 10_000);
        const subscription = event((value) => {
          clearTimeout(timer);
          subscription.dispose();
          resolve(value);
        });
      });
    const nextLink = (): Promise<LinkOutcome> => next(api.onDidActOnLink, 'link outcome');
    const nextSwitch = (): Promise<HandledSwitch> => next(api.onDidHandleBranchSwitch, 'branch switch handled');

    before(async function () {
      const folder = vscode.workspace.workspaceFolders?.[0];
      if (!folder) this.skip();
      root = folder.uri.fsPath;
      server = createReferenceServer({ token: TOKEN, answers });
      const port = await server.listen(0);
      api = (await vscode.extensions.getExtension(extensionId)!.activate()) as TimeTrackerApi;
      await config().update('port', port, vscode.ConfigurationTarget.Global);
      await vscode.commands.executeCommand('timeTracker.setToken', TOKEN);
      await until(api, kind('idle'), 'the extension connected to the test server');
      await config().update(
        'links',
        [{ branch: '**', activity: '{ticket}', createIfMissing: true }],
        vscode.ConfigurationTarget.Global,
      );
      assert.deepEqual(await api.branchWatchReady(), [root]);
    });

    after(async () => {
      await config().update('links', undefined, vscode.ConfigurationTarget.Global);
      await config().update('git.reportBranchChanges', undefined, vscode.ConfigurationTarget.Global);
      git('checkout', '-q', 'main');
      for (const branch of made.splice(0)) git('branch', '-q', '-D', branch);
      // The last test closed it already.
      await server.close().catch(() => undefined);
    });

    it('tracks the ticket of a branch under a {ticket} link with no prompt and no branch report, and Undo restores what ran', async () => {
      server.controls.state.start({ name: 'Docs', createIfMissing: true });
      await until(api, (state) => state.kind === 'tracking' && state.activity.activityName === 'Docs', 'Docs running');
      const linked = nextLink();
      const handled = nextSwitch();
      switchTo(`work/${ticket(123)}-login`);
      assert.deepEqual(await linked, { kind: 'started', activity: ticket(123), previous: 'Docs' });
      assert.equal((await handled).outcome, 'linked');
      assert.equal(running(), ticket(123), 'created and started by the link');
      assert.deepEqual(reportedBranches(), [], 'the app is not asked: no POST /branch-changed');
      assert.ok(api.text.includes(`Tracking ${ticket(123)} (linked to this branch)`), api.text);
      assert.ok(api.tooltip.includes('(command:timeTracker.undoLink)'), api.tooltip);

      await vscode.commands.executeCommand('timeTracker.undoLink');
      assert.equal(running(), 'Docs', 'what ran before runs again');
      assert.ok(!api.text.includes('linked to this branch'), `the notice is gone: ${api.text}`);
    });

    it('starts nothing when the linked activity runs already, and reports nothing either', async () => {
      const reportedBefore = reportedBranches().length;
      server.controls.state.start({ name: ticket(124), createIfMissing: true });
      await until(
        api,
        (state) => state.kind === 'tracking' && state.activity.activityName === ticket(124),
        `${ticket(124)} running`,
      );
      const linked = nextLink();
      const handled = nextSwitch();
      switchTo(`work/${ticket(124)}`);
      assert.deepEqual(await linked, { kind: 'alreadyRunning', activity: ticket(124) });
      assert.equal((await handled).outcome, 'linked');
      assert.equal(reportedBranches().length, reportedBefore, 'no report');
    });

    it('reports a linked branch as well with reportBranchChanges "always"', async () => {
      await config().update('git.reportBranchChanges', 'always', vscode.ConfigurationTarget.Global);
      const linked = nextLink();
      const handled = nextSwitch();
      switchTo(`work/${ticket(125)}`);
      assert.equal((await linked).kind, 'started');
      assert.equal((await handled).outcome, 'reported');
      assert.deepEqual(reportedBranches().slice(-1), [`work/${ticket(125)}`]);
      assert.equal(running(), ticket(125));
      await config().update('git.reportBranchChanges', undefined, vscode.ConfigurationTarget.Global);
    });

    it('reports an unlinked branch as before, and starts nothing', async () => {
      let acted: LinkOutcome | undefined;
      const listener = api.onDidActOnLink((outcome) => (acted = outcome));
      try {
        const handled = nextSwitch();
        git('checkout', '-q', 'feature');
        assert.equal((await handled).outcome, 'reported');
        assert.deepEqual(reportedBranches().slice(-1), ['feature']);
        assert.equal(acted, undefined, 'no link matched: a branch without a ticket key');
        assert.equal(running(), ticket(125), 'what runs is left alone');
      } finally {
        listener.dispose();
      }
    });

    it('follows no link with timeTracker.linksEnabled off: a ticket branch is reported as before', async () => {
      await config().update('linksEnabled', false, vscode.ConfigurationTarget.Global);
      await api.branchWatchReady();
      let acted: LinkOutcome | undefined;
      const listener = api.onDidActOnLink((outcome) => (acted = outcome));
      try {
        const handled = nextSwitch();
        switchTo(`work/${ticket(127)}`);
        assert.equal((await handled).outcome, 'reported');
        assert.deepEqual(reportedBranches().slice(-1), [`work/${ticket(127)}`]);
        assert.equal(acted, undefined);
        assert.equal(running(), ticket(125), 'what runs is left alone');
      } finally {
        listener.dispose();
        await config().update('linksEnabled', undefined, vscode.ConfigurationTarget.Global);
      }
    });

    it('starts nothing while the app has not said what runs (GET /status failing), and Undo has nothing to take back', async () => {
      server.controls.state.start({ name: 'Kept running', createIfMissing: true });
      await until(
        api,
        (state) => state.kind === 'tracking' && state.activity.activityName === 'Kept running',
        'Kept running',
      );
      server.controls.setUnwired('/status');
      try {
        await api.refresh();
        assert.equal(api.state, 'unavailable');
        const linked = nextLink();
        switchTo(`work/${ticket(128)}`);
        assert.deepEqual(await linked, { kind: 'held', activity: ticket(128), hold: 'unknown' });
        assert.equal(running(), 'Kept running', 'what the app ran still runs');
        assert.match(api.tooltip, /did not say just now what it tracks/);
        await vscode.commands.executeCommand('timeTracker.undoLink');
        assert.equal(running(), 'Kept running', 'Undo stopped nothing');
      } finally {
        server.controls.setUnwired('/status', false);
      }
    });

    it('starts nothing while the app is offline, and says once why in the status bar', async () => {
      await server.close();
      await until(api, kind('offline'), 'offline with the app gone');
      const outcomes: LinkOutcome[] = [];
      const listener = api.onDidActOnLink((outcome) => outcomes.push(outcome));
      try {
        const linked = nextLink();
        const handled = nextSwitch();
        switchTo(`work/${ticket(126)}`);
        assert.deepEqual(await linked, { kind: 'held', activity: ticket(126), hold: 'offline' });
        assert.equal((await handled).outcome, 'linked');
        assert.ok(api.text.includes(`${ticket(126)} not started`), api.text);
        assert.match(api.tooltip, /not answering/);
        await api.refresh();
        assert.equal(outcomes.length, 1, 'said once, never retried');
      } finally {
        listener.dispose();
      }
    });
  });
}

describe('links: Link This Branch…, the Start picker and Unlink', function () {
  this.timeout(30_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer;
  let root: string;
  const BRANCH = 'work/link-me';
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  const workspaceLinks = (): unknown => config().inspect('links')?.workspaceValue;
  const tracking = (name: string) => (state: TrackerState) =>
    state.kind === 'tracking' && state.activity.activityName === name;

  before(async function () {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) this.skip();
    root = folder.uri.fsPath;
    server = createReferenceServer({ token: TOKEN });
    const port = await server.listen(0);
    api = (await vscode.extensions.getExtension(extensionId)!.activate()) as TimeTrackerApi;
    await config().update('port', port, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('timeTracker.setToken', TOKEN);
    await until(api, kind('idle'), 'the extension connected to the test server');
    server.controls.seedActivity('Design');
    server.controls.seedActivity('Docs');
    await api.branchWatchReady();
  });

  after(async () => {
    await config().update('links', undefined, vscode.ConfigurationTarget.Workspace);
    git('checkout', '-q', 'main');
    git('branch', '-q', '-D', BRANCH);
    await server.close();
  });

  it('writes the link first in the workspace settings, and a switch back to the branch tracks it', async () => {
    git('checkout', '-q', '-b', BRANCH);
    const offered: string[] = [];
    const spy = new NotificationSpy();
    try {
      // Typed, as a user looks for an activity this window never saw: the app's search lists it.
      await withWhere(
        'For everyone in this repository',
        () =>
          withWizardAnswers({ pick: 'Design', typed: [], pickerTyping: { text: 'Des', keystrokeMs: 40 } }, () =>
            vscode.commands.executeCommand('timeTracker.linkBranch'),
          ),
        offered,
      );
    } finally {
      spy.dispose();
    }
    assert.deepEqual(offered, ['Only for me', 'For everyone in this repository'], 'only for the user first');
    assert.deepEqual(workspaceLinks(), [{ branch: BRANCH, activity: 'Design' }], JSON.stringify(spy.shown));
    assert.deepEqual(
      spy.shown.map(({ message }) => message),
      [`Branch ${BRANCH} is linked to Design in .vscode/settings.json: switching to it tracks Design without asking.`],
    );
    // Seen as a switch of its own, so that the way back is one too.
    const onMain = new Promise<void>((resolve) => {
      const subscription = api.onDidHandleBranchSwitch(({ branch }) => {
        if (branch !== 'main') return;
        subscription.dispose();
        resolve();
      });
    });
    git('checkout', '-q', 'main');
    await onMain;
    const linked = new Promise<LinkOutcome>((resolve) => {
      const subscription = api.onDidActOnLink((outcome) => {
        subscription.dispose();
        resolve(outcome);
      });
    });
    const asked: string[] = [];
    const answering = answerLinkQuestions('Never Here', asked);
    try {
      git('checkout', '-q', BRANCH);
      assert.deepEqual(await linked, { kind: 'started', activity: 'Design', previous: undefined });
    } finally {
      answering.dispose();
    }
    assert.deepEqual(asked, [], 'a link the user wrote into the workspace asks nothing');
  });

  it('writes the link into the user settings when it is only for the user (the first choice)', async () => {
    const spy = new NotificationSpy();
    try {
      await withWhere('Only for me', () =>
        withWizardAnswers({ pick: 'Docs', typed: [] }, () => vscode.commands.executeCommand('timeTracker.linkFolder')),
      );
    } finally {
      spy.dispose();
    }
    const name = vscode.workspace.workspaceFolders![0]!.name;
    assert.deepEqual(config().inspect('links')?.globalValue, [{ folder: name, activity: 'Docs' }]);
    assert.deepEqual(workspaceLinks(), [{ branch: BRANCH, activity: 'Design' }], 'the workspace settings unchanged');
    assert.deepEqual(
      spy.shown.map(({ message }) => message),
      [`Folder ${name} is linked to Docs in your user settings: opening it while nothing runs tracks Docs.`],
    );
    await config().update('links', undefined, vscode.ConfigurationTarget.Global);
  });

  it('lists the activity linked here first in the Start picker', async () => {
    // Docs becomes the most recent activity, then stops: only the link puts Design before it.
    server.controls.state.start({ name: 'Docs' });
    await until(api, tracking('Docs'), 'Docs running');
    server.controls.state.stop();
    await until(api, kind('idle'), 'idle');
    const seen: PickerSeen[] = [];
    await withWizardAnswers({ pick: 'Docs', typed: [], seen }, () =>
      vscode.commands.executeCommand('timeTracker.start'),
    );
    const listed = seen[0]!.chosenFrom.items.filter((item) => !item.separator).map((item) => item.label);
    assert.deepEqual(listed.slice(0, 2), ['Design', 'Docs'], JSON.stringify(listed));
  });

  it('removes the link that applies here with Unlink', async () => {
    await vscode.commands.executeCommand('timeTracker.unlink');
    assert.equal(workspaceLinks(), undefined);
  });
});

describe("links: a repository's links ask first, and an opening starts nothing after Stop", function () {
  this.timeout(30_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer;
  let root: string;
  const made: string[] = [];
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  const switchTo = (branch: string): void => {
    made.push(branch);
    git('checkout', '-q', '-b', branch);
  };
  const running = (): string | undefined => runningOn(server);
  /** The outcomes of links until `done` says enough, within 10 s. */
  const outcomes = (done: (seen: readonly LinkOutcome[]) => boolean): Promise<LinkOutcome[]> =>
    new Promise((resolve, reject) => {
      const seen: LinkOutcome[] = [];
      const timer = setTimeout(() => {
        subscription.dispose();
        reject(new Error(`links did ${JSON.stringify(seen)} in 10 s; the status bar shows ${api.text}`));
      }, 10_000);
      const subscription = api.onDidActOnLink((outcome) => {
        seen.push(outcome);
        if (!done(seen)) return;
        clearTimeout(timer);
        subscription.dispose();
        resolve(seen);
      });
    });
  /** The status bar ends with the waiting question, once the last test's linked start is no longer said (8 s). */
  const questionHinted = (): Promise<unknown> =>
    untilEvent<unknown>(
      api.onDidChangeLinkNotice,
      () => undefined,
      () => / · \$\(link\) Use its links\?$/.test(api.text),
      () => `the status bar shows ${api.text}`,
      15_000,
    );
  /** A link did something beyond asking and being answered. */
  const settled = (seen: readonly LinkOutcome[]): boolean =>
    seen.some(({ kind }) => kind !== 'asked' && kind !== 'answered');

  before(async function () {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) this.skip();
    root = folder.uri.fsPath;
    server = createReferenceServer({ token: TOKEN });
    const port = await server.listen(0);
    api = (await vscode.extensions.getExtension(extensionId)!.activate()) as TimeTrackerApi;
    await config().update('port', port, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('timeTracker.setToken', TOKEN);
    await until(api, kind('idle'), 'the extension connected to the test server');
    await api.branchWatchReady();
  });

  after(async () => {
    await config().update('links', undefined, vscode.ConfigurationTarget.Workspace);
    git('checkout', '-q', 'main');
    for (const branch of made.splice(0)) git('branch', '-q', '-D', branch);
    await server.close();
  });

  it("asks once before the workspace's links act, names what they do, and keeps the answer", async () => {
    // As a repository's .vscode/settings.json holds them.
    await config().update(
      'links',
      [{ branch: 'repo/**', activity: '{ticket}', createIfMissing: true }],
      vscode.ConfigurationTarget.Workspace,
    );
    await api.branchWatchReady();
    const asked: string[] = [];
    const answering = answerLinkQuestions('Use Its Links', asked);
    try {
      const first = outcomes(settled);
      switchTo('repo/PROJ-901');
      assert.deepEqual(await first, [
        { kind: 'asked', activity: 'PROJ-901' },
        { kind: 'answered', answer: 'use' },
        { kind: 'started', activity: 'PROJ-901', previous: undefined },
      ]);
      assert.deepEqual(asked, [
        'This repository links its branches to activities (branch repo/** → {ticket}), which start tracking without asking, and may create activities in your app. Use its links?',
      ]);
      const second = outcomes(settled);
      switchTo('repo/PROJ-902');
      assert.deepEqual(await second, [{ kind: 'started', activity: 'PROJ-902', previous: 'PROJ-901' }]);
      assert.equal(asked.length, 1, 'asked once');
      assert.equal(running(), 'PROJ-902');
    } finally {
      answering.dispose();
    }
  });

  it('says in the status bar that the question waits, and after Use acts where the user is now, said in one line', async () => {
    await config().update(
      'links',
      [{ branch: 'wait/**', activity: '{ticket}', createIfMissing: true }],
      vscode.ConfigurationTarget.Workspace,
    );
    const before = running();
    let answer: (label: string) => void = () => undefined;
    const asked: string[] = [];
    const answering = answerLinkQuestions(new Promise<string>((resolve) => (answer = resolve)), asked);
    try {
      const first = outcomes((seen) => seen.length === 1);
      switchTo('wait/PROJ-906');
      assert.deepEqual(await first, [{ kind: 'asked', activity: 'PROJ-906' }]);
      await questionHinted();
      assert.match(api.tooltip, /This repository's links wait for your answer: PROJ\\-906 starts once you use them/);
      assert.match(api.tooltip, /\(command:timeTracker\.useRepositoryLinks\)/);
      const menu = await withMenuChoice(undefined, () => vscode.commands.executeCommand('timeTracker.showMenu'));
      assert.equal(commandsOf(menu)[0], 'useRepositoryLinks', JSON.stringify(menu.entries));
      const during = outcomes((seen) => seen.length === 1);
      switchTo('wait/PROJ-907');
      assert.deepEqual(await during, [{ kind: 'unanswered', activity: 'PROJ-907' }]);
      const answered = outcomes(settled);
      const line = nextSaid(/this workspace now uses the repository's links\.$/);
      answer('Use Its Links');
      assert.deepEqual(await answered, [
        { kind: 'answered', answer: 'use' },
        { kind: 'started', activity: 'PROJ-907', previous: before },
      ]);
      assert.equal(running(), 'PROJ-907', 'the answer applies on the branch the user is on now');
      assert.equal(await line, "PROJ-907 started, as linked here; this workspace now uses the repository's links.");
      assert.doesNotMatch(api.tooltip, /wait for your answer/);
      assert.equal(asked.length, 1);
    } finally {
      answering.dispose();
    }
  });

  it("starts nothing from a repository's links the user refused, and reports the switch as without links", async () => {
    await config().update(
      'links',
      [{ branch: 'team/**', activity: 'Team {ticket}', createIfMissing: true }],
      vscode.ConfigurationTarget.Workspace,
    );
    await api.branchWatchReady();
    const asked: string[] = [];
    const answering = answerLinkQuestions('Never Here', asked);
    try {
      const before = running();
      const first = outcomes((seen) => seen.length === 2);
      switchTo('team/PROJ-903');
      assert.deepEqual(await first, [
        { kind: 'asked', activity: 'Team PROJ-903' },
        { kind: 'answered', answer: 'refuse' },
      ]);
      const handled = new Promise<HandledSwitch>((resolve) => {
        const subscription = api.onDidHandleBranchSwitch((switched) => {
          subscription.dispose();
          resolve(switched);
        });
      });
      switchTo('team/PROJ-904');
      assert.equal((await handled).outcome, 'reported', 'handled as if the repository had no links');
      assert.equal(running(), before, 'nothing started');
      assert.equal(asked.length, 1, 'not asked again');
    } finally {
      answering.dispose();
    }
  });

  it("after Stop, what a window's opening does starts nothing, and says why; a switch still starts", async () => {
    const name = vscode.workspace.workspaceFolders![0]!.name;
    await config().update(
      'links',
      [{ folder: name, activity: 'Opening work', createIfMissing: true }],
      vscode.ConfigurationTarget.Workspace,
    );
    server.controls.state.start({ name: 'Before the stop', createIfMissing: true });
    await until(
      api,
      (state) => state.kind === 'tracking' && state.activity.activityName === 'Before the stop',
      'running',
    );
    await vscode.commands.executeCommand('timeTracker.stop');
    await until(api, kind('idle'), 'stopped');
    const asked: string[] = [];
    const answering = answerLinkQuestions('Use Its Links', asked);
    try {
      // Use This Repository's Links… then does what the window's opening does (as after a reload).
      const opening = outcomes(settled);
      await vscode.commands.executeCommand('timeTracker.useRepositoryLinks');
      const outcome = (await opening).at(-1);
      assert.equal(outcome?.kind, 'stopped', JSON.stringify(outcome));
      assert.equal(running(), undefined, 'nothing started');
      assert.match(api.tooltip, /you stopped tracking at \d\d?:\d\d/);
      assert.equal(asked.length, 1);
    } finally {
      answering.dispose();
    }
    await config().update(
      'links',
      [{ branch: 'after-stop/**', activity: '{ticket}', createIfMissing: true }],
      vscode.ConfigurationTarget.Workspace,
    );
    const again = answerLinkQuestions('Use Its Links', []);
    try {
      const switched = outcomes(settled);
      switchTo('after-stop/PROJ-905');
      assert.deepEqual(
        (await switched).at(-1),
        { kind: 'started', activity: 'PROJ-905', previous: undefined },
        'a switch is the user acting',
      );
    } finally {
      again.dispose();
    }
  });
});
