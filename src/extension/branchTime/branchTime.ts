/**
 * The branch-time ledger in this window: feeds the window's part of it
 * (src/tracker/branchTime/branchLedger.ts) with the session's poll answers, the window's focus and the
 * branch it is on (./windowPlace.ts), and tells the view and the status bar when it changed. The
 * ledger lives in the extension's global storage, shared by this machine's windows; nothing of it
 * is ever sent to the app, which already has the time (sending it would count it twice).
 */
import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { errorMessage } from '../../platform/errors';
import { thisMachine } from '../../platform/machine';
import { ownProcessIsRunning } from '../../platform/processes';
import { CONTEXT_KEYS, STORAGE_KEYS } from '../../tracker/ids';
import { BranchLedger } from '../../tracker/branchTime/branchLedger';
import { LedgerStore } from '../../tracker/branchTime/ledgerStore';
import { dayOf } from '../../tracker/branchTime/ledgerBook';
import type { WorkPlace } from '../../tracker/branchTime/attribution';
import {
  branchAt,
  formatLedgerDuration,
  summarize,
  summarizeDays,
  type DayRange,
  type PeriodKind,
  type PeriodSummary,
} from '../../tracker/branchTime/summary';
import { maxPollGapMs, observationOf } from '../../tracker/branchTime/observation';
import { ticketKeys, type TicketKeys } from '../../tracker/branchTime/ticketKeys';
import { ledgerWindowId } from '../../tracker/branchTime/windowIdentity';
import type { BranchReporter, HeadRead } from '../branchReporter';
import type { Messages } from '../messages';
import type { Session } from '../session';
import type { Settings } from '../settings';
import { WindowPlace } from './windowPlace';
import type { Log } from '../oneLineLog';

export interface BranchTimeParts {
  readonly storageFolder: string;
  /** Where this window's ledger id is kept across activations. */
  readonly workspaceState: vscode.Memento;
  readonly session: Session;
  /** The repositories watched: where the window's branch is read. */
  readonly branches: Pick<BranchReporter, 'watched'>;
  readonly log: Log;
  readonly messages: Messages;
  readonly settings: () => Settings;
  /** The ledger's and the summaries' clock (default Date.now). */
  readonly now?: () => number;
}

export class BranchTime implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** The ledger, the place or the setting changed: the view shows it again. */
  readonly onDidChange = this.changed.event;
  private readonly todayChanged = new vscode.EventEmitter<void>();
  /**
   * The status bar's line (branchToday) reads otherwise: while tracking, each poll credits the ledger, and most
   * leave that line's minute as it was, so the status bar is not worked out again for them.
   */
  readonly onDidChangeBranchToday = this.todayChanged.event;
  /** The status bar's line as last announced. */
  private announcedToday: string | undefined;
  readonly ledger: BranchLedger;
  private readonly store: LedgerStore;
  private readonly place: WindowPlace;
  private readonly subscriptions: vscode.Disposable[];
  /**
   * By period, until the ledger changes or the day turns: every node of the view asks, and the
   * status bar (today's) every second.
   */
  private readonly summaries = new Map<PeriodKind, { readonly day: string; readonly summary: PeriodSummary }>();
  private focused = vscode.window.state.focused;
  private tickets: { readonly prefixes: string; readonly keys: TicketKeys } | undefined;
  private saidRefused = false;
  private readonly now: () => number;

  constructor(private readonly parts: BranchTimeParts) {
    this.now = parts.now ?? Date.now;
    this.store = new LedgerStore(parts.storageFolder, {
      keepDays: () => parts.settings().branchTime.keepDays,
      onCorrupt: (keptAs, problem) => this.reportCorrupt(keptAs, problem),
      onRefused: (rows, largestBytes, maxBytes) => this.reportRefused(rows, largestBytes, maxBytes),
    });
    this.ledger = new BranchLedger({
      store: this.store,
      windowId: ledgerWindowId(parts.workspaceState, STORAGE_KEYS.branchTimeWindow, randomUUID),
      host: thisMachine().then((here) => ({
        pid: process.pid,
        host: here.id,
        isRunning: ownProcessIsRunning,
      })),
      now: this.now,
      maxGapMs: (previous) => maxPollGapMs(parts.settings().pollIntervalSeconds, previous),
      onDidChange: () => {
        this.summaries.clear();
        this.announce();
      },
      onError: (error) =>
        parts.log.warn(
          `The time-by-branch ledger could not be read or written (${errorMessage(error)}); this window keeps its time and tries again.`,
        ),
    });
    this.place = new WindowPlace(parts.branches);
    this.applyEnabled();
    this.subscriptions = [
      this.place.onDidChange((place) => this.ledger.setPlace(place)),
      parts.session.onDidChangeState((state) => this.ledger.observe(observationOf(state))),
      // Also fired when the window is used again or left unused (`active`): only focus counts here,
      // and each change of it is a write under the lock.
      vscode.window.onDidChangeWindowState((state) => {
        if (state.focused === this.focused) return;
        this.focused = state.focused;
        void this.ledger.focusChanged(state.focused);
      }),
    ];
  }

  get enabled(): boolean {
    return this.parts.settings().branchTime.enabled;
  }

  /** The repository and branch this window works on, the ledger on or off (Log Time's note from the commits). */
  get windowPlace(): WorkPlace | undefined {
    return this.place.place;
  }

  /**
   * At start, once the branch watchers run: the branches, the ledger on disk with the claims an
   * earlier extension host of this window left taken over, and this window's focus.
   */
  async start(branchWatch: Promise<void>): Promise<void> {
    // Drafts and claims of the lock that windows killed mid-way left: litter, never a lock.
    await this.store.removeLeftovers();
    await branchWatch;
    await this.place.refresh();
    await this.ledger.open(vscode.window.state.focused);
  }

  /** The settings changed: on or off, and the branches again when the watchers restarted. */
  async settingsChanged(branchWatch: Promise<void>): Promise<void> {
    this.applyEnabled();
    await branchWatch;
    await this.place.refresh();
    this.announce();
  }

  /** The summary of the days of `range`, whatever period they are: asked for rarely, so worked out each time. */
  summaryOfDays(range: DayRange): PeriodSummary {
    return summarizeDays(this.ledger.current.rows, 'days', range);
  }

  summary(kind: PeriodKind): PeriodSummary {
    const now = this.now();
    const day = dayOf(now);
    const cached = this.summaries.get(kind);
    if (cached?.day === day) return cached.summary;
    const summary = summarize(this.ledger.current.rows, kind, now);
    this.summaries.set(kind, { day, summary });
    return summary;
  }

  /**
   * The status bar tooltip's line: today's time on this window's branch, as the view's row for it
   * says (its share of today's total); undefined with no branch or the ledger off.
   */
  branchToday(): { readonly branch: string; readonly duration: string } | undefined {
    const place = this.ledger.place;
    if (!this.enabled || place === undefined) return undefined;
    const branch = branchAt(this.summary('today'), place);
    // The row's name: the branch as the ledger first wrote it, which HEAD may now spell in another case.
    return { branch: branch?.branch ?? place.branch, duration: formatLedgerDuration(branch ?? { ms: 0, minutes: 0 }) };
  }

  /** A read of a repository's HEAD: the time from now on goes to the branch it names. */
  headRead(read: HeadRead): Promise<void> {
    return this.place.headRead(read);
  }

  /**
   * The ticket keys that count as `timeTracker.ticketPrefixes` says (Copy Summary, the export, the links); each prefix
   * not used is logged, and the first said once per list, with Open Settings.
   */
  ticketKeys(): TicketKeys {
    const listed = this.parts.settings().ticketPrefixes;
    const prefixes = JSON.stringify(listed);
    if (this.tickets?.prefixes === prefixes) return this.tickets.keys;
    const { problems, ...keys } = ticketKeys(listed);
    this.tickets = { prefixes, keys };
    this.parts.messages.problems(problems, 'timeTracker.ticketPrefixes');
    return keys;
  }

  /** The view hears of every change; the status bar only when its line reads otherwise. */
  private announce(): void {
    this.changed.fire();
    const today = JSON.stringify(this.branchToday() ?? null);
    if (today === this.announcedToday) return;
    this.announcedToday = today;
    this.todayChanged.fire();
  }

  /** On or off as the settings say, and the view's welcome text with it (the workspace may have turned it off). */
  private applyEnabled(): void {
    this.ledger.setEnabled(this.enabled);
    void vscode.commands.executeCommand('setContext', CONTEXT_KEYS.branchTimeOff, !this.enabled);
  }

  /** Said once per file, by the window that moved it; the ledger starts again and tracking goes on. */
  private reportCorrupt(keptAs: string, problem: string): void {
    this.parts.log.warn(
      `The time-by-branch ledger ${problem}; it was kept as ${keptAs} and a new, empty ledger started.`,
    );
    void this.parts.messages.warn(
      vscode.l10n.t(
        'The time-by-branch ledger could not be read, so it was kept as {0} and a new one started.',
        keptAs,
      ),
    );
  }

  /**
   * Logged at every write that refused rows (a few bytes each, never their text: an id sent by
   * whoever answered); said once per window, since a source of such rows sends them at every poll.
   */
  private reportRefused(rows: number, largestBytes: number, maxBytes: number): void {
    const mebibytes = maxBytes / (1024 * 1024);
    const kilobytes = Math.ceil(largestBytes / 1024);
    this.parts.log.warn(
      `${rows} time-by-branch row(s), the largest ${kilobytes} KB, would not fit in the ${mebibytes} MiB ` +
        'the ledger file may hold and were not recorded; the history was kept whole.',
    );
    if (this.saidRefused) return;
    this.saidRefused = true;
    void this.parts.messages.warn(
      vscode.l10n.t(
        'Time by branch: a row of {0} KB would not fit in the {1} MiB its file may hold, so it was not recorded. Your history is kept.',
        kilobytes,
        mebibytes,
      ),
    );
  }

  dispose(): void {
    // Best effort: what this window saw in its last minute goes to the file, and, if it owns the
    // time, the window that takes it over starts from here.
    void this.ledger.close();
    for (const subscription of this.subscriptions) subscription.dispose();
    this.place.dispose();
    this.changed.dispose();
    this.todayChanged.dispose();
  }
}
