/**
 * Links (issue 25) in a real extension host: the workspace is a real git repository, branches are
 * switched with git, and the reference server in this process must see the linked activity start
 * with no branch report (the app would prompt on one), Undo restore what ran before,
 * `reportBranchChanges: "always"` report as well, an unlinked branch reported as before, and,
 * with the app gone, nothing start and the status bar say once why.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import type { HandledSwitch } from '../../../src/extension/branchReporter';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { LinkOutcome } from '../../../src/extension/links/linkController';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import type { TrackerState } from '../../../src/tracker/model/trackerState';
import { NotificationSpy } from '../soak/spy';
import { kind, until } from './states';
import { withWizardAnswers, type PickerSeen } from './wizardAnswers';

const extensionId = 'clessira-tools.clessira-time-tracker';
const TOKEN = 'links-test-token-93e1';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');

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
    const running = (): string | undefined => {
      const session = server.controls.state.snapshot().running;
      return session === null ? undefined : server.controls.state.listActivities().find((activity) => activity.id.toLowerCase() === session.activityID.toLowerCase())?.name;
    };
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
      await config().update('links', [{ branch: '**', activity: '{ticket}', createIfMissing: true }], vscode.ConfigurationTarget.Global);
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
      await until(api, (state) => state.kind === 'tracking' && state.activity.activityName === ticket(124), `${ticket(124)} running`);
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
  const tracking = (name: string) => (state: TrackerState) => state.kind === 'tracking' && state.activity.activityName === name;

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
    const spy = new NotificationSpy();
    try {
      // Typed, as a user looks for an activity this window never saw: the app's search lists it.
      await withWizardAnswers({ pick: 'Design', typed: [], pickerTyping: { text: 'Des', keystrokeMs: 40 } }, () => vscode.commands.executeCommand('timeTracker.linkBranch'));
    } finally {
      spy.dispose();
    }
    assert.deepEqual(workspaceLinks(), [{ branch: BRANCH, activity: 'Design' }], JSON.stringify(spy.shown));
    assert.deepEqual(
      spy.shown.map(({ message }) => message),
      [`Branch ${BRANCH} is linked to Design: switching to it tracks Design without asking.`],
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
    git('checkout', '-q', BRANCH);
    assert.deepEqual(await linked, { kind: 'started', activity: 'Design', previous: undefined });
  });

  it('lists the activity linked here first in the Start picker', async () => {
    // Docs becomes the most recent activity, then stops: only the link puts Design before it.
    server.controls.state.start({ name: 'Docs' });
    await until(api, tracking('Docs'), 'Docs running');
    server.controls.state.stop();
    await until(api, kind('idle'), 'idle');
    const seen: PickerSeen[] = [];
    await withWizardAnswers({ pick: 'Docs', typed: [], seen }, () => vscode.commands.executeCommand('timeTracker.start'));
    const listed = seen[0]!.chosenFrom.items.filter((item) => !item.separator).map((item) => item.label);
    assert.deepEqual(listed.slice(0, 2), ['Design', 'Docs'], JSON.stringify(listed));
  });

  it('removes the link that applies here with Unlink', async () => {
    await vscode.commands.executeCommand('timeTracker.unlink');
    assert.equal(workspaceLinks(), undefined);
  });
});
