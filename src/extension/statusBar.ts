/**
 * The one status bar item. It renders the session's state (the session polls and owns the
 * connection), and again at the moment a time it shows next changes, without extra requests: once
 * a minute while tracking, each second only while it shows seconds. A poll that brings the state
 * already drawn costs a comparison. The user's format is parsed once per settings change; the item
 * is re-created when its side or priority changes, since VS Code cannot move an item.
 */
import * as vscode from 'vscode';
import { COMMANDS, STATUS_BAR_ITEM_ID } from '../tracker/ids';
import { OPEN_LINK_COMMANDS, type NoticeWords } from '../tracker/links/linkNotice';
import { MANAGE_TRUST_COMMAND } from '../tracker/links/linksWaiting';
import type { LongSessionWords, Presentation, StatusBarInputs } from '../tracker/statusBar/factTypes';
import { statusBarItem } from '../tracker/statusBar/statusBarItem';
import {
  FORMAT_TOKENS,
  MAX_FORMAT_LENGTH,
  StatusFormatReader,
  type ParsedFormat,
} from '../tracker/statusBar/statusText';
import type { Messages } from './messages';
import type { Session } from './session';
import { SECTION, type Settings } from './settings';
import { boundedTimers, type Timers } from '../platform/timers';
import { sameState, type TrackerState } from '../tracker/model/trackerState';
import type { Log } from './oneLineLog';

const TRUSTED_COMMANDS = [...Object.values(COMMANDS), ...Object.values(OPEN_LINK_COMMANDS), MANAGE_TRUST_COMMAND];

/**
 * What the item reads, each handed over when it is built: the session's state, the settings, and what the other parts
 * know.
 */
export interface StatusBarParts {
  readonly session: Pick<Session, 'state' | 'channel' | 'onDidChangeState'>;
  readonly settings: () => Settings;
  /** The entries waiting in the offline queue; none unless given, not known before the queue is there. */
  readonly queued?: () => number | undefined;
  readonly log?: Pick<Log, 'info' | 'warn'>;
  /** Where a format the item cannot show as written is said to the user, once per value. */
  readonly messages?: Pick<Messages, 'warn' | 'actions'>;
  /** Today's time on this window's branch, for the tooltip (the branch-time ledger). */
  readonly branchToday: () => StatusBarInputs['branchToday'];
  /** The linked start Undo still takes back, for the tooltip (the links). */
  readonly linkedStart: () => StatusBarInputs['linkedStart'];
  /** The group the pickers remembered for an activity, for `{group}` (the recent list). */
  readonly groupOf: (activityID: string) => string | undefined;
  /** A passing notice shown instead of the state's words (a link acted, or why it did not); the links time it. */
  readonly notice: () => NoticeWords | undefined;
  /** Links that wait on the user, for the tooltip (and the question for the text); none unless given. */
  readonly linksWaiting?: () => StatusBarInputs['linksWaiting'];
  /** The app's own extension that reports branch switches here, for the tooltip (the coexistence part). */
  readonly branchesReportedBy?: () => string | undefined;
  /** A long session's words (the rest's): without them the item shows no long session. */
  readonly longSession?: () => LongSessionWords | undefined;
  /** The clock and timers the item counts on by; the real ones unless given. */
  readonly clock?: () => number;
  readonly timers?: Timers;
}

/** Where the item stands: what VS Code fixes when it creates an item. */
interface Placement {
  readonly alignment: Settings['statusBarAlignment'];
  readonly priority: number;
}

export class StatusBarController implements vscode.Disposable {
  private item: vscode.StatusBarItem;
  private placement: Placement;
  private shown: Presentation | undefined;
  /** The session's state and channel the item was last drawn from. */
  private drawnFrom: { readonly state: TrackerState; readonly channel: Session['channel'] } | undefined;
  /** The render planned for when a time shown next changes. */
  private ticker: unknown;
  private readonly clock: () => number;
  private readonly timers: Timers;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly formats = new StatusFormatReader((source, refused) => this.reportFormat(source, refused));
  constructor(private readonly parts: StatusBarParts) {
    this.clock = parts.clock ?? Date.now;
    this.timers = boundedTimers(parts.timers);
    this.placement = placementOf(parts.settings());
    this.item = this.createItem();
    // A new channel is always followed by a state (polled, or known without polling).
    this.subscriptions.push(parts.session.onDidChangeState(() => this.onState()));
    this.onState();
  }

  get presentation(): Presentation {
    return this.shown ?? this.compute();
  }

  /** Settings that only change the display, and what the other parts know, apply at once. */
  rerender(): void {
    const placement = placementOf(this.parts.settings());
    if (placement.alignment !== this.placement.alignment || placement.priority !== this.placement.priority) {
      this.placement = placement;
      this.item.dispose();
      this.item = this.createItem();
      this.parts.log?.info(
        `The status bar item now stands on the ${placement.alignment}, priority ${placement.priority}.`,
      );
    }
    this.render();
  }

  /**
   * A format with an unknown token (shown as written) or too long (the default shown): in the log, and once to the
   * user, with the way to the setting.
   */
  private reportFormat(source: string, { unknown, tooLong }: ParsedFormat): void {
    const known = FORMAT_TOKENS.map((token) => `{${token}}`).join(', ');
    this.parts.log?.warn(
      tooLong === true
        ? `timeTracker.statusBar.format is ${source.length} characters long, more than the ${MAX_FORMAT_LENGTH} it ` +
            `reads ("${source.slice(0, 40)}…"); the default format is used.`
        : `timeTracker.statusBar.format "${source}" names ${unknown.join(', ')}, which it does not know ` +
            `(it knows ${known}); the status bar shows it as written.`,
    );
    const message =
      tooLong === true
        ? vscode.l10n.t(
            'The status bar format is {length} characters long, more than the {max} it reads, so the status bar shows the default format.',
            { length: source.length, max: MAX_FORMAT_LENGTH },
          )
        : vscode.l10n.t(
            'The status bar format names {unknown}, which it does not know, so the status bar shows it as written. It knows {known}.',
            { unknown: unknown.join(', '), known },
          );
    void this.parts.messages?.warn(message, this.parts.messages.actions.openSettings(`${SECTION}.statusBar.format`));
  }

  private createItem(): vscode.StatusBarItem {
    const { alignment, priority } = this.placement;
    // VS Code keeps an item where its id first stood: the id names the place (the default place keeps the plain id).
    const id =
      alignment === 'left' && priority === 100 ? STATUS_BAR_ITEM_ID : `${STATUS_BAR_ITEM_ID}.${alignment}.${priority}`;
    const item = vscode.window.createStatusBarItem(
      id,
      alignment === 'right' ? vscode.StatusBarAlignment.Right : vscode.StatusBarAlignment.Left,
      priority,
    );
    item.name = vscode.l10n.t('Time Tracker');
    // A new item shows nothing until it is rendered: forget what the old one showed.
    this.shown = undefined;
    this.render(item);
    item.show();
    return item;
  }

  /** A state from the session: most polls bring the one already drawn (observed again), which changes nothing. */
  private onState(): void {
    const { state, channel } = this.parts.session;
    const drawn = this.drawnFrom;
    if (drawn !== undefined && drawn.channel === channel && sameState(drawn.state, state)) return;
    this.render();
  }

  private compute(): Presentation {
    const { session, settings, queued, branchToday, linkedStart, groupOf, notice, branchesReportedBy, linksWaiting } =
      this.parts;
    const { state } = session;
    const { showTodayTotal, maxNameLength, privateStatusBar, statusFormat, longSessionHours } = settings();
    return statusBarItem(state, {
      nowMs: this.clock(),
      showTodayTotal,
      maxNameLength,
      route: session.channel.route,
      private: privateStatusBar,
      format: this.formats.read(statusFormat),
      queued: queued?.(),
      branchToday: branchToday(),
      group: state.kind === 'tracking' ? groupOf(state.activity.activityID) : undefined,
      linkedStart: linkedStart(),
      notice: notice(),
      linksWaiting: linksWaiting?.(),
      branchesReportedBy: branchesReportedBy?.(),
      longSessionHours,
      longSession: this.parts.longSession?.(),
    });
  }

  private render(item: vscode.StatusBarItem = this.item): void {
    const { state, channel } = this.parts.session;
    this.drawnFrom = { state, channel };
    const presentation = this.compute();
    this.planTick(presentation.changesAtMs);
    if (this.shown && sameAs(this.shown, presentation)) return;
    this.shown = presentation;
    item.text = presentation.text;
    const tooltip = new vscode.MarkdownString(presentation.tooltip, true);
    tooltip.isTrusted = { enabledCommands: TRUSTED_COMMANDS };
    item.tooltip = tooltip;
    item.command = presentation.command;
    item.accessibilityInformation = { label: presentation.accessibilityLabel, role: 'button' };
    item.backgroundColor =
      presentation.tone === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : presentation.tone === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
  }

  /** Draws again when a time shown next changes, and not before; nothing while no time counts on. */
  private planTick(changesAtMs: number | undefined): void {
    if (this.ticker !== undefined) this.timers.clearTimeout(this.ticker);
    this.ticker =
      changesAtMs === undefined
        ? undefined
        : this.timers.setTimeout(() => {
            this.ticker = undefined;
            this.render();
          }, changesAtMs - this.clock());
  }

  dispose(): void {
    if (this.ticker !== undefined) this.timers.clearTimeout(this.ticker);
    this.ticker = undefined;
    for (const subscription of this.subscriptions) subscription.dispose();
    this.item.dispose();
  }
}

function placementOf(settings: Settings): Placement {
  return { alignment: settings.statusBarAlignment, priority: settings.statusBarPriority };
}

function sameAs(a: Presentation, b: Presentation): boolean {
  return (['text', 'tooltip', 'command', 'tone', 'accessibilityLabel'] as const).every((key) => a[key] === b[key]);
}
