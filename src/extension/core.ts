/**
 * Composition root: builds the window's parts (the log, the session that owns the connection, the
 * queue, the branch reporter, links, time by branch, the app's own extension beside this one, the
 * status bar, onboarding and the command table), each handed only parts made before it, wires what
 * one does when another changes, and owns their disposables, which go in the reverse order of their
 * creation (the log last). The API it returns
 * is built in api.ts. This is dist/core.js, a bundle of its own: the activation bundle
 * (extension.ts) loads it once `activate` has returned, or sooner when a command or the API is
 * used first, so what VS Code runs before `activate` returns stays small.
 */
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { DisposalStack } from '../platform/disposalStack';
import { errorMessage } from '../platform/errors';
import { rememberedGroup } from '../tracker/pickers/activityPicks';
import { buildApi, type TimeTrackerApi } from './api';
import { BranchReporter, type HeadRead } from './branchReporter';
import { BranchTime } from './branchTime/branchTime';
import { BranchTimeView } from './branchTime/branchTimeView';
import { LinkController } from './links/linkController';
import { Coexistence } from './coexistence/coexistence';
import { commandTable, type CommandTable } from './commands';
import { Messages } from './messages';
import { OfflineQueue } from './offlineQueue';
import { OneLineLogChannel } from './oneLineLog';
import { startOnboarding } from './onboarding/onboardingController';
import { readSettings, SECTION, type Settings } from './settings';
import { hostDecider, logHostDecision, sayWhenRemoteHost } from './remoteHost';
import { Session } from './session';
import { StatusBarController } from './statusBar';
import { RecentActivities } from '../tracker/pickers/recentActivities';
import { STORAGE_KEYS } from '../tracker/ids';
import type { HostDecision } from '../tracker/model/remoteHost';
import type { PeriodKind } from '../tracker/branchTime/summary';
import type { TicketKeys } from '../tracker/branchTime/ticketKeys';
import { touchesRestricted } from '../tracker/settings/untrustedWorkspace';

/** What the activation bundle holds of the core once it is loaded. */
export interface Core {
  readonly api: TimeTrackerApi;
  /** Every command's handler, by id: the activation bundle registers the ids and calls these. */
  readonly commands: CommandTable['handlers'];
}

/** Times the activation bundle measured, for the API and the log. */
export interface ActivationTimes {
  /** How long `activate` itself took. */
  readonly activationMs: number;
  /** When the core began loading (performance.now()), to tell how long loading and building it took. */
  readonly loadStarted: number;
}

/** What several parts read and a change replaces: the settings as last read, and the branch watch under way. */
interface Live {
  settings: Settings;
  branchWatch: Promise<void>;
}

/** What every other part is built on. */
interface Connection {
  readonly log: OneLineLogChannel;
  readonly host: () => HostDecision;
  readonly session: Session;
  readonly messages: Messages;
  readonly queue: OfflineQueue;
  readonly recent: RecentActivities;
}

/** Every part of the window, each built whole, in an order where each is handed only parts made before it. */
interface Parts extends Connection {
  readonly branches: BranchReporter;
  readonly links: LinkController;
  readonly branchTime: BranchTime;
  readonly branchTimeView: BranchTimeView;
  readonly coexistence: Coexistence;
  readonly statusBar: StatusBarController;
  readonly onboarding: ReturnType<typeof startOnboarding>;
  readonly commands: CommandTable;
}

export function startCore(context: vscode.ExtensionContext, times: ActivationTimes): Core {
  // src/tracker translates with @vscode/l10n (it cannot import vscode): hand it the bundle VS Code
  // loaded for the display language (l10n/bundle.l10n.<language>.json; none for English). Log
  // lines stay English, for support; they quote what the user was shown as it was shown.
  l10n.config({ contents: vscode.l10n.bundle ?? {} });
  const stack = new DisposalStack();
  const live: Live = { settings: readSettings(), branchWatch: Promise.resolve() };
  const parts = buildParts(context, stack, live);
  wireParts(stack, parts);
  followSettings(stack, parts, live);
  // One entry: VS Code disposes context.subscriptions in order, the stack its parts in reverse.
  context.subscriptions.push(stack);
  startParts(context, parts, live);

  const coreMs = performance.now() - times.loadStarted;
  parts.log.debug(
    `Activation took ${times.activationMs.toFixed(1)} ms; loading and starting the rest, after it, ${coreMs.toFixed(1)} ms.`,
  );
  const api = buildApi({
    ...parts,
    logUri: context.logUri,
    activationMs: times.activationMs,
    coreMs,
    branchWatch: () => live.branchWatch,
  });
  return { api, commands: parts.commands.handlers };
}

/** The log, the session that owns the connection, the message sink, the queue, the recent list: what the rest read. */
function connect(context: vscode.ExtensionContext, stack: DisposalStack, live: Live): Connection {
  const settings = (): Settings => live.settings;
  const { globalState } = context;
  // Every part logs through it: each entry stays one line, whatever outside text it quotes.
  const log = stack.use(new OneLineLogChannel(vscode.window.createOutputChannel('Time Tracker', { log: true })));
  const host = hostDecider(context.extension, () => live.settings.allowWorkspaceHost);
  logHostDecision(log, host());
  const session = stack.use(new Session({ secrets: context.secrets, memento: globalState, log, settings, host }));
  const messages = stack.use(new Messages(log));
  stack.use(sayWhenRemoteHost(session, messages));
  // Started before the other parts, so that whoever asks `session.ready()` below waits for the first decision.
  void session.reconnect();
  const privateStatusBar = (): boolean => live.settings.privateStatusBar;
  const queue = stack.use(new OfflineQueue(context.globalStorageUri.fsPath, log, messages, privateStatusBar));
  // One owner of the recent list in this window: a stale read of globalState never hides its own latest use.
  const recent = new RecentActivities({
    get: () => globalState.get(STORAGE_KEYS.recentActivities),
    update: (value) => globalState.update(STORAGE_KEYS.recentActivities, value),
  });
  return { log, host, session, messages, queue, recent };
}

function buildParts(context: vscode.ExtensionContext, stack: DisposalStack, live: Live): Parts {
  const connection = connect(context, stack, live);
  const { log, session, messages, queue, recent } = connection;
  const settings = (): Settings => live.settings;
  const { globalState, workspaceState } = context;
  const storageFolder = context.globalStorageUri.fsPath;
  const branches = stack.use(new BranchReporter({ session, log, settings, messages }));
  const branchTime = stack.use(
    new BranchTime({ storageFolder, workspaceState, session, branches, log, messages, settings }),
  );
  const branchTimeView = stack.use(new BranchTimeView(branchTime, () => live.settings.privateStatusBar));
  const tickets = (): TicketKeys => branchTime.ticketKeys();
  const links = stack.use(
    new LinkController({ session, branches, log, messages, settings, tickets, recent, workspaceState, storageFolder }),
  );
  const extensions = { extensions: () => vscode.extensions.all, onDidChangeExtensions: vscode.extensions.onDidChange };
  const ownId = context.extension.id;
  const coexistence = stack.use(
    new Coexistence({ ownId, memento: globalState, log, settings, messages, ...extensions }),
  );
  const statusBar = stack.use(
    new StatusBarController({
      session,
      settings,
      queued: () => queue.waiting,
      log,
      messages,
      branchToday: () => branchTime.branchToday(),
      linkedStart: () => links.undo,
      notice: () => links.notice,
      linksWaiting: () => links.waiting,
      branchesReportedBy: () => coexistence.reportingPeer()?.id,
      groupOf: (activityID) => rememberedGroup(recent.list(), activityID),
    }),
  );
  const onboarding = stack.use(startOnboarding(context, { session, log, messages, settings }));
  const branchTimeSelection = (): PeriodKind | undefined => branchTimeView.selectedPeriod();
  const commands = commandTable({
    ...connection,
    statusBar,
    workspaceState,
    branchTime,
    branchTimeSelection,
    links,
    settings,
  });
  stack.use(commands.disposable);
  return { ...connection, branches, links, branchTime, branchTimeView, coexistence, statusBar, onboarding, commands };
}

/** What a part does when another changes: the status bar shows it, the queue sends when the app answers. */
function wireParts(stack: DisposalStack, parts: Parts): void {
  const { links, statusBar, branchTime, queue, session, branches, coexistence } = parts;
  const changes = [
    links.onDidChangeUndo,
    links.onDidChangeNotice,
    links.onDidChangeWaiting,
    branchTime.onDidChange,
    coexistence.onDidChange,
  ];
  for (const changed of [...changes, queue.onDidChangeCount]) stack.use(changed(() => statusBar.rerender()));
  // The app answers again (or still does): send what waits. A first release has no
  // POST /entries: what waits, waits for the app's update.
  stack.use(
    session.onDidChangeState((state) =>
      queue.stateChanged((state.kind === 'idle' || state.kind === 'tracking') && !session.firstRelease, session.client),
    ),
  );
  stack.use(branches.onDidReadHead((read) => headRead(parts, read)));
}

/**
 * Every read of a repository's HEAD, and what a branch switch does, in order: a link that names
 * the branch's activity acts on it (or asks first); the app hears of the switch unless a link
 * decided it or the app's own extension reports it; the ledger puts the time from now on on the
 * branch HEAD names (a read that is no switch, a detached HEAD or a rebase's, is the ledger's alone).
 */
function headRead({ links, branches, coexistence, branchTime }: Parts, read: HeadRead): void {
  const { switched } = read;
  if (switched !== undefined) {
    const linked = links.decides(switched);
    void branches.report(switched, read.fileSystem, { linked, appExtension: coexistence.reportingPeer() });
  }
  void branchTime.headRead(read);
}

/** Re-reads the settings on a change, and on trust granted: each part applies what concerns it. */
function followSettings(stack: DisposalStack, parts: Parts, live: Live): void {
  const { log, host, links, statusBar, session, branches, branchTime, branchTimeView } = parts;
  /** `affects(key)` says whether a setting (its name after `timeTracker.`) may have changed. */
  const settingsChanged = (affects: (key: string) => boolean): void => {
    live.settings = readSettings();
    if (affects('remote')) logHostDecision(log, host());
    links.settingsChanged();
    statusBar.rerender();
    void session.settingsChanged();
    if (['git', 'branchTime', 'links', 'linksEnabled'].some(affects))
      live.branchWatch = branches.apply(links.watching());
    if (affects('branchTime')) void branchTime.settingsChanged(live.branchWatch);
    if (affects('statusBar.private') || affects('branchTime')) branchTimeView.settingsChanged();
  };
  stack.use(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(SECTION))
        settingsChanged((key) => event.affectsConfiguration(`${SECTION}.${key}`));
    }),
  );
  // Trust lets the workspace's values of the restricted settings apply: as if each of them changed.
  stack.use(vscode.workspace.onDidGrantWorkspaceTrust(() => settingsChanged(touchesRestricted)));
}

/** What reads the disk or asks the app: started here, finished after activate has returned. */
function startParts(context: vscode.ExtensionContext, parts: Parts, live: Live): void {
  const { log, queue, statusBar, branches, branchTime, links, coexistence } = parts;
  const { version } = context.extension.packageJSON as { version?: string };
  log.info(
    `Time Tracker ${version ?? ''} activated; looking for the app's VS Code integration, ` +
      `else its HTTP API on 127.0.0.1:${live.settings.port}.`,
  );
  void queue.start().then(() => statusBar.rerender());
  // The app's own extension beside this one: what its being here changes is said once.
  void coexistence.check();
  // Finding repositories reads the disk: started here, finished after activate has returned.
  live.branchWatch = branches.apply(links.watching());
  void branchTime.start(live.branchWatch);
  // A window opening on a linked folder or branch while nothing runs: once the repositories are found.
  void live.branchWatch
    .then(() => links.windowOpened())
    .catch((error: unknown) => log.warn(`Following timeTracker.links at start failed: ${errorMessage(error)}`));
}
