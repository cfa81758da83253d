import * as vscode from 'vscode';
import { COMMANDS, STATUS_BAR_ITEM_ID } from '../tracker/ids';
import type { StatusNotice } from '../tracker/links/linkNotice';
import { present, type Presentation, type PresentationSettings } from '../tracker/view/presentation';
import type { Session } from './session';
import type { Settings } from './settings';

const TRUSTED_COMMANDS = [...Object.values(COMMANDS), 'workbench.action.openSettings'];

/**
 * The one status bar item. It renders the session's state (the session polls and owns the
 * connection) and re-renders every second while something ticks, without extra requests.
 */
export class StatusBarController implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private shown: Presentation | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Today's time on this window's branch, for the tooltip (issue 24): set once the ledger is built. */
  branchToday: () => PresentationSettings['branchToday'] = () => undefined;
  /** A passing notice shown instead of the state's words (issue 25: a link acted, or why it did not); its owner times it. */
  private notice: StatusNotice | undefined;

  constructor(
    private readonly session: Session,
    private readonly settings: () => Settings,
    private readonly queued: () => number = () => 0,
  ) {
    this.item = vscode.window.createStatusBarItem(STATUS_BAR_ITEM_ID, vscode.StatusBarAlignment.Left, 100);
    this.item.name = vscode.l10n.t('Time Tracker');
    // A new channel is always followed by a state (polled, or known without polling).
    this.subscriptions.push(session.onDidChangeState(() => this.onState()));
    this.onState();
    this.item.show();
  }

  get presentation(): Presentation {
    return this.shown ?? this.compute();
  }

  /** Settings that only change the display, and the queue's count, apply at once. */
  rerender(): void {
    this.render();
  }

  /** Shows `notice` in place of the state's text, tooltip, click and spoken label until it is replaced or cleared (undefined). */
  showNotice(notice: StatusNotice | undefined): void {
    this.notice = notice;
    this.render();
  }

  private onState(): void {
    const kind = this.session.state.kind;
    const ticks = kind === 'tracking' || kind === 'lockedOut';
    if (ticks && !this.ticker) this.ticker = setInterval(() => this.render(), 1_000);
    if (!ticks && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
    this.render();
  }

  private compute(): Presentation {
    const settings = this.settings();
    const presentationSettings = { showTodayTotal: settings.showTodayTotal, maxNameLength: settings.maxNameLength, route: this.session.channel.route, branchToday: this.branchToday() };
    const state = present(this.session.state, presentationSettings, Date.now(), this.queued());
    const notice = this.notice;
    return notice === undefined ? state : { ...state, text: notice.text, tooltip: notice.tooltip, command: notice.command, accessibilityLabel: notice.accessibilityLabel };
  }

  private render(): void {
    const presentation = this.compute();
    if (this.shown && sameAs(this.shown, presentation)) return;
    this.shown = presentation;
    this.item.text = presentation.text;
    const tooltip = new vscode.MarkdownString(presentation.tooltip, true);
    tooltip.isTrusted = { enabledCommands: TRUSTED_COMMANDS };
    this.item.tooltip = tooltip;
    this.item.command = presentation.command;
    this.item.accessibilityInformation = { label: presentation.accessibilityLabel, role: 'button' };
    this.item.backgroundColor =
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

function sameAs(a: Presentation, b: Presentation): boolean {
  return a.text === b.text && a.tooltip === b.tooltip && a.command === b.command && a.tone === b.tone;
}
