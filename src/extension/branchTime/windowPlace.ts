/**
 * Which repository and branch this window works on, for the branch-time ledger, as
 * data: the repository of the active editor's file (else the first one watched), on the branch
 * the branch reporter's watcher last read (a detached HEAD as its short commit id), or the first
 * folder by its name when there is no git. A rebase, merge or bisect moves HEAD for its own sake:
 * those reads are skipped, so the time stays on the branch. The ledger never sees git.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { asSeen, parseHead } from '../../git/headState';
import type { FileSystemPort } from '../../platform/fileSystemPort';
import { isInside } from '../../platform/pathKey';
import type { WorkPlace } from '../../tracker/branchTime/attribution';
import type { BranchReporter, HeadRead } from '../branchReporter';

/** A detached HEAD counts as this many characters of its commit id, as git's short ids do. */
const SHORT_ID_LENGTH = 7;

export class WindowPlace implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<WorkPlace | undefined>();
  readonly onDidChange = this.changed.event;
  /** By repository root: the branch (or short commit id) it is on. */
  private readonly branches = new Map<string, string>();
  private readonly subscriptions: vscode.Disposable[];
  private current: WorkPlace | undefined;
  /** Until the watchers have found the repositories, a repository would pass for a folder without git. */
  private found = false;

  constructor(private readonly reporter: Pick<BranchReporter, 'watched'>) {
    this.subscriptions = [
      vscode.window.onDidChangeActiveTextEditor(() => this.decide()),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.decide()),
    ];
  }

  get place(): WorkPlace | undefined {
    return this.current;
  }

  /** Reads every watched repository's HEAD again: at start, and after the watchers changed. */
  async refresh(): Promise<void> {
    await Promise.all(
      this.reporter.watched.map(async ({ repository, fileSystem, lastBranch }) => {
        const branch = await branchOf(repository.gitDir, fileSystem);
        if (branch !== undefined)
          this.branches.set(repository.root, asSeen(branch, lastBranch, repository.ignoresCase));
      }),
    );
    this.found = true;
    this.decide();
  }

  /** A read of a repository's HEAD (every one, a switch or not): a rebase's are skipped, see the top. */
  async headRead(read: HeadRead): Promise<void> {
    if (read.busy || read.head.kind === 'unreadable') return;
    const branch =
      read.head.kind === 'branch' ? read.head.branch : await branchOf(read.repository.gitDir, read.fileSystem);
    if (branch === undefined) return;
    this.branches.set(read.repository.root, branch);
    this.decide();
  }

  private decide(): void {
    const next = this.choose();
    if (next?.root === this.current?.root && next?.branch === this.current?.branch) return;
    this.current = next;
    this.changed.fire(next);
  }

  private choose(): WorkPlace | undefined {
    if (!this.found) return undefined;
    const repositories = this.reporter.watched
      .map(({ repository }) => repository)
      .filter(({ root }) => this.branches.has(root));
    const file = vscode.window.activeTextEditor?.document.uri;
    const active =
      file?.scheme === 'file'
        ? repositories
            .filter(({ root }) => isInside(file.fsPath, root))
            .sort((a, b) => b.root.length - a.root.length)[0]
        : undefined;
    const repository = active ?? repositories[0];
    if (repository !== undefined) {
      const { root, ignoresCase } = repository;
      const branch = this.branches.get(root) ?? '';
      return { root, repository: basename(root), branch, ...(ignoresCase ? { ignoresCase: true } : {}) };
    }
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (folder === undefined) return undefined;
    // A folder without git counts under its own name.
    return { root: folder.uri.toString(), repository: folder.name, branch: folder.name };
  }

  dispose(): void {
    this.changed.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

/** The branch HEAD names, or the short id of the commit it holds (detached). */
async function branchOf(gitDir: string, fileSystem: FileSystemPort): Promise<string | undefined> {
  const text = await fileSystem.readText(fileSystem.path.join(gitDir, 'HEAD'));
  const head = parseHead(text);
  if (head.kind === 'branch') return head.branch;
  const line = text?.split('\n', 1)[0]?.trim() ?? '';
  return /^[0-9a-f]{7,64}$/i.test(line) ? line.slice(0, SHORT_ID_LENGTH) : undefined;
}
