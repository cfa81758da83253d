/**
 * Composition root: builds the log, the session (the one owner of the connection), the status
 * bar, the offline queue, the branch reporter, onboarding and the command table, and owns their
 * disposables. Nothing slow runs before activate returns.
 */
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { Channel } from '../tracker/model/channel';
import type { TrackerState, TrackerStateKind } from '../tracker/model/trackerState';
import { BranchReporter, type HandledSwitch } from './branchReporter';
import { registerCommands } from './commands';
import { Messages } from './messages';
import { OfflineQueue } from './offlineQueue';
import { startOnboarding, type OnboardingView } from './onboarding';
import { readSettings, SECTION, type Settings } from './settings';
import { Session } from './session';
import { StatusBarController } from './statusBar';

/** What `activate` returns: read by the extension's tests, and by anyone who wants the state. */
export interface TimeTrackerApi {
  /** The status bar's current state, e.g. `tracking` or `offline`. */
  readonly state: TrackerStateKind;
  /** The full state value (activity, seconds…). */
  readonly details: TrackerState;
  /** The status bar item's text as shown, codicons included. */
  readonly text: string;
  /** The status bar item's tooltip as shown (Markdown). */
  readonly tooltip: string;
  readonly onDidChangeState: vscode.Event<TrackerState>;
  /**
   * How requests reach the app now: `integration` (its VS Code integration's socket), `http`, or
   * `none`. Only the kind: the channel itself holds the token, and this API is open to every
   * extension.
   */
  readonly channel: Channel['kind'];
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
  const session = new Session({ secrets: context.secrets, log, settings: () => settings });
  // Started first, so that whoever asks `session.ready()` below waits for the first decision.
  void session.start();
  const messages = new Messages(log);
  const queue = new OfflineQueue(context.globalStorageUri.fsPath, log, messages);
  const statusBar = new StatusBarController(session, () => settings, () => queue.waiting);
  const branches = new BranchReporter(session, log, () => settings);
  context.subscriptions.push(log, session, queue, statusBar, branches);
  context.subscriptions.push(
    queue.onDidChangeCount(() => statusBar.rerender()),
    // The app answers again (or still does): send what waits. A first release has no
    // POST /entries: what waits, waits for the app's update.
    session.onDidChangeState((state) => queue.stateChanged((state.kind === 'idle' || state.kind === 'tracking') && !session.firstRelease, session.client)),
  );
  const onboarding = startOnboarding(context, { session, log, messages, settings: () => settings });

  let branchWatch: Promise<void> = Promise.resolve();
  context.subscriptions.push(
    ...registerCommands({ session, statusBar, log, memento: context.globalState, queue, messages }),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(SECTION)) return;
      settings = readSettings();
      statusBar.rerender();
      void session.settingsChanged();
      if (event.affectsConfiguration(`${SECTION}.git`)) branchWatch = branches.apply();
    }),
  );

  const { version } = context.extension.packageJSON as { version?: string };
  log.info(`Time Tracker ${version ?? ''} activated; looking for the app's VS Code integration, else its HTTP API on 127.0.0.1:${settings.port}.`);
  void queue.start().then(() => statusBar.rerender());
  // Finding repositories reads the disk: started here, finished after activate has returned.
  branchWatch = branches.apply();

  const activationMs = performance.now() - activationStarted;
  log.debug(`Activation took ${activationMs.toFixed(1)} ms.`);
  return {
    activationMs,
    get state() {
      return session.state.kind;
    },
    get details() {
      return session.state;
    },
    get text() {
      return statusBar.presentation.text;
    },
    get tooltip() {
      return statusBar.presentation.tooltip;
    },
    get channel() {
      return session.channel.kind;
    },
    get queuedEntries() {
      return queue.waiting;
    },
    onDidChangeQueuedEntries: queue.onDidChangeCount,
    onDidChangeState: session.onDidChangeState,
    logUri: context.logUri,
    refresh: () => session.refresh(),
    onDidHandleBranchSwitch: branches.onDidHandle,
    branchWatchReady: async () => {
      await branchWatch;
      return branches.repositories;
    },
    onboarding,
  };
}

export function deactivate(): void {
  // The session's client pool, its timers and the watchers are disposed with context.subscriptions.
}
