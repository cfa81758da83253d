import * as vscode from 'vscode';
import {
  checkGlobs,
  compileBranchGlobs,
  MAX_GLOB_LENGTH,
  MAX_GLOB_LIST_LENGTH,
  type RefusedGlob,
} from '../platform/globs';
import { BranchWatcher, type BranchChange } from '../git/branchWatcher';
import type { HeadState } from '../git/headState';
import type { Repository } from '../git/repositories';
import { repoName } from '../git/repoName';
import { errorMessage } from '../platform/errors';
import { nodeFileSystem, type FileSystemPort } from '../platform/fileSystemPort';
import { displayText } from '../platform/outsideText';
import type { BranchChangeRequest } from '../protocol/types';
import { pollingPaused } from '../tracker/model/poller';
import {
  REPORT_GIVE_UP_MS,
  REPORT_WAIT_LIFE_MS,
  ReportRetry,
  type SendResult,
  type Settlement,
  type Undelivered,
} from '../tracker/model/reportRetry';
import { editorFileSystem } from './editorFileSystem';
import type { Messages } from './messages';
import type { Session } from './session';
import type { Settings } from './settings';
import type { Log } from './oneLineLog';

/**
 * Reports branch switches in the workspace's repositories with POST /branch-changed. A report the
 * app surely did not get (429, 503, refused connection) is tried again in memory with a growing
 * pause, newest switch per repository first, for up to ten minutes (src/tracker/model/reportRetry.ts);
 * any other failure (423, 400, an answer lost) is dropped with one log line and never thrown
 * into the watcher: the status bar already shows the cause. While polling is paused (the app
 * rejected the token or locks us out) nothing is sent: the newest switch per repository waits, and
 * so does one refused with a 401, until the app answers a poll again, for two minutes at most.
 */
export type BranchOutcome =
  | 'reported'
  | 'ignored'
  | 'disabled'
  | 'noToken'
  | 'failed'
  /** The app could not take it yet (429, 503, refused): tried again in memory, see ReportRetry. */
  | 'retrying'
  /** Polling is paused (a rejected token, a lockout): sent when the app answers again, see ReportRetry. */
  | 'waiting'
  /** A newer switch in the same repository went out instead. */
  | 'replaced'
  /** A link of timeTracker.links decided the branch's activity, so the app is not asked (unless `always`). */
  | 'linked'
  /** The app's own extension reports it, so the app is asked once (unless the user's own value is `always`). */
  | 'appExtension';

export interface HandledSwitch {
  readonly branch: string;
  readonly previousBranch: string | undefined;
  readonly root: string;
  readonly outcome: BranchOutcome;
}

/** One read of a repository's HEAD, a switch or not: what the branch-time ledger follows. */
export interface HeadRead {
  readonly repository: Repository;
  readonly head: HeadState;
  /** A rebase, merge, bisect… is under way: HEAD moves for its sake. */
  readonly busy: boolean;
  readonly fileSystem: FileSystemPort;
  /** The switch this read saw, if it saw one. */
  readonly switched?: BranchChange | undefined;
}

/** Why a switch is not reported though reports are on: a link decided it, or the app's own extension reports it. */
export interface ReportSkip {
  readonly linked: boolean;
  /** The app's own extension that reports switches here (src/extension/coexistence). */
  readonly appExtension: { readonly id: string } | undefined;
}

/** A repository the reporter watches. */
export interface WatchedRepository {
  readonly repository: Repository;
  /** What the repository is read through: Node's fs, or VS Code's for a remote workspace. */
  readonly fileSystem: FileSystemPort;
  /** The branch it was last read on, as first seen (kept through a detached HEAD); undefined before a read. */
  readonly lastBranch: string | undefined;
}

/** What the branch reporter reads, each handed over when it is built. */
export interface BranchReporterParts {
  readonly session: Pick<Session, 'state' | 'channel' | 'ready' | 'onDidChangeState'>;
  readonly log: Pick<Log, 'debug' | 'info' | 'warn'>;
  readonly settings: () => Settings;
  readonly messages: Pick<Messages, 'problems'>;
}

interface Watch {
  readonly watcher: BranchWatcher;
  readonly fileSystem: FileSystemPort;
}

/** How much of a refused glob a sentence quotes. */
const GLOB_QUOTE_LIMIT = 80;

export class BranchReporter implements vscode.Disposable {
  private readonly handled = new vscode.EventEmitter<HandledSwitch>();
  /** Fires once per switch reported (or not), with what became of it. */
  readonly onDidHandle = this.handled.event;
  private readonly heads = new vscode.EventEmitter<HeadRead>();
  /** Fires after every read of a HEAD, with the switch it saw: the composition root follows it (core.ts). */
  readonly onDidReadHead = this.heads.event;
  /**
   * One watcher per file system: Node's for folders on this machine, VS Code's for each remote
   * authority, when the extension runs on the user's machine beside a remote workspace.
   */
  private readonly watches = new Map<string, Watch>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly retries = new ReportRetry<BranchChangeRequest>({
    send: (report) => this.attempt(report),
    onSettled: (report, outcome, why) => this.settled(report, outcome, why),
    paused: () => pollingPaused(this.parts.session.state, Date.now()),
  });
  private ignored: (branch: string, ignoresCase: boolean) => boolean = () => false;
  private ignoredKey = '';
  /** Whether the links need the branches watched, as the last `apply` was told. */
  private forLinks = false;

  constructor(private readonly parts: BranchReporterParts) {
    this.subscriptions.push(
      vscode.workspace.onDidChangeWorkspaceFolders(() => void this.apply(this.forLinks)),
      // A switch whose file event was lost (a Mac's FSEvents stream restarting) is seen on return.
      vscode.window.onDidChangeWindowState((state) => {
        if (state.focused) for (const { watcher } of this.watches.values()) watcher.recheck();
      }),
      // The app answers a poll again: what waited for the pause to end goes now.
      parts.session.onDidChangeState((state) => {
        if (state.kind === 'idle' || state.kind === 'tracking') this.retries.resume();
      }),
    );
  }

  /** The repositories watched, each with the file system it is read through and the branch it was last read on. */
  get watched(): readonly WatchedRepository[] {
    return [...this.watches.values()].flatMap(({ watcher, fileSystem }) =>
      watcher.repositories.map((repository) => ({ repository, fileSystem, lastBranch: watcher.branchOf(repository) })),
    );
  }

  /** Applies the current settings and folders: start, stop or re-scan the watchers; `forLinks`: links need them. */
  async apply(forLinks: boolean): Promise<void> {
    this.forLinks = forLinks;
    const git = this.parts.settings().git;
    const key = JSON.stringify(git.ignoreBranches);
    if (key !== this.ignoredKey) {
      this.ignoredKey = key;
      this.ignored = compileBranchGlobs(git.ignoreBranches);
      this.sayRefused(checkGlobs(git.ignoreBranches).refused);
    }
    // The branch-time ledger and the links follow the branches too, whether or not switches are reported.
    const watching = git.reportBranchChanges !== false || this.parts.settings().branchTime.enabled || forLinks;
    const bySystem = new Map<string, { base: vscode.Uri; paths: string[] }>();
    for (const folder of watching ? (vscode.workspace.workspaceFolders ?? []) : []) {
      const key = folder.uri.scheme === 'file' ? 'file' : `${folder.uri.scheme}://${folder.uri.authority}`;
      const group = bySystem.get(key) ?? { base: folder.uri, paths: [] };
      group.paths.push(folder.uri.scheme === 'file' ? folder.uri.fsPath : folder.uri.path);
      bySystem.set(key, group);
    }
    for (const [key, watch] of this.watches) {
      if (bySystem.has(key)) continue;
      watch.watcher.dispose();
      this.watches.delete(key);
    }
    await Promise.all(
      [...bySystem].map(([key, group]) => {
        let watch = this.watches.get(key);
        if (!watch) {
          const fileSystem = key === 'file' ? nodeFileSystem : editorFileSystem(group.base);
          watch = {
            fileSystem,
            watcher: new BranchWatcher({
              fileSystem,
              onRead: (repository, head, busy, switched) =>
                this.heads.fire({ repository, head, busy, fileSystem, switched }),
              log: (message) => this.parts.log.debug(message),
            }),
          };
          this.watches.set(key, watch);
        }
        return watch.watcher.setFolders(group.paths);
      }),
    );
  }

  /** Each glob of ignoreBranches not used is logged, and the first said once, with why. */
  private sayRefused(refused: readonly RefusedGlob[]): void {
    const sentences = refused.map(({ glob, problem }) => {
      const quoted = displayText(glob, GLOB_QUOTE_LIMIT);
      return problem === 'TOO_LONG'
        ? [
            vscode.l10n.t('The glob "{glob}" of timeTracker.git.ignoreBranches has {length} characters,', {
              glob: quoted,
              length: glob.length,
            }),
            vscode.l10n.t('more than the {limit} a glob may have, so it ignores no branch.', {
              limit: MAX_GLOB_LENGTH,
            }),
          ].join(' ')
        : [
            vscode.l10n.t('The glob "{glob}" of timeTracker.git.ignoreBranches ignores no branch:', { glob: quoted }),
            vscode.l10n.t(
              'with the globs before it, the list passes the {limit} characters its globs may have together.',
              { limit: MAX_GLOB_LIST_LENGTH },
            ),
          ].join(' ');
    });
    this.parts.messages.problems(sentences);
  }

  /** Reports the switch unless `skip` says why not, and fires onDidHandle with what became of it. */
  async report(change: BranchChange, fileSystem: FileSystemPort, skip: ReportSkip): Promise<void> {
    const outcome = await this.send(change, fileSystem, skip);
    this.handled.fire({
      branch: change.branch,
      previousBranch: change.previousBranch,
      root: change.repository.root,
      outcome,
    });
  }

  private async send(change: BranchChange, fileSystem: FileSystemPort, skip: ReportSkip): Promise<BranchOutcome> {
    const git = this.parts.settings().git;
    // Checked again here: turning the setting off stops reports at once, even one in flight.
    if (git.reportBranchChanges === false) return 'disabled';
    // The link chose the activity: the app's prompt would ask what is already decided.
    if (skip.linked && git.reportBranchChanges !== 'always') {
      this.parts.log.info(
        `Branch ${change.branch} is linked to an activity (timeTracker.links); ` +
          'not reported (timeTracker.git.reportBranchChanges is not "always").',
      );
      return 'linked';
    }
    // The app's own extension told the app already: a second report opens its prompt twice.
    if (skip.appExtension !== undefined) {
      this.parts.log.info(
        `Switched to ${change.branch}; not reported: ${skip.appExtension.id} reports it ` +
          '(timeTracker.git.reportBranchChanges is not "always" in the user settings).',
      );
      return 'appExtension';
    }
    if (this.ignored(change.branch, change.repository.ignoresCase)) {
      this.parts.log.info(`Branch ${change.branch} is ignored (timeTracker.git.ignoreBranches); not reported.`);
      return 'ignored';
    }
    // A reconnect under way (a token just set, the app's integration just found) goes first.
    const client = await this.parts.session.ready();
    if (!client) {
      const { channel } = this.parts.session;
      const why =
        channel.kind === 'none' && channel.reason === 'remoteHost'
          ? 'this remote machine sends the app nothing'
          : 'the app is not connected (no integration, no token)';
      this.parts.log.info(`Switched to ${change.branch}; not reported because ${why}.`);
      return 'noToken';
    }
    const report: BranchChangeRequest = {
      branch: change.branch,
      repo: await repoName(change.repository, git.repoName, fileSystem),
      // The app's own extension sends the repository's root too, and the app documents using it.
      repoPath: change.repository.root,
      ...(change.previousBranch === undefined ? {} : { previousBranch: change.previousBranch }),
    };
    const outcome = await this.retries.submit(change.repository.root, report).catch((error: unknown) => {
      this.parts.log.warn(`The switch to ${change.branch} was not reported: ${errorMessage(error)}`);
      return 'failed' as const;
    });
    switch (outcome) {
      case 'delivered':
        this.parts.log.info(`Reported the switch to ${change.branch} in ${report.repo ?? '?'}.`);
        return 'reported';
      case 'retry':
        return 'retrying';
      case 'waiting':
        this.parts.log.info(
          `Switched to ${change.branch}; ` +
            `the report waits until the app accepts requests again (at most ${REPORT_WAIT_LIFE_MS / 60_000} minutes).`,
        );
        return 'waiting';
      case 'replaced':
        return 'replaced';
      case 'failed':
        return 'failed';
    }
  }

  /**
   * One attempt with the client of the moment; without one nothing is sent, and the retry queue
   * tries again later. The retry queue decides what a failure means.
   */
  private async attempt(report: BranchChangeRequest): Promise<SendResult> {
    const client = await this.parts.session.ready();
    if (!client) return 'notConnected';
    await client.notifyBranchChange(report);
    return 'sent';
  }

  private settled(report: BranchChangeRequest, outcome: Settlement, why?: Undelivered): void {
    switch (outcome) {
      case 'delivered':
        this.parts.log.info(`Reported the switch to ${report.branch} in ${report.repo ?? '?'}, on a later try.`);
        return;
      case 'failed':
        this.parts.log.warn(`The switch to ${report.branch} was not reported: ${describeUndelivered(why)}`);
        return;
      case 'replaced':
        this.parts.log.debug(
          `The switch to ${report.branch} was not reported: a newer switch in ${report.repo ?? '?'} replaces it.`,
        );
        return;
      case 'gaveUp':
        this.parts.log.warn(
          `Gave up reporting the switch to ${report.branch} ` +
            `after ${REPORT_GIVE_UP_MS / 60_000} minutes of tries: ${describeUndelivered(why)}`,
        );
        return;
      case 'expired':
        this.parts.log.warn(
          `The switch to ${report.branch} was not reported: ` +
            `the app did not accept requests again within ${REPORT_WAIT_LIFE_MS / 60_000} minutes.`,
        );
        return;
    }
  }

  dispose(): void {
    this.retries.dispose();
    for (const { watcher } of this.watches.values()) watcher.dispose();
    this.watches.clear();
    this.handled.dispose();
    this.heads.dispose();
    for (const subscription of this.subscriptions) subscription.dispose();
  }
}

function describeUndelivered(why: Undelivered | undefined): string {
  return why?.kind === 'notConnected' ? 'The app is not connected.' : errorMessage(why?.error);
}
