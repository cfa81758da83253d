import * as vscode from 'vscode';
import { compileBranchGlobs } from '../git/branchFilter';
import { BranchWatcher, type BranchChange } from '../git/branchWatcher';
import { repoName } from '../git/repoName';
import type { Connection } from './connection';
import type { Settings } from './settings';

/**
 * Reports branch switches in the workspace's repositories with POST /branch-changed. A failed
 * report (offline, 401, 423, 429…) is dropped with one log line, never retried by hand and never
 * thrown into the watcher: the status bar already shows the cause.
 */
export type BranchOutcome = 'reported' | 'ignored' | 'disabled' | 'noToken' | 'failed';

export interface HandledSwitch {
  readonly branch: string;
  readonly previousBranch: string | undefined;
  readonly root: string;
  readonly outcome: BranchOutcome;
}

export class BranchReporter implements vscode.Disposable {
  private readonly handled = new vscode.EventEmitter<HandledSwitch>();
  /** Fires once per switch the watcher saw, with what became of it. */
  readonly onDidHandle = this.handled.event;
  private readonly watcher: BranchWatcher;
  private readonly subscriptions: vscode.Disposable[] = [];
  private ignored: (branch: string) => boolean = () => false;
  private ignoredKey = '';
  private watching = false;

  constructor(
    private readonly connection: Connection,
    private readonly log: vscode.LogOutputChannel,
    private readonly settings: () => Settings,
  ) {
    this.watcher = new BranchWatcher({
      onSwitch: (change) => void this.report(change),
      log: (message) => this.log.debug(message),
    });
    this.subscriptions.push(vscode.workspace.onDidChangeWorkspaceFolders(() => void this.apply()));
  }

  get repositories(): readonly string[] {
    return this.watcher.repositories.map((repository) => repository.root);
  }

  /** Applies the current settings and folders: start, stop or re-scan the watchers. */
  async apply(): Promise<void> {
    const git = this.settings().git;
    const key = JSON.stringify(git.ignoreBranches);
    if (key !== this.ignoredKey) {
      this.ignoredKey = key;
      this.ignored = compileBranchGlobs(git.ignoreBranches);
    }
    this.watching = git.reportBranchChanges;
    const folders = this.watching
      ? (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => folder.uri.fsPath)
      : [];
    await this.watcher.setFolders(folders);
  }

  private async report(change: BranchChange): Promise<void> {
    const outcome = await this.send(change);
    this.handled.fire({ branch: change.branch, previousBranch: change.previousBranch, root: change.repository.root, outcome });
  }

  private async send(change: BranchChange): Promise<BranchOutcome> {
    const git = this.settings().git;
    // Checked again here: turning the setting off stops reports at once, even one in flight.
    if (!this.watching || !git.reportBranchChanges) return 'disabled';
    if (this.ignored(change.branch)) {
      this.log.info(`Branch ${change.branch} is ignored (timeTracker.git.ignoreBranches); not reported.`);
      return 'ignored';
    }
    const client = this.connection.client;
    if (!client) {
      this.log.info(`Switched to ${change.branch}; not reported because no token is set.`);
      return 'noToken';
    }
    try {
      const repo = await repoName(change.repository, git.repoName);
      await client.notifyBranchChange({
        branch: change.branch,
        repo,
        ...(change.previousBranch === undefined ? {} : { previousBranch: change.previousBranch }),
      });
      this.log.info(`Reported the switch to ${change.branch} in ${repo}.`);
      return 'reported';
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log.warn(`The switch to ${change.branch} was not reported: ${reason}`);
      return 'failed';
    }
  }

  dispose(): void {
    this.watcher.dispose();
    this.handled.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}
