/**
 * Composition root: builds the log, the session (the one owner of the connection), the status
 * bar, the offline queue, the branch reporter, onboarding and the command table, and owns their
 * disposables, which go in the reverse order of their creation (the log last). The API it returns
 * is built in api.ts. Nothing slow runs before activate returns.
 */
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { DisposalStack } from '../platform/disposalStack';
import { STORAGE_KEYS } from '../tracker/ids';
import { readRecent, rememberedGroup } from '../tracker/view/activityPicks';
import { buildApi, type TimeTrackerApi } from './api';
import { BranchReporter } from './branchReporter';
import { BranchTime } from './branchTime/branchTime';
import { BranchTimeView } from './branchTime/branchTimeView';
import { registerCommands } from './commands';
import { Messages } from './messages';
import { OfflineQueue } from './offlineQueue';
import { OneLineLogChannel } from './oneLineLog';
import { startOnboarding } from './onboardingController';
import { readSettings, SECTION, type Settings } from './settings';
import { Session } from './session';
import { StatusBarController } from './statusBar';

export type { TimeTrackerApi } from './api';

export function activate(context: vscode.ExtensionContext): TimeTrackerApi {
  const activationStarted = performance.now();
  // src/tracker translates with @vscode/l10n (it cannot import vscode): hand it the bundle VS Code
  // loaded for the display language (l10n/bundle.l10n.<language>.json; none for English). Log
  // lines stay English, for support; they quote what the user was shown as it was shown.
  l10n.config({ contents: vscode.l10n.bundle ?? {} });
  const parts = new DisposalStack();
  // Every part logs through it: each entry stays one line, whatever outside text it quotes.
  const log = parts.use(new OneLineLogChannel(vscode.window.createOutputChannel('Time Tracker', { log: true })));
  let settings: Settings = readSettings();
  const session = parts.use(new Session({ secrets: context.secrets, memento: context.globalState, log, settings: () => settings }));
  // Started first, so that whoever asks `session.ready()` below waits for the first decision.
  void session.start();
  const messages = new Messages(log);
  const queue = parts.use(new OfflineQueue(context.globalStorageUri.fsPath, log, messages));
  const statusBar = parts.use(new StatusBarController(session, () => settings, () => queue.waiting, log));
  statusBar.groupOf = (activityID) => rememberedGroup(readRecent(context.globalState.get(STORAGE_KEYS.recentActivities)), activityID);
  const branches = parts.use(new BranchReporter(session, log, () => settings));
  const branchTime = parts.use(new BranchTime({ storageFolder: context.globalStorageUri.fsPath, session, branches, log, messages, settings: () => settings }));
  parts.use(new BranchTimeView(branchTime));
  statusBar.branchToday = () => branchTime.branchToday();
  parts.use(branchTime.onDidChange(() => statusBar.rerender()));
  parts.use(queue.onDidChangeCount(() => statusBar.rerender()));
  // The app answers again (or still does): send what waits. A first release has no
  // POST /entries: what waits, waits for the app's update.
  parts.use(session.onDidChangeState((state) => queue.stateChanged((state.kind === 'idle' || state.kind === 'tracking') && !session.firstRelease, session.client)));
  const onboarding = parts.use(startOnboarding(context, { session, log, messages, settings: () => settings }));

  let branchWatch: Promise<void> = Promise.resolve();
  parts.use(vscode.Disposable.from(...registerCommands({ session, statusBar, log, memento: context.globalState, workspaceState: context.workspaceState, queue, messages, branchTime })));
  parts.use(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(SECTION)) return;
      settings = readSettings();
      statusBar.rerender();
      void session.settingsChanged();
      if (event.affectsConfiguration(`${SECTION}.git`) || event.affectsConfiguration(`${SECTION}.branchTime`)) branchWatch = branches.apply();
      if (event.affectsConfiguration(`${SECTION}.branchTime`)) void branchTime.settingsChanged(branchWatch);
    }),
  );
  // One entry: VS Code disposes context.subscriptions in order, the stack its parts in reverse.
  context.subscriptions.push(parts);

  const { version } = context.extension.packageJSON as { version?: string };
  log.info(`Time Tracker ${version ?? ''} activated; looking for the app's VS Code integration, else its HTTP API on 127.0.0.1:${settings.port}.`);
  void queue.start().then(() => statusBar.rerender());
  // Finding repositories reads the disk: started here, finished after activate has returned.
  branchWatch = branches.apply();
  void branchTime.start(branchWatch);

  const activationMs = performance.now() - activationStarted;
  log.debug(`Activation took ${activationMs.toFixed(1)} ms.`);
  return buildApi({ session, statusBar, queue, branches, branchTime, onboarding, logUri: context.logUri, activationMs, branchWatch: () => branchWatch });
}

export function deactivate(): void {
  // The parts (the session's client pool, its timers, the watchers, the log last) are disposed
  // with context.subscriptions, in the reverse order of their creation.
}
