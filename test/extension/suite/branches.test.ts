/**
 * Branch reporting in a real extension host: the workspace is a real git repository (made by
 * test/extension/workspace.mjs), branches are switched with git, and the reference server in this
 * process must receive exactly the expected POST /branch-changed bodies.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { editorFileSystem } from '../../../src/extension/editorFileSystem';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import { BranchWatcher, type BranchChange } from '../../../src/git/branchWatcher';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { kind, until } from './states';

const extensionId = 'clessira-tools.clessira-time-tracker';
const TOKEN = 'branch-test-token-51c2';

describe('branch reporting against the reference server', function () {
  this.timeout(30_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer;
  let root: string;
  let arrived: (() => void) | undefined;
  /** Every switch the extension saw and what became of it: says why a report is missing. */
  const handledSoFar: string[] = [];
  let handledListener: vscode.Disposable | undefined;
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  const reports = (): { branch: string; repo: string | null; previousBranch: string | null }[] =>
    server.controls.state
      .listBranchReports()
      .map(({ branch, repo, previousBranch }) => ({ branch, repo, previousBranch }));

  /** Resolves when the server has received `count` reports in all. */
  const reportCount = (count: number): Promise<void> =>
    new Promise((resolve, reject) => {
      if (server.controls.state.listBranchReports().length >= count) return resolve();
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `expected ${count} reports, got ${JSON.stringify(reports())}; the extension handled ${JSON.stringify(handledSoFar)}`,
            ),
          ),
        10_000,
      );
      arrived = () => {
        if (server.controls.state.listBranchReports().length < count) return;
        clearTimeout(timer);
        arrived = undefined;
        resolve();
      };
    });

  before(async function () {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) this.skip();
    root = folder.uri.fsPath;
    server = createReferenceServer({
      token: TOKEN,
      onRequest: (_line, record) => record.path === '/branch-changed' && arrived?.(),
    });
    const port = await server.listen(0);
    api = (await vscode.extensions.getExtension(extensionId)!.activate()) as TimeTrackerApi;
    handledListener = api.onDidHandleBranchSwitch(({ branch, outcome }) => handledSoFar.push(`${branch}: ${outcome}`));
    await config().update('port', port, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('timeTracker.setToken', TOKEN);
    // Reports go out with the client of the moment: switch only once it talks to this server.
    await until(api, kind('idle'), 'the extension connected to the test server');
    assert.deepEqual(await api.branchWatchReady(), [root]);
  });

  after(async () => {
    handledListener?.dispose();
    await config().update('git.reportBranchChanges', undefined, vscode.ConfigurationTarget.Global);
    await config().update('git.ignoreBranches', undefined, vscode.ConfigurationTarget.Global);
    git('checkout', '-q', 'main');
    await server.close();
  });

  it('reports each switch once, with the folder name and the branch before', async () => {
    assert.deepEqual(reports(), [], 'nothing at start-up');
    git('checkout', '-q', 'feature');
    await reportCount(1);
    git('switch', '-q', 'other');
    await reportCount(2);
    assert.deepEqual(reports(), [
      { branch: 'feature', repo: basename(root), previousBranch: 'main' },
      { branch: 'other', repo: basename(root), previousBranch: 'feature' },
    ]);
  });

  it('skips ignored branches', async () => {
    await config().update('git.ignoreBranches', ['tmp-*'], vscode.ConfigurationTarget.Global);
    await api.branchWatchReady();
    const seen = new Promise<string>((resolve) => {
      const subscription = api.onDidHandleBranchSwitch((handled) => {
        subscription.dispose();
        resolve(`${handled.branch}: ${handled.outcome}`);
      });
    });
    git('checkout', '-q', '-b', 'tmp-1');
    assert.equal(await seen, 'tmp-1: ignored');
    git('checkout', '-q', 'feature');
    await reportCount(3);
    assert.deepEqual(reports().slice(2), [{ branch: 'feature', repo: basename(root), previousBranch: 'tmp-1' }]);
  });

  it('drops a report the app refuses, with no retry, and goes on with the next switch', async () => {
    const handled = (): Promise<string> =>
      new Promise((resolve) => {
        const subscription = api.onDidHandleBranchSwitch((change) => {
          subscription.dispose();
          resolve(`${change.branch}: ${change.outcome}`);
        });
      });
    server.controls.setLicense('locked');
    let next = handled();
    git('checkout', '-q', 'other');
    assert.equal(await next, 'other: failed');
    server.controls.setLicense('valid');
    assert.equal(server.controls.state.listBranchReports().length, 3, 'the refused report was not stored');
    next = handled();
    git('checkout', '-q', 'feature');
    assert.equal(await next, 'feature: reported');
    assert.deepEqual(reports().slice(3), [{ branch: 'feature', repo: basename(root), previousBranch: 'other' }]);
    const refused = server.controls
      .debugView()
      .filter((record) => record.path === '/branch-changed' && record.status === 423);
    assert.equal(refused.length, 1, 'sent once, never retried');
  });

  it('stops reporting at once when turned off, without a reload', async () => {
    // The time-by-branch ledger follows the branches too: with both off, nothing is watched.
    await config().update('branchTime.enabled', false, vscode.ConfigurationTarget.Global);
    await config().update('git.reportBranchChanges', false, vscode.ConfigurationTarget.Global);
    assert.deepEqual(await api.branchWatchReady(), []);
    git('checkout', '-q', 'main');
    await config().update('branchTime.enabled', undefined, vscode.ConfigurationTarget.Global);
    await config().update('git.reportBranchChanges', true, vscode.ConfigurationTarget.Global);
    assert.deepEqual(await api.branchWatchReady(), [root]);
    git('checkout', '-q', 'other');
    await reportCount(5);
    // The switch to main happened while off: it was not reported, and "other" follows "main".
    assert.deepEqual(reports().slice(4), [{ branch: 'other', repo: basename(root), previousBranch: 'main' }]);
  });
  it("watches through VS Code's file system too, as it does for a remote workspace", async () => {
    // With Remote SSH/WSL/containers the extension runs beside the app on the user's machine and
    // reaches the repository through VS Code's file system; here that path runs on a file: URI.
    const folder = vscode.workspace.workspaceFolders![0]!;
    const seen: BranchChange[] = [];
    let notify: (() => void) | undefined;
    const watcher = new BranchWatcher({
      fileSystem: editorFileSystem(folder.uri),
      onSwitch: (change) => {
        seen.push(change);
        notify?.();
      },
    });
    try {
      await watcher.setFolders([folder.uri.path]);
      assert.deepEqual(
        watcher.repositories.map((repository) => repository.root),
        [folder.uri.path],
      );
      const arrived = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no switch seen through VS Code's file system")), 10_000);
        notify = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      const before = execFileSync('git', ['branch', '--show-current'], { cwd: root, encoding: 'utf8' }).trim();
      const target = before === 'main' ? 'other' : 'main';
      git('checkout', '-q', target);
      await arrived;
      assert.deepEqual(
        seen.map(({ branch, previousBranch }) => ({ branch, previousBranch })),
        [{ branch: target, previousBranch: before }],
      );
    } finally {
      watcher.dispose();
    }
  });
});
