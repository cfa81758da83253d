/**
 * Composition root: builds the log, the token store, the connection, the status bar and the
 * command table, and owns their disposables. Nothing slow runs before activate returns.
 */
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { latestWins } from '../tracker/latestWins';
import type { TrackerState, TrackerStateKind } from '../tracker/trackerState';
import { BranchReporter, type HandledSwitch } from './branchReporter';
import { registerCommands } from './commands';
import { Connection } from './connection';
import { OfflineQueue } from './offlineQueue';
import { startOnboarding, type OnboardingView } from './onboarding';
import { readSettings, SECTION, type Settings } from './settings';
import { StatusBarController } from './statusBar';
import { TokenStore } from './tokenStore';

/** What `activate` returns: read by the extension's tests, and by anyone who wants the state. */
export interface TimeTrackerApi {
  /** The status bar's current state, e.g. `tracking` or `offline`. */
  readonly state: TrackerStateKind;
  /** The full state value (activity, seconds…). */
  readonly details: TrackerState;
  /** The status bar item's text as shown, codicons included. */
  readonly text: string;
  readonly onDidChangeState: vscode.Event<TrackerState>;
  /** Folder of the extension's log files (the "Time Tracker" log channel writes there). */
  readonly logUri: vscode.Uri;
  /** How long `activate` took, in milliseconds (docs/PERFORMANCE.md records it). */
  readonly activationMs: number;
  /** Polls now; resolves when the status bar shows the answer. */
  refresh(): Promise<void>;
  /** Logged entries in the offline queue (waiting, unknown or refused). */
  readonly queuedEntries: number;
  /** Fires with the new count when entries are queued, sent, discarded or read back from disk. */
  readonly onDidChangeQueuedEntries: vscode.Event<number>;
  /** Fires once per branch switch seen in the workspace, with what became of it (reported, ignored…). */
  readonly onDidHandleBranchSwitch: vscode.Event<HandledSwitch>;
  /** Resolves once the branch watcher watches the workspace's repositories, with their roots. */
  branchWatchReady(): Promise<readonly string[]>;
  /** Onboarding: the "Get started" walkthrough's completion conditions as they stand, and what became of the first-run notice. */
  readonly onboarding: OnboardingView;
}

export function activate(context: vscode.ExtensionContext): TimeTrackerApi {
  const activationStarted = performance.now();
  // src/tracker translates with @vscode/l10n (it cannot import vscode): hand it the bundle VS Code
  // loaded for the display language (l10n/bundle.l10n.<language>.json; none for English). Log
  // lines stay English, for support; they quote what the user was shown as it was shown.
  l10n.config({ contents: vscode.l10n.bundle ?? {} });
  const log = vscode.window.createOutputChannel('Time Tracker', { log: true });
  let settings: Settings = readSettings();
  const tokens = new TokenStore(context.secrets);
  const connection = new Connection(log);
  const queue = new OfflineQueue(context.globalStorageUri.fsPath, log);
  const statusBar = new StatusBarController(connection, () => settings, () => queue.waiting);
  const branches = new BranchReporter(connection, log, () => settings);
  context.subscriptions.push(log, tokens, connection, queue, statusBar, branches);
  context.subscriptions.push(
    queue.onDidChangeCount(() => statusBar.rerender()),
    // The app answers again (or still does): send what waits.
    statusBar.onDidChange((state) => {
      if (state.kind === 'idle' || state.kind === 'tracking') void queue.flush(connection.client);
    }),
  );
  const onboarding = startOnboarding(context, { tokens, statusBar, log, settings: () => settings });

  /** Token or connection settings changed: rebuild the client and ask again at once. */
  const reconnect = latestWins(
    // A keychain that cannot be read (locked, no keyring on Linux) must not leave the status bar
    // "connecting" forever: it reads as no token, and the log says why.
    () =>
      tokens.get().catch((error: unknown) => {
        log.error(`Reading the token from secret storage failed: ${error instanceof Error ? error.message : String(error)}`);
        return undefined;
      }),
    async (token) => {
      void vscode.commands.executeCommand('setContext', 'timeTracker.hasToken', token !== undefined);
      connection.update(token?.token, settings);
      if (token === undefined) statusBar.showWithoutPolling({ kind: 'noToken' });
      else await statusBar.refresh();
    },
  );

  let branchWatch: Promise<void> = Promise.resolve();
  context.subscriptions.push(
    ...registerCommands({ connection, tokens, statusBar, log, memento: context.globalState, settings: () => settings, queue, reconnect }),
    tokens.onDidChange(() => void reconnect()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(SECTION)) return;
      settings = readSettings();
      statusBar.rerender();
      void reconnect();
      if (event.affectsConfiguration(`${SECTION}.git`)) branchWatch = branches.apply();
    }),
  );

  const { version } = context.extension.packageJSON as { version?: string };
  log.info(`Time Tracker ${version ?? ''} activated; the app is expected on 127.0.0.1:${settings.port}.`);
  void queue.start().then(() => statusBar.rerender());
  void reconnect();
  // Finding repositories reads the disk: started here, finished after activate has returned.
  branchWatch = branches.apply();

  const activationMs = performance.now() - activationStarted;
  log.debug(`Activation took ${activationMs.toFixed(1)} ms.`);
  return {
    activationMs,
    get state() {
      return statusBar.state.kind;
    },
    get details() {
      return statusBar.state;
    },
    get text() {
      return statusBar.presentation.text;
    },
    get queuedEntries() {
      return queue.waiting;
    },
    onDidChangeQueuedEntries: queue.onDidChangeCount,
    onDidChangeState: statusBar.onDidChange,
    logUri: context.logUri,
    refresh: () => statusBar.refresh(),
    onDidHandleBranchSwitch: branches.onDidHandle,
    branchWatchReady: async () => {
      await branchWatch;
      return branches.repositories;
    },
    onboarding,
  };
}

export function deactivate(): void {
  // The client pool and the timers are disposed with context.subscriptions.
}
