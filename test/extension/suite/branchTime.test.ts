/**
 * Issue 24 in a real extension host: the app (the reference server in this process) tracks while
 * the workspace's real git repository switches branches; the ledger the "Time by Branch" view
 * renders shows both branches with totals that add up to the time tracked, and Copy Summary puts
 * a line per branch on the clipboard. (Two windows in one host cannot be made here: the sharing
 * between windows is the unit test test/unit/tracker/ledger/ledgerStore.test.ts, two ledgers over
 * one store folder.)
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { PeriodSummary } from '../../../src/tracker/ledger/summary';
import type { ReferenceServer } from '../../../src/server/server';
import { kind, until } from './states';
import { connectToNewServer } from './connected';

const TOKEN = 'branch-time-test-token-3d1e';
/** The longest a background window waits between polls at the 2 s interval set here (three times it). */
const LONGEST_POLL_MS = 6_000;

describe('time by branch against the reference server and real git', function () {
  this.timeout(60_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer;
  let root: string;
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  const branchMs = (summary: PeriodSummary, branch: string): number =>
    summary.repositories.filter((repository) => repository.root === root).flatMap((repository) => repository.branches.filter((candidate) => candidate.branch === branch))[0]?.ms ?? 0;

  /** Resolves after `count` more answers of the app (polls, or a command's refresh). */
  const polls = (count: number): Promise<void> =>
    new Promise((resolve) => {
      let seen = 0;
      const subscription = api.onDidChangeState(() => {
        if (++seen < count) return;
        subscription.dispose();
        resolve();
      });
    });

  before(async function () {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) this.skip();
    root = folder.uri.fsPath;
    git('checkout', '-q', 'main');
    ({ api, server } = await connectToNewServer(TOKEN));
    assert.deepEqual(await api.branchWatchReady(), [root]);
  });

  after(async () => {
    await vscode.commands.executeCommand('timeTracker.stop');
    git('checkout', '-q', 'main');
    await config().update('pollIntervalSeconds', undefined, vscode.ConfigurationTarget.Global);
    await config().update('port', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('timeTracker.clearToken');
    await server.close();
  });

  it('counts the tracked time on the branch checked out, across a real switch, adding up to the time tracked', async () => {
    const before = await api.branchTimeSummary('today');
    const startedAt = Date.now();
    await vscode.commands.executeCommand('timeTracker.start', { name: 'Branch work', createIfMissing: true });
    await until(api, kind('tracking'), 'tracking');
    await polls(4);
    const switched = new Promise<string>((resolve) => {
      const subscription = api.onDidHandleBranchSwitch((handled) => {
        subscription.dispose();
        resolve(handled.branch);
      });
    });
    git('checkout', '-q', 'feature');
    assert.equal(await switched, 'feature');
    await polls(4);
    await vscode.commands.executeCommand('timeTracker.stop');
    await until(api, kind('idle'), 'stopped');
    const tracked = Date.now() - startedAt;
    const after = await api.branchTimeSummary('today');
    const onMain = branchMs(after, 'main') - branchMs(before, 'main');
    const onFeature = branchMs(after, 'feature') - branchMs(before, 'feature');
    assert.ok(onMain > 0 && onFeature > 0, `main got ${onMain} ms, feature ${onFeature} ms`);
    assert.ok(onMain + onFeature <= tracked, `${onMain + onFeature} ms counted of ${tracked} ms tracked: never more`);
    assert.ok(tracked - (onMain + onFeature) <= LONGEST_POLL_MS + 1_000, `${onMain + onFeature} ms counted of ${tracked} ms tracked: within one poll interval`);
    const activities = after.repositories.find((repository) => repository.root === root)?.branches.find((branch) => branch.branch === 'feature')?.activities ?? [];
    assert.ok(activities.some((activity) => activity.activityName === 'Branch work'));
  });

  it('copies a line per branch, plain and as Markdown', async () => {
    await vscode.commands.executeCommand('timeTracker.copyBranchSummary');
    const plain = await vscode.env.clipboard.readText();
    assert.match(plain, /^Time by branch, Today \(\d{4}-\d\d-\d\d\): /);
    assert.match(plain, /^main: (< 1m|\d+m|\d+h( \d+m)?), .*Branch work/m);
    assert.match(plain, /^feature: (< 1m|\d+m|\d+h( \d+m)?), .*Branch work/m);
    await vscode.commands.executeCommand('timeTracker.copyBranchSummaryMarkdown', { type: 'period', kind: 'today' });
    const markdown = await vscode.env.clipboard.readText();
    assert.match(markdown, /^- `feature`: (< 1m|\d+m|\d+h( \d+m)?), .*Branch work$/m);
  });
});
