/**
 * Composition root: builds the log, the session (the one owner of the connection), the status
 * bar, the offline queue, the branch reporter, onboarding and the command table, and owns their
 * disposables, which go in the reverse order of their creation (the log last). The API it returns
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
import type { BranchChange } from '../git/branchWatcher';
import { BranchReporter } from './branchReporter';
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

/** The log, the host's decision and the session: what every other part is built on. */
interface Connection {
  readonly log: OneLineLogChannel;
  readonly host: () => HostDecision;
  readonly session: Session;
  readonly messages: Messages;
}

/** Every part of the window, built whole: each was handed what it reads when it was made. */
interface Parts extends WindowParts {
  readonly onboarding: ReturnType<typeof startOnboarding>;
  readonly commands: CommandTable;
  readonly coexistence: Coexistence;
}

interface WindowParts extends Connection {
  readonly queue: OfflineQueue;
  readonly statusBar: StatusBarController;
  readonly branches: BranchReporter;
  readonly branchTime: BranchTime;
  readonly branchTimeView: BranchTimeView;
  readonly recent: RecentActivities;
  readonly links: LinkController;
}

export function startCore(context: vscode.ExtensionContext, times: ActivationTimes): Core {
  // src/tracker translates with @vscode/l10n (it cannot import vscode): hand it the bundle VS Code
  // loaded for the display language (l10n/bundle.l10n.<language>.json; none for English). Log
  // lines stay English, for support; they quote what the user was shown as it was shown.
  l10n.config({ contents: vscode.l10n.bundle ?? {} });
  const stack = new DisposalStack();
  const live: Live = { settings: readSettings(), branchWatch: Promise.resolve() };
  const parts = buildParts(context, stack, live);
  followSettings(stack, parts, live);
  // One entry: VS Code disposes context.subscriptions in order, the stack its parts in reverse.
  context.subscriptions.push(stack);
  startParts(context, parts, live);

  const coreMs = performance.now() - times.loadStarted;
  parts.log.debug(
    `Activation took ${times.activationMs.toFixed(1)} ms; loading and starting the rest, after it, ${coreMs.toFixed(1)} ms.`,
  );
  const { session, statusBar, queue, branches, branchTime, branchTimeView, links, onboarding } = parts;
  const api = buildApi({
    session,
    statusBar,
    queue,
    branches,
    branchTime,
    branchTimeView,
    links,
    onboarding,
    logUri: context.logUri,
    activationMs: times.activationMs,
    coreMs,
    branchWatch: () => live.branchWatch,
  });
  return { api, commands: parts.commands.handlers };
}

function connect(context: vscode.ExtensionContext, stack: DisposalStack, live: Live): Connection {
  // Every part logs through it: each entry stays one line, whatever outside text it quotes.
  const log = stack.use(new OneLineLogChannel(vscode.window.createOutputChannel('Time Tracker', { log: true })));
  const settings = (): Settings => live.settings;
  const host = hostDecider(context.extension, () => live.settings.allowWorkspaceHost);
  logHostDecision(log, host());
  const session = stack.use(
    new Session({ secrets: context.secrets, memento: context.globalState, log, settings, host }),
  );
  const messages = stack.use(new Messages(log));
  stack.use(sayWhenRemoteHost(session, messages));
  // Started before the other parts, so that whoever asks `session.ready()` below waits for the first decision.
  void session.start();
  return { log, host, session, messages };
}

function buildParts(context: vscode.ExtensionContext, stack: DisposalStack, live: Live): Parts {
  const built = buildWindowParts(context, stack, live);
  wireParts(stack, built);
  const { session, log, messages, statusBar, recent, queue, branchTime, branchTimeView, links } = built;
  const settings = (): Settings => live.settings;
  const onboarding = stack.use(startOnboarding(context, { session, log, messages, settings }));
  const coexistence = stack.use(
    new Coexistence({
      ownId: context.extension.id,
      memento: context.globalState,
      log,
      settings,
      ask: (message, ...labels) => messages.choose(message, ...labels),
      extensions: () => vscode.extensions.all,
      onDidChangeExtensions: vscode.extensions.onDidChange,
      tell: { info: (message) => messages.info(message), error: (message) => messages.error(message) },
    }),
  );
  const commands = commandTable({
    session,
    statusBar,
    log,
    recent,
    workspaceState: context.workspaceState,
    queue,
    messages,
    branchTime,
    branchTimeSelection: () => branchTimeView.selectedPeriod(),
    links,
    settings,
    coexistence,
  });
  stack.use(commands.disposable);
  return { ...built, onboarding, commands, coexistence };
}

/** The parts up to the links, in the order of their creation (the stack disposes them in reverse). */
function buildWindowParts(context: vscode.ExtensionContext, stack: DisposalStack, live: Live): WindowParts {
  const connection = connect(context, stack, live);
  const { log, session, messages } = connection;
  const settings = (): Settings => live.settings;
  const storageFolder = context.globalStorageUri.fsPath;
  const queue = stack.use(new OfflineQueue(storageFolder, log, messages, () => live.settings.privateStatusBar));
  // One owner of the recent list in this window: a stale read of globalState never hides its own latest use.
  const recent = new RecentActivities({
    get: () => context.globalState.get(STORAGE_KEYS.recentActivities),
    update: (value) => context.globalState.update(STORAGE_KEYS.recentActivities, value),
  });
  // The links read the branch reporter's repositories and show in the status bar, and the ledger
  // follows the branch reporter: both are made after the parts that read them, which until then
  // hear nothing of either (no link decides, no time on the branch, no Undo).
  const later: { links?: LinkController; branchTime?: BranchTime } = {};
  const statusBar = stack.use(
    new StatusBarController({
      session,
      settings,
      queued: () => queue.waiting,
      log,
      messages,
      branchToday: () => later.branchTime?.branchToday(),
      linkedStart: () => later.links?.undo,
      groupOf: (activityID) => rememberedGroup(recent.list(), activityID),
    }),
  );
  const links = {
    decides: (change: BranchChange) => later.links?.decides(change) ?? false,
    watching: () => later.links?.watching() ?? false,
  };
  const branches = stack.use(new BranchReporter({ session, log, settings, messages, links }));
  const { workspaceState } = context;
  const branchTime = stack.use(
    new BranchTime({ storageFolder, workspaceState, session, branches, log, messages, settings }),
  );
  later.branchTime = branchTime;
  const branchTimeView = stack.use(new BranchTimeView(branchTime, () => live.settings.privateStatusBar));
  later.links = stack.use(
    new LinkController({
      session,
      branches,
      log,
      messages,
      showNotice: (notice) => statusBar.showNotice(notice),
      settings,
      tickets: () => branchTime.ticketKeys(),
      recent,
      workspaceState,
      storageFolder,
    }),
  );
  return { ...connection, queue, statusBar, branches, branchTime, branchTimeView, recent, links: later.links };
}

/** What a part does when another changes: the status bar shows it, the queue sends when the app answers. */
function wireParts(stack: DisposalStack, parts: WindowParts): void {
  const { links, statusBar, branchTime, queue, session } = parts;
  stack.use(links.onDidChangeUndo(() => statusBar.rerender()));
  stack.use(branchTime.onDidChange(() => statusBar.rerender()));
  stack.use(queue.onDidChangeCount(() => statusBar.rerender()));
  // The app answers again (or still does): send what waits. A first release has no
  // POST /entries: what waits, waits for the app's update.
  stack.use(
    session.onDidChangeState((state) =>
      queue.stateChanged((state.kind === 'idle' || state.kind === 'tracking') && !session.firstRelease, session.client),
    ),
  );
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
    if (['git', 'branchTime', 'links', 'linksEnabled'].some(affects)) live.branchWatch = branches.apply();
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
    `Time Tracker ${version ?? ''} activated; looking for the app's VS Code integration, else its HTTP API on 127.0.0.1:${live.settings.port}.`,
  );
  void queue.start().then(() => statusBar.rerender());
  // The app's own extension beside this one: asked once what each should do, not at every start.
  void coexistence.check();
  // Finding repositories reads the disk: started here, finished after activate has returned.
  live.branchWatch = branches.apply();
  void branchTime.start(live.branchWatch);
  // A window opening on a linked folder or branch while nothing runs: once the repositories are found.
  void live.branchWatch
    .then(() => links.windowOpened())
    .catch((error: unknown) => log.warn(`Following timeTracker.links at start failed: ${errorMessage(error)}`));
}
