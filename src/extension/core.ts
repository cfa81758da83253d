/**
 * Composition root: builds the log, the session (the one owner of the connection), the status
 * bar, the offline queue, the branch reporter, onboarding and the command table, and owns their
 * disposables, which go in the reverse order of their creation (the log last). The API it returns
 * is built in api.ts. This is dist/core.js, a bundle of its own: the activation bundle
 * (extension.ts) loads it once `activate` has returned, or sooner when a command or the API is
 * used first, so what VS Code runs before `activate` returns stays small (issue 25).
 */
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { DisposalStack } from '../platform/disposalStack';
import { errorMessage } from '../platform/errors';
import { rememberedGroup } from '../tracker/pickers/activityPicks';
import { buildApi, type TimeTrackerApi } from './api';
import { BranchReporter } from './branchReporter';
import { BranchTime } from './branchTime/branchTime';
import { BranchTimeView } from './branchTime/branchTimeView';
import { LinkController } from './links/linkController';
import { commandTable, type CommandTable } from './commands';
import { Messages } from './messages';
import { OfflineQueue } from './offlineQueue';
import { OneLineLogChannel } from './oneLineLog';
import { startOnboarding } from './onboardingController';
import { readSettings, SECTION, type Settings } from './settings';
import { hostDecider, logHostDecision, sayWhenRemoteHost } from './remoteHost';
import { Session } from './session';
import { StatusBarController } from './statusBar';
import { RecentActivities } from '../tracker/pickers/recentActivities';
import { STORAGE_KEYS } from '../tracker/ids';
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

// eslint-disable-next-line max-lines-per-function -- TEMPORARY: over 60 lines since the Prettier reformat; split in the house-3 work
export function startCore(context: vscode.ExtensionContext, times: ActivationTimes): Core {
  // src/tracker translates with @vscode/l10n (it cannot import vscode): hand it the bundle VS Code
  // loaded for the display language (l10n/bundle.l10n.<language>.json; none for English). Log
  // lines stay English, for support; they quote what the user was shown as it was shown.
  l10n.config({ contents: vscode.l10n.bundle ?? {} });
  const parts = new DisposalStack();
  // Every part logs through it: each entry stays one line, whatever outside text it quotes.
  const log = parts.use(new OneLineLogChannel(vscode.window.createOutputChannel('Time Tracker', { log: true })));
  let settings: Settings = readSettings();
  const host = hostDecider(context.extension, () => settings.allowWorkspaceHost);
  logHostDecision(log, host());
  const session = parts.use(
    new Session({ secrets: context.secrets, memento: context.globalState, log, settings: () => settings, host }),
  );
  const messages = parts.use(new Messages(log));
  parts.use(sayWhenRemoteHost(session, messages));
  // Started before the other parts, so that whoever asks `session.ready()` below waits for the first decision.
  void session.start();
  const queue = parts.use(
    new OfflineQueue(context.globalStorageUri.fsPath, log, messages, () => settings.privateStatusBar),
  );
  const statusBar = parts.use(
    new StatusBarController(
      session,
      () => settings,
      () => queue.waiting,
      log,
      messages,
    ),
  );
  const branches = parts.use(new BranchReporter(session, log, () => settings, messages));
  const branchTime = parts.use(
    new BranchTime({
      storageFolder: context.globalStorageUri.fsPath,
      workspaceState: context.workspaceState,
      session,
      branches,
      log,
      messages,
      settings: () => settings,
    }),
  );
  const branchTimeView = parts.use(new BranchTimeView(branchTime, () => settings.privateStatusBar));
  // One owner of the recent list in this window: a stale read of globalState never hides its own latest use.
  const recent = new RecentActivities({
    get: () => context.globalState.get(STORAGE_KEYS.recentActivities),
    update: (value) => context.globalState.update(STORAGE_KEYS.recentActivities, value),
  });
  statusBar.groupOf = (activityID) => rememberedGroup(recent.list(), activityID);
  const storage = { workspaceState: context.workspaceState, storageFolder: context.globalStorageUri.fsPath };
  const links = parts.use(
    new LinkController({
      session,
      branches,
      log,
      messages,
      showNotice: (notice) => statusBar.showNotice(notice),
      settings: () => settings,
      recent,
      ...storage,
    }),
  );
  branches.links = { decides: links.decides, watching: () => links.watching() };
  statusBar.linkedStart = () => links.undo;
  parts.use(links.onDidChangeUndo(() => statusBar.rerender()));
  statusBar.branchToday = () => branchTime.branchToday();
  parts.use(branchTime.onDidChange(() => statusBar.rerender()));
  parts.use(queue.onDidChangeCount(() => statusBar.rerender()));
  // The app answers again (or still does): send what waits. A first release has no
  // POST /entries: what waits, waits for the app's update.
  parts.use(
    session.onDidChangeState((state) =>
      queue.stateChanged((state.kind === 'idle' || state.kind === 'tracking') && !session.firstRelease, session.client),
    ),
  );
  const onboarding = parts.use(startOnboarding(context, { session, log, messages, settings: () => settings }));

  let branchWatch: Promise<void> = Promise.resolve();
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
    settings: () => settings,
  });
  parts.use(commands.disposable);
  /** Re-reads the settings; `affects(key)` says whether a setting (its name after `timeTracker.`) may have changed. */
  const settingsChanged = (affects: (key: string) => boolean): void => {
    settings = readSettings();
    if (affects('remote')) logHostDecision(log, host());
    links.settingsChanged();
    statusBar.rerender();
    void session.settingsChanged();
    if (['git', 'branchTime', 'links', 'linksEnabled'].some(affects)) branchWatch = branches.apply();
    if (affects('branchTime')) void branchTime.settingsChanged(branchWatch);
    if (affects('statusBar.private') || affects('branchTime')) branchTimeView.settingsChanged();
  };
  parts.use(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(SECTION))
        settingsChanged((key) => event.affectsConfiguration(`${SECTION}.${key}`));
    }),
  );
  // Trust lets the workspace's values of the restricted settings apply: as if each of them changed.
  parts.use(vscode.workspace.onDidGrantWorkspaceTrust(() => settingsChanged(touchesRestricted)));
  // One entry: VS Code disposes context.subscriptions in order, the stack its parts in reverse.
  context.subscriptions.push(parts);

  const { version } = context.extension.packageJSON as { version?: string };
  log.info(
    `Time Tracker ${version ?? ''} activated; looking for the app's VS Code integration, else its HTTP API on 127.0.0.1:${settings.port}.`,
  );
  void queue.start().then(() => statusBar.rerender());
  // Finding repositories reads the disk: started here, finished after activate has returned.
  branchWatch = branches.apply();
  void branchTime.start(branchWatch);
  // A window opening on a linked folder or branch while nothing runs: once the repositories are found.
  void branchWatch
    .then(() => links.windowOpened())
    .catch((error: unknown) => log.warn(`Following timeTracker.links at start failed: ${errorMessage(error)}`));

  const coreMs = performance.now() - times.loadStarted;
  log.debug(
    `Activation took ${times.activationMs.toFixed(1)} ms; loading and starting the rest, after it, ${coreMs.toFixed(1)} ms.`,
  );
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
    branchWatch: () => branchWatch,
  });
  return { api, commands: commands.handlers };
}
