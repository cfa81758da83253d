/**
 * Links in the editor: on a branch switch the branch reporter asks `decides`, and a window opening
 * on a linked folder or branch while nothing runs asks `windowOpened`; when a link names an
 * activity other than the one running, it is started once (POST /activities/start, by the id this
 * window knows or by name with the link's createIfMissing; ./linkStart.ts), never queued, never retried. Only on
 * what the app said just now: while it may not be asked, has not answered afresh, or the user is on
 * a break, nothing starts, and the status bar says once why. A repository's links act only in a
 * trusted workspace and once the user said so (./linkConsentPrompt.ts); an opening starts nothing
 * after the user stopped on purpose, and only one window acts on windows opening together
 * (./openingGuard.ts). The status bar shows what happened for a few seconds
 * (src/tracker/links/linkNotice.ts); a click, or Undo in its tooltip, restarts what ran before.
 * Undo stays until what runs changes (./undoKeeper.ts): in the palette, the menu and the tooltip.
 * What the links are and which one matches is src/tracker/links/links.ts.
 */
import * as vscode from 'vscode';
import type { BranchChange } from '../../git/branchWatcher';
import { asSeen, parseHead } from '../../git/headState';
import { isInside } from '../../platform/pathKey';
import type { TicketKeys } from '../../tracker/branchTime/ticketKeys';
import {
  gateAt,
  linkStanding,
  withOwnLink,
  type LinkGate,
  type LinkScope,
  type LinkStanding,
  type LinkText,
  type ScopedLinks,
} from '../../tracker/links/linkConsent';
import { TransientNotice, type NoticeWords } from '../../tracker/links/linkNotice';
import { usedHereSentence, type LinksWaiting, type UsedHere } from '../../tracker/links/linksWaiting';
import type { Timers } from '../../platform/timers';
import {
  decideLink,
  matchingLinks,
  parseLinks,
  type CompiledLink,
  type LinkDecision,
  type ParsedLinks,
  type Place,
} from '../../tracker/links/links';
import type { LinkUndo } from '../../tracker/links/linkUndo';
import type { RecentActivities } from '../../tracker/pickers/recentActivities';
import type { BranchReporter, WatchedRepository } from '../branchReporter';
import type { Messages } from '../messages';
import type { Session } from '../session';
import type { Settings } from '../settings';
import { LinkConsentPrompt, type ConsentAnswer } from './linkConsentPrompt';
import { foldersOf, pathOf, slashes } from './linkPlaces';
import { LinkStarter, type LinkOutcome, type Trigger } from './linkStart';
import { OpeningGuard } from './openingGuard';
import { restrictedLinkCount } from './restrictedLinks';
import { UndoKeeper } from './undoKeeper';
import type { Log } from '../oneLineLog';

export interface LinkParts {
  readonly session: Session;
  /** The repositories the branch reporter watches: where a folder's branch is read. */
  readonly branches: Pick<BranchReporter, 'watched'>;
  readonly log: Log;
  readonly messages: Messages;
  readonly settings: () => Settings;
  /** The ticket keys that count, for `{ticket}` (the branch-time part's, src/extension/branchTime/branchTime.ts). */
  readonly tickets: () => TicketKeys;
  /** The recent activities (globalState): where a link's activity may be known by id. */
  readonly recent: RecentActivities;
  /** This workspace's state: the answer about its links. */
  readonly workspaceState: vscode.Memento;
  /**
   * The extension's global storage folder: what every window shares, that the user stopped on purpose and the openings'
   * claims.
   */
  readonly storageFolder: string;
  /** Workspace Trust; VS Code's unless a test says otherwise. */
  readonly trusted?: () => boolean;
  /** The time for freshness and the stop; Date.now unless a test moves it. */
  readonly clock?: () => number;
  /** How the notice is timed; real timers unless a test moves the clock. */
  readonly timers?: Timers;
}

export class LinkController implements vscode.Disposable {
  private readonly acted = new vscode.EventEmitter<LinkOutcome>();
  /** Fires once per link that matched a switch or the window's opening, with what it did. */
  readonly onDidAct = this.acted.event;
  private readonly notices: TransientNotice<NoticeWords>;
  private readonly noticeChanged = new vscode.EventEmitter<boolean>();
  /** Fires when the status bar's notice (`notice`) shows (true) or goes (false). */
  readonly onDidChangeNotice = this.noticeChanged.event;
  private readonly waitingChanged = new vscode.EventEmitter<void>();
  /** Fires when what waits on the user (`waiting`) may have changed. */
  readonly onDidChangeWaiting = this.waitingChanged.event;
  /** The links an untrusted workspace's settings hold, counted (restrictedLinks.ts); 0 when trusted. */
  private withheld = 0;
  /** The question about the repository's links is open as a notification, asked for this activity. */
  private question: { readonly activity: string; switched: boolean } | undefined;
  private readonly undos: UndoKeeper;
  /** Fires when Undo of a linked start becomes possible or ends. */
  readonly onDidChangeUndo: vscode.Event<LinkUndo | undefined>;
  private readonly consent: LinkConsentPrompt;
  private readonly openings: OpeningGuard;
  private readonly clock: () => number;
  private parsed: ParsedLinks = { links: [], problems: [] };
  /** Each settings file's links, as parsed: which need the user's word, and where Unlink removes one from. */
  private byScope: readonly ScopedLinks[] = [];
  private parsedKey: string | undefined;
  private readonly starter: LinkStarter;
  private disposed = false;

  constructor(private readonly parts: LinkParts) {
    this.notices = new TransientNotice((notice) => this.noticeChanged.fire(notice !== undefined), parts.timers);
    this.undos = new UndoKeeper(parts.session);
    this.onDidChangeUndo = this.undos.onDidChange;
    // What runs changed: a notice still saying the link started it, with Undo, would be wrong now.
    this.undos.onDidChange((undo) => undo === undefined && this.notices.clear());
    this.clock = parts.clock ?? Date.now;
    this.consent = new LinkConsentPrompt(parts.workspaceState, parts.log);
    this.openings = new OpeningGuard({
      storageFolder: parts.storageFolder,
      onDidChangeState: parts.session.onDidChangeState,
      log: parts.log,
      clock: this.clock,
    });
    this.starter = new LinkStarter({
      session: parts.session,
      log: parts.log,
      settings: parts.settings,
      recent: parts.recent,
      openings: this.openings,
      clock: this.clock,
      acted: (outcome) => this.acted.fire(outcome),
      show: (notice) => this.show(notice),
      started: (undo) => this.undos.set(undo),
      scopeOf: (decision) => this.scopeOf(decision),
      disposed: () => this.disposed,
    });
    this.settingsChanged();
  }

  /** What the status bar says for a few seconds after a link acted, in its private form or not; undefined: nothing. */
  get notice(): NoticeWords | undefined {
    return this.notices.current;
  }

  /** Links that wait on the user: Restricted Mode keeps the workspace's unread, or their question is unanswered. */
  get waiting(): LinksWaiting | undefined {
    if (!this.parts.settings().links.enabled) return undefined;
    if (!this.trusted()) return this.withheld > 0 ? { kind: 'restricted', count: this.withheld } : undefined;
    const { question } = this;
    return question !== undefined && this.standing().unanswered.length > 0
      ? { kind: 'question', activity: question.activity }
      : undefined;
  }

  /** Counts the untrusted workspace's links again (its settings file may have changed): what `waiting` says. */
  async countWithheld(): Promise<number> {
    const count = this.trusted() ? 0 : await restrictedLinkCount();
    if (count !== this.withheld && !this.disposed) {
      this.withheld = count;
      this.waitingChanged.fire();
    }
    return count;
  }

  /** What Undo takes back; undefined once what runs changed (or another link acted). */
  get undo(): LinkUndo | undefined {
    return this.undos.current;
  }

  /** Undo is under way: the notice goes, and a second click finds nothing to undo. */
  takeUndo(): LinkUndo | undefined {
    const undo = this.undos.take();
    this.notices.clear();
    return undo;
  }

  /**
   * The user stopped tracking on purpose (Stop, or Undo back to nothing): no window's opening starts it again today.
   */
  userStopped(): Promise<void> {
    return this.openings.userStopped();
  }

  /** Links are on and one may act (or ask): the branches must be watched for them. */
  watching(): boolean {
    if (!this.parts.settings().links.enabled) return false;
    const { usable, unanswered } = this.standing();
    return usable.length + unanswered.length > 0;
  }

  /** Reads the links again after a settings change; each refused entry is logged and said once. */
  settingsChanged(): void {
    void this.countWithheld();
    const settings = this.parts.settings();
    const key = JSON.stringify(settings.links.sources);
    if (key === this.parsedKey) return;
    this.parsedKey = key;
    const parsed = settings.links.sources.map(({ scope, value }) =>
      parseLinks(value, scope === 'workspace' ? vscode.l10n.t('the workspace settings') : undefined),
    );
    this.byScope = settings.links.sources.map(({ scope }, index) => ({ scope, links: parsed[index]?.links ?? [] }));
    this.parsed = { links: parsed.flatMap(({ links }) => links), problems: parsed.flatMap(({ problems }) => problems) };
    this.parts.messages.problems(this.parsed.problems);
  }

  /**
   * A branch switch: whether a branch link decides it (then the link acts, or asks first, and the
   * switch is not reported). A folder link never does: it acts only when a window opens.
   */
  readonly decides = (change: BranchChange): boolean => {
    const { root, ignoresCase } = change.repository;
    const gate = this.gate({ folders: foldersOf(root), branch: change.branch, ignoresCase }, 'switch');
    if (gate.kind === 'none') return false;
    this.follow(gate, 'switch');
    return true;
  };

  /** The window opened: a linked folder or branch starts its activity while nothing runs. */
  async windowOpened(): Promise<void> {
    if (!this.parts.settings().links.enabled || this.parsed.links.length === 0) return;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const gate = this.gate(await this.placeOf(folder.uri), 'open');
      if (gate.kind !== 'none') return this.follow(gate, 'open');
    }
  }

  /**
   * "Use This Repository's Links…": the question again, about every link of the workspace's settings; after Use, they
   * act as on opening.
   */
  async reviewRepositoryLinks(): Promise<ConsentAnswer | 'none' | { readonly untrusted: number }> {
    if (!this.trusted()) {
      const untrusted = await this.countWithheld();
      return untrusted > 0 ? { untrusted } : 'none';
    }
    const links = this.byScope.filter(({ scope }) => scope === 'workspace').flatMap(({ links }) => links);
    if (links.length === 0) return 'none';
    const answer = await this.consent.review(links);
    this.question = undefined;
    this.acted.fire({ kind: 'answered', answer });
    this.waitingChanged.fire();
    if (answer === 'use') await this.useHere('open');
    return answer;
  }

  /**
   * The user is writing `link` into the workspace's settings, `before` becoming `after`: theirs, so it acts without a
   * question, and the links it moves keep their answers.
   */
  ownWorkspaceLink(before: unknown, after: unknown, link: LinkText): Promise<void> {
    return this.consent.store(withOwnLink(this.consent.consent, before, after, link));
  }

  /**
   * The link that decides where this window works (the Start picker lists its activity first): the
   * user's, or a repository's the user said to use, if links are on.
   */
  async decisionHere(): Promise<LinkDecision | undefined> {
    const file = vscode.window.activeTextEditor?.document.uri;
    const folder =
      (file === undefined ? undefined : vscode.workspace.getWorkspaceFolder(file)) ??
      vscode.workspace.workspaceFolders?.[0];
    if (folder === undefined || !this.parts.settings().links.enabled) return undefined;
    return decideLink(this.standing().usable, await this.placeOf(folder.uri), this.parts.tickets());
  }

  /** Every link that matches `folder` on `branch`, with the settings file it is in (Unlink). */
  linksAt(
    folder: vscode.WorkspaceFolder,
    branch: string | undefined,
  ): { readonly decision: LinkDecision; readonly scope: LinkScope }[] {
    const ignoresCase = this.repositoryOf(folder.uri)?.repository.ignoresCase;
    const place = { folders: [pathOf(folder.uri)], branch, ignoresCase };
    return matchingLinks(this.parsed.links, place, this.parts.tickets()).map((decision) => ({
      decision,
      scope: this.scopeOf(decision),
    }));
  }

  /** The settings file the link that decided is in. */
  private scopeOf(decision: LinkDecision): LinkScope {
    return this.byScope.find(({ links }) => links.includes(decision.link as CompiledLink))?.scope ?? 'user';
  }

  /**
   * The branch the repository of `folder` is on, as its HEAD says now (by the name the watcher first
   * saw it by, where the repository ignores case); undefined without git or on a detached HEAD.
   */
  async branchOf(folder: vscode.Uri): Promise<string | undefined> {
    const watched = this.repositoryOf(folder);
    if (watched === undefined) return undefined;
    const { fileSystem, repository, lastBranch } = watched;
    const head = parseHead(await fileSystem.readText(fileSystem.path.join(repository.gitDir, 'HEAD')));
    return head.kind === 'branch' ? asSeen(head.branch, lastBranch, repository.ignoresCase) : undefined;
  }

  /** Where `folder` works, as links match it. */
  async placeOf(folder: vscode.Uri): Promise<Place> {
    const branch = await this.branchOf(folder);
    return { folders: [pathOf(folder)], branch, ignoresCase: this.repositoryOf(folder)?.repository.ignoresCase };
  }

  /** The watched repository `folder` is in, or that is inside it. */
  private repositoryOf(folder: vscode.Uri): WatchedRepository | undefined {
    const path = pathOf(folder);
    return this.parts.branches.watched.find(
      ({ repository }) => isInside(path, slashes(repository.root)) || isInside(slashes(repository.root), path),
    );
  }

  private trusted(): boolean {
    return (this.parts.trusted ?? (() => vscode.workspace.isTrusted))();
  }

  private standing(): LinkStanding {
    return linkStanding(this.byScope, {
      trusted: this.trusted(),
      consent: this.consent.consent,
      putOff: this.consent.putOff,
    });
  }

  private gate(place: Place, on: Trigger): LinkGate {
    if (!this.parts.settings().links.enabled) return { kind: 'none' };
    return gateAt(this.byScope, this.standing(), place, this.parts.tickets(), on);
  }

  /**
   * Acts on what the links say here, or asks first; a repository's link not answered about waits
   * while the question is open (a notification may stay unanswered in the notification center, so
   * the user's own links, and those the user said to use, still act meanwhile).
   */
  private follow(gate: Exclude<LinkGate, { kind: 'none' }>, trigger: Trigger): void {
    const { decision } = gate;
    if (gate.kind === 'act') return void this.starter.act(decision, trigger);
    if (!this.consent.asking) return void this.askFirst(decision, trigger);
    if (this.question !== undefined && trigger === 'switch') this.question.switched = true;
    this.parts.log.info(
      `Link ${decision.link.position} names ${decision.activity}; not started while the question about this repository's links is open.`,
    );
    this.acted.fire({ kind: 'unanswered', activity: decision.activity });
  }

  /**
   * Asks about the repository's links not answered yet, saying in the status bar that the question waits; after Use,
   * the answer applies where the user is now (a switch while it was open makes it a switch's).
   */
  private async askFirst(asked: LinkDecision, trigger: Trigger): Promise<void> {
    this.parts.log.info(
      `Link ${asked.link.position} of this repository's timeTracker.links names ${asked.activity}; ` +
        "asking whether to use the repository's links before anything starts.",
    );
    this.acted.fire({ kind: 'asked', activity: asked.activity });
    const question = { activity: asked.activity, switched: false };
    this.question = question;
    this.waitingChanged.fire();
    const answer = await this.consent.ask(this.standing().unanswered);
    if (this.question === question) this.question = undefined;
    if (this.disposed || answer === 'stale') return;
    this.waitingChanged.fire();
    this.acted.fire({ kind: 'answered', answer });
    if (answer === 'use') await this.useHere(question.switched ? 'switch' : trigger);
  }

  /** The links act where the user is now, as on `trigger`, and one line says what they did. */
  private async useHere(trigger: Trigger): Promise<void> {
    let used: UsedHere = { kind: 'none' };
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const place = await this.placeOf(folder.uri);
      // A switch decides by branch links only; a folder's link still applies where no branch link does.
      const gate = [this.gate(place, trigger), this.gate(place, 'open')].find(({ kind }) => kind === 'act');
      if (gate?.kind !== 'act') continue;
      used = await this.starter.actAndTell(gate.decision, trigger);
      break;
    }
    if (used.kind === 'none') this.parts.log.info("This repository's links are used; none applies here now.");
    void this.parts.messages.info(usedHereSentence(used, this.parts.settings().privateStatusBar));
  }

  private show(notice: NoticeWords): void {
    // Another link acted: the start Undo belonged to is no longer the latest.
    this.undos.set(undefined);
    this.notices.show(notice);
  }

  dispose(): void {
    this.disposed = true;
    this.openings.dispose();
    this.notices.dispose();
    this.undos.dispose();
    this.noticeChanged.dispose();
    this.waitingChanged.dispose();
    this.acted.dispose();
  }
}
