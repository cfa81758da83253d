/**
 * The one status bar item. It renders the session's state (the session polls and owns the
 * connection) and re-renders every second while something ticks, without extra requests. The
 * user's format is parsed once per settings change; the item is re-created when its side or
 * priority changes, since VS Code cannot move an item.
 */
import * as vscode from 'vscode';
import { COMMANDS, STATUS_BAR_ITEM_ID } from '../tracker/ids';
import { OPEN_LINK_COMMANDS, type NoticeWords } from '../tracker/links/linkNotice';
import { MANAGE_TRUST_COMMAND } from '../tracker/links/linksWaiting';
import type { Presentation, StatusBarInputs } from '../tracker/statusBar/factTypes';
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
import { every } from '../platform/timers';
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
  private ticker: NodeJS.Timeout | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly formats = new StatusFormatReader((source, refused) => this.reportFormat(source, refused));
  constructor(private readonly parts: StatusBarParts) {
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

  private onState(): void {
    const kind = this.parts.session.state.kind;
    const ticks = kind === 'tracking' || kind === 'lockedOut';
    if (ticks && !this.ticker) this.ticker = every(() => this.render(), 1_000);
    if (!ticks && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
    this.render();
  }

  private compute(): Presentation {
    const { session, settings, queued, branchToday, linkedStart, groupOf, notice, branchesReportedBy, linksWaiting } =
      this.parts;
    const { state } = session;
    const { showTodayTotal, maxNameLength, privateStatusBar, statusFormat } = settings();
    return statusBarItem(state, {
      nowMs: Date.now(),
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
    });
  }

  private render(item: vscode.StatusBarItem = this.item): void {
    const presentation = this.compute();
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

  dispose(): void {
    if (this.ticker) clearInterval(this.ticker);
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
