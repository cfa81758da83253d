/**
 * The public API `activate` returns: read by the extension's tests, and open to every other
 * extension. Built from the parts the composition root made, so extension.ts only builds parts,
 * and what the API may show (no channel, no token) is decided in this one file.
 */
import type * as vscode from 'vscode';
import type { Channel } from '../tracker/model/channel';
import type { TrackerState, TrackerStateKind } from '../tracker/model/trackerState';
import type { PeriodKind, PeriodSummary } from '../tracker/branchTime/summary';
import type { HandledSwitch } from './branchReporter';
import type { LinkOutcome } from './links/linkStart';
import type { OnboardingView } from './onboarding/onboardingController';
import type { Rest } from './parts';
import type { Session } from './session';
import type { StatusBarController } from './statusBar';

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
  /** The status bar item's tone: `warning` and `error` are the theme's warning and error background colours. */
  readonly tone: 'normal' | 'warning' | 'error';
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
  /**
   * How long loading and starting the core took (dist/core.js: the session and the status bar; the
   * rest, dist/rest.js, loads after the first text), in milliseconds: after `activate` returned, or
   * when first used.
   */
  readonly coreMs: number;
  /** Polls now; resolves when the status bar shows the answer. */
  refresh(): Promise<void>;
  /** Logged entries in the offline queue (waiting, unknown or refused). */
  readonly queuedEntries: number;
  /** Fires with the new count when entries are queued, sent, discarded or read back from disk. */
  readonly onDidChangeQueuedEntries: vscode.Event<number>;
  /** Fires once per branch switch seen in the workspace, with what became of it (reported, ignored…). */
  readonly onDidHandleBranchSwitch: vscode.Event<HandledSwitch>;
  /** Fires once per link of timeTracker.links that matched a switch or the window's opening, with what it did. */
  readonly onDidActOnLink: vscode.Event<LinkOutcome>;
  /** Fires when a link's notice shows in the status bar (true) or goes (false); Undo outlives it. */
  readonly onDidChangeLinkNotice: vscode.Event<boolean>;
  /** Resolves once the branch watcher watches the workspace's repositories, with their roots. */
  branchWatchReady(): Promise<readonly string[]>;
  /**
   * The time-by-branch ledger as the view shows it: the period's summary after this
   * window's time was written and the shared file read again.
   */
  branchTimeSummary(kind: PeriodKind): Promise<PeriodSummary>;
  /**
   * The "Time by Branch" view's top-level items as it shows them now: none while it is empty, off or hidden while
   * private.
   */
  readonly branchTimeItems: readonly { readonly label: string; readonly description: string | undefined }[];
  /**
   * Onboarding: the "Get started" walkthrough's completion conditions as they stand, and what became of the first-run
   * notice.
   */
  readonly onboarding: OnboardingView;
}

/**
 * The parts the API reads; each getter of the API asks them at the moment it is read. The state and
 * the status bar are the core's; what else it reads is the rest's, which a read loads if it is not yet.
 */
export interface ApiParts {
  readonly session: Session;
  readonly statusBar: StatusBarController;
  readonly rest: () => Rest;
  readonly logUri: vscode.Uri;
  readonly activationMs: number;
  readonly coreMs: number;
  /** The branch watcher's latest (re)start: settings changes start it again. */
  readonly branchWatch: () => Promise<void>;
}

export function buildApi(parts: ApiParts): TimeTrackerApi {
  const { session, statusBar, rest } = parts;
  return {
    activationMs: parts.activationMs,
    coreMs: parts.coreMs,
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
    get tone() {
      return statusBar.presentation.tone;
    },
    get channel() {
      return session.channel.kind;
    },
    get queuedEntries() {
      return rest().queue.waiting;
    },
    get onDidChangeQueuedEntries() {
      return rest().queue.onDidChangeCount;
    },
    onDidChangeState: session.onDidChangeState,
    logUri: parts.logUri,
    refresh: () => session.refresh(),
    get onDidHandleBranchSwitch() {
      return rest().branches.onDidHandle;
    },
    get onDidActOnLink() {
      return rest().links.onDidAct;
    },
    get onDidChangeLinkNotice() {
      return rest().links.onDidChangeNotice;
    },
    branchWatchReady: async () => {
      const { branches } = rest();
      await parts.branchWatch();
      return branches.watched.map(({ repository }) => repository.root);
    },
    branchTimeSummary: async (kind) => {
      const { branchTime } = rest();
      await branchTime.ledger.flush();
      return branchTime.summary(kind);
    },
    get branchTimeItems() {
      return rest().branchTimeView.shownItems();
    },
    get onboarding() {
      return rest().onboarding;
    },
  };
}
