/**
 * Links in the editor (issue 25): on a branch switch the branch reporter asks `decides`, and a
 * window opening on a linked folder or branch while nothing runs asks `windowOpened`; when a link
 * names an activity other than the one running, it is started once (POST /activities/start, by
 * the id this window knows or by name with the link's createIfMissing), never queued, never
 * retried. While the app may not be asked or the user is on a break nothing starts, and the
 * status bar says once why. The status bar shows what happened for a few seconds
 * (src/tracker/links/linkNotice.ts); a click, or Undo in its tooltip, restarts what ran before.
 * What the links are and which one matches is src/tracker/links/links.ts.
 */
import * as vscode from 'vscode';
import type { BranchChange } from '../../git/branchWatcher';
import { parseHead } from '../../git/headState';
import { errorMessage } from '../../platform/errors';
import type { ActivityReference } from '../../protocol/types';
import { ticketMatcher, type TicketMatcher } from '../../tracker/ledger/copySummary';
import { failedNotice, heldNotice, linkStep, startedNotice, TransientNotice, type LinkHold, type NoticeWords } from '../../tracker/links/linkNotice';
import type { Timers } from '../../platform/timers';
import { decideLink, knownActivityFor, matchingLinks, parseLinks, type CompiledLink, type LinkDecision, type ParsedLinks, type Place } from '../../tracker/links/links';
import { classify } from '../../tracker/model/classify';
import type { RecentActivities } from '../../tracker/view/recentActivities';
import type { BranchReporter } from '../branchReporter';
import type { Messages } from '../messages';
import type { Session } from '../session';
import type { LinkSource, Settings } from '../settings';

export interface LinkParts {
  readonly session: Session;
  readonly branches: BranchReporter;
  readonly log: vscode.LogOutputChannel;
  readonly messages: Messages;
  /** Where the notice shows: the status bar item (src/extension/statusBar.ts showNotice), which picks its private form or not. */
  readonly showNotice: (notice: NoticeWords | undefined) => void;
  readonly settings: () => Settings;
  /** globalState: the recent activities, whose ids a link's name may be known by. */
  /** The recent activities (globalState): where a link's activity may be known by id. */
  readonly recent: RecentActivities;
  /** How the notice is timed; real timers unless a test moves the clock. */
  readonly timers?: Timers;
}

/** What a link did with one switch or window opening: the tests and the API read it. */
export type LinkOutcome =
  | { readonly kind: 'started'; readonly activity: string; readonly previous: string | undefined }
  | { readonly kind: 'alreadyRunning'; readonly activity: string }
  | { readonly kind: 'held'; readonly activity: string; readonly hold: LinkHold }
  | { readonly kind: 'failed'; readonly activity: string; readonly message: string }
  /** A newer switch came before this one could act. */
  | { readonly kind: 'overtaken'; readonly activity: string };

/** What Undo takes back: the activity that ran before the link's start (undefined: nothing ran). */
export interface LinkUndo {
  readonly previous: ActivityReference | undefined;
  readonly started: string;
}

export class LinkController implements vscode.Disposable {
  private readonly acted = new vscode.EventEmitter<LinkOutcome>();
  /** Fires once per link that matched a switch or the window's opening, with what it did. */
  readonly onDidAct = this.acted.event;
  private readonly notice: TransientNotice<NoticeWords>;
  private parsed: ParsedLinks = { links: [], problems: [] };
  /** Each settings file's links, as parsed: where Unlink removes one from. */
  private byScope: readonly { readonly scope: LinkSource['scope']; readonly links: readonly CompiledLink[] }[] = [];
  private parsedKey: string | undefined;
  private tickets: TicketMatcher = ticketMatcher('');
  private ticketsKey: string | undefined;
  /** Each switch takes a turn; a start whose turn passed does not go out. */
  private turn = 0;
  private undoable: LinkUndo | undefined;
  private disposed = false;

  constructor(private readonly parts: LinkParts) {
    this.notice = new TransientNotice((notice) => parts.showNotice(notice), parts.timers);
    this.settingsChanged();
  }

  /** What a click on the notice, or Undo, takes back; undefined once the notice is gone. */
  get undo(): LinkUndo | undefined {
    return this.undoable;
  }

  /** Undo is under way: the notice goes, and a second click finds nothing to undo. */
  takeUndo(): LinkUndo | undefined {
    const undo = this.undoable;
    this.undoable = undefined;
    this.notice.clear();
    return undo;
  }

  /** Links are on and there is at least one: the branches must be watched for them. */
  watching(): boolean {
    return this.parts.settings().links.enabled && this.parsed.links.length > 0;
  }

  /** Reads the links again after a settings change; each refused entry is logged and said once. */
  settingsChanged(): void {
    const settings = this.parts.settings();
    if (settings.ticketPattern !== this.ticketsKey) {
      this.ticketsKey = settings.ticketPattern;
      this.tickets = ticketMatcher(settings.ticketPattern);
      // Said to the user by Copy Summary (branchTime.ts); here the log tells why a `{ticket}` link used the default.
      if (this.tickets.problem !== undefined) this.parts.log.warn(`Links use the default ticket pattern: ${this.tickets.problem}`);
    }
    const key = JSON.stringify(settings.links.sources);
    if (key === this.parsedKey) return;
    this.parsedKey = key;
    const parsed = settings.links.sources.map(({ scope, value }) => parseLinks(value, scope === 'workspace' ? vscode.l10n.t('timeTracker.links in the workspace settings') : undefined));
    this.byScope = settings.links.sources.map(({ scope }, index) => ({ scope, links: parsed[index]?.links ?? [] }));
    this.parsed = { links: parsed.flatMap(({ links }) => links), problems: parsed.flatMap(({ problems }) => problems) };
    if (this.parsed.problems.length === 0) return;
    for (const problem of this.parsed.problems) this.parts.log.warn(problem);
    const more = this.parsed.problems.length - 1;
    const [first = ''] = this.parsed.problems;
    void this.parts.messages.advise({
      severity: 'warning',
      message: more === 0 ? first : vscode.l10n.t('{problem} ({count} more in the log.)', { problem: first, count: more }),
      action: 'openSettings',
    });
  }

  /** The link that decides `place`, if links are on; undefined otherwise. */
  decide(place: Place): LinkDecision | undefined {
    if (!this.parts.settings().links.enabled) return undefined;
    return decideLink(this.parsed.links, place, this.tickets);
  }

  /** A branch switch: whether a link decides it (then the link acts, and the switch is not reported). */
  readonly decides = (change: BranchChange): boolean => {
    const decision = this.decide({ folders: foldersOf(change.repository.root), branch: change.branch });
    if (decision === undefined) return false;
    void this.act(decision, 'switch');
    return true;
  };

  /** The window opened: a linked folder or branch starts its activity while nothing runs. */
  async windowOpened(): Promise<void> {
    if (!this.parts.settings().links.enabled || this.parsed.links.length === 0) return;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const decision = this.decide({ folders: [pathOf(folder.uri)], branch: await this.branchOf(folder.uri) });
      if (decision !== undefined) return this.act(decision, 'open');
    }
  }

  /** The folder this window works in: the active editor's, else the only one; several: the user picks (undefined: none, or left). */
  async folderHere(): Promise<vscode.WorkspaceFolder | undefined> {
    const file = vscode.window.activeTextEditor?.document.uri;
    const active = file === undefined ? undefined : vscode.workspace.getWorkspaceFolder(file);
    if (active !== undefined) return active;
    const folders = vscode.workspace.workspaceFolders ?? [];
    return folders.length <= 1 ? folders[0] : vscode.window.showWorkspaceFolderPick({ placeHolder: vscode.l10n.t('Which folder?') });
  }

  /** The link that decides where this window works (the Start picker lists its activity first). */
  async decisionHere(): Promise<LinkDecision | undefined> {
    const file = vscode.window.activeTextEditor?.document.uri;
    const folder = (file === undefined ? undefined : vscode.workspace.getWorkspaceFolder(file)) ?? vscode.workspace.workspaceFolders?.[0];
    if (folder === undefined) return undefined;
    return this.decide({ folders: [pathOf(folder.uri)], branch: await this.branchOf(folder.uri) });
  }

  /** Every link that matches `folder` on `branch`, with the settings file it is in (Unlink). */
  linksAt(folder: vscode.WorkspaceFolder, branch: string | undefined): { readonly decision: LinkDecision; readonly scope: LinkSource['scope'] }[] {
    const place = { folders: [pathOf(folder.uri)], branch };
    return matchingLinks(this.parsed.links, place, this.tickets).map((decision) => ({
      decision,
      scope: this.byScope.find(({ links }) => links.includes(decision.link as CompiledLink))?.scope ?? 'user',
    }));
  }

  /** The branch the repository of `folder` is on, as its HEAD says now; undefined without git or on a detached HEAD. */
  async branchOf(folder: vscode.Uri): Promise<string | undefined> {
    const path = pathOf(folder);
    const watched = this.parts.branches.watched.find(({ repository }) => isInside(path, slashes(repository.root)) || isInside(slashes(repository.root), path));
    if (watched === undefined) return undefined;
    const { fileSystem, repository } = watched;
    const head = parseHead(await fileSystem.readText(fileSystem.path.join(repository.gitDir, 'HEAD')));
    return head.kind === 'branch' ? head.branch : undefined;
  }

  private async act(decision: LinkDecision, trigger: 'switch' | 'open'): Promise<void> {
    const turn = ++this.turn;
    const { session, log } = this.parts;
    const client = await session.ready();
    if (this.disposed) return;
    if (turn !== this.turn) return this.acted.fire({ kind: 'overtaken', activity: decision.activity });
    const known = knownActivityFor(decision, this.parts.recent.list());
    const step = linkStep(decision, { state: session.state, connected: client !== undefined, nowMs: Date.now(), trigger, known });
    if (step.kind === 'leave') {
      // Said in the log only: the user chose what runs, and a link never takes it over at opening.
      const running = session.state.kind === 'tracking' ? session.state.activity.activityName : 'another activity';
      log.info(`Link ${decision.link.position} names ${decision.activity}; the window opened while ${running} runs, which is left running.`);
      return;
    }
    if (step.kind === 'hold' || client === undefined) {
      const hold = step.kind === 'hold' ? step.hold : 'offline';
      log.info(`Link ${decision.link.position} names ${decision.activity}; not started (${hold}), and not queued.`);
      this.show((isPrivate) => heldNotice(decision, hold, isPrivate));
      return this.acted.fire({ kind: 'held', activity: decision.activity, hold });
    }
    if (step.kind === 'alreadyRunning') {
      log.debug(`Link ${decision.link.position} names ${decision.activity}, which runs already.`);
      return this.acted.fire({ kind: 'alreadyRunning', activity: decision.activity });
    }
    const { request, previous: running } = step;
    try {
      const result = await client.startActivity(request);
      const name = result.activityName ?? known?.activityName ?? decision.activity;
      log.info(`Started ${name}: link ${decision.link.position} of timeTracker.links names it for this ${decision.by}.`);
      this.undoable = { previous: running, started: name };
      this.show((isPrivate) => startedNotice(decision, name, running?.activityName, isPrivate), () => (this.undoable = undefined));
      this.acted.fire({ kind: 'started', activity: name, previous: running?.activityName });
    } catch (error) {
      const failure = classify(error);
      log.warn(`Link ${decision.link.position}: starting ${decision.activity} failed: ${errorMessage(error)}`);
      this.show((isPrivate) => failedNotice(decision, failure.message, isPrivate));
      this.acted.fire({ kind: 'failed', activity: decision.activity, message: failure.message });
    } finally {
      void session.refreshUnlessPaused();
    }
  }

  private show(notice: NoticeWords, onExpiry?: () => void): void {
    // A newer notice replaces the one Undo belonged to.
    if (onExpiry === undefined) this.undoable = undefined;
    this.notice.show(notice, onExpiry);
  }

  dispose(): void {
    this.disposed = true;
    this.notice.dispose();
    this.acted.dispose();
  }
}

/** The workspace folders a repository belongs to (either holds the other); its own root when none does. */
function foldersOf(root: string): string[] {
  const repository = slashes(root);
  const folders = (vscode.workspace.workspaceFolders ?? []).map((folder) => pathOf(folder.uri)).filter((folder) => isInside(folder, repository) || isInside(repository, folder));
  return folders.length === 0 ? [repository] : folders;
}

/** A folder's path as links match it: `/`-separated, for a remote folder its path there. */
export function pathOf(uri: vscode.Uri): string {
  return uri.scheme === 'file' ? slashes(uri.fsPath) : uri.path;
}

function slashes(path: string): string {
  return path.replace(/\\/g, '/');
}

function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith('/') ? root : `${root}/`);
}
