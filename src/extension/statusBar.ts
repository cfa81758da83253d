import * as vscode from 'vscode';
import { Poller } from '../tracker/poller';
import { COMMANDS, present, type Presentation } from '../tracker/presentation';
import { pollStatus } from '../tracker/statusSource';
import type { TrackerState } from '../tracker/trackerState';
import type { Connection } from './connection';
import type { Settings } from './settings';

const TRUSTED_COMMANDS = [...Object.values(COMMANDS), 'workbench.action.openSettings'];

/**
 * The one status bar item. Polls GET /status through the Poller (never overlapping, backing off,
 * slower in the background, paused after a rejected token) and re-renders every second while
 * something ticks, without extra requests.
 */
export class StatusBarController implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly poller: Poller;
  private readonly changed = new vscode.EventEmitter<TrackerState>();
  readonly onDidChange = this.changed.event;
  private current: TrackerState = { kind: 'starting' };
  private shown: Presentation | undefined;
  private ticker: ReturnType<typeof setInterval> | undefined;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor(
    private readonly connection: Connection,
    private settings: () => Settings,
    private readonly queued: () => number = () => 0,
  ) {
    this.item = vscode.window.createStatusBarItem('timeTracker.status', vscode.StatusBarAlignment.Left, 100);
    this.item.name = vscode.l10n.t('Time Tracker');
    this.poller = new Poller({
      poll: () => pollStatus(this.connection.client, this.current, this.settings().port, Date.now),
      onState: (state) => this.show(state),
      timing: () => ({ intervalSeconds: this.settings().pollIntervalSeconds, focused: vscode.window.state.focused }),
      clock: Date.now,
    });
    this.subscriptions.push(
      vscode.window.onDidChangeWindowState((windowState) => {
        if (windowState.focused) void this.refresh();
        else this.poller.reschedule(this.current);
      }),
    );
    this.render();
    this.item.show();
  }

  get state(): TrackerState {
    return this.current;
  }

  get presentation(): Presentation {
    return this.shown ?? present(this.current, this.settings(), Date.now(), this.queued());
  }

  /** Polls now; also the way out of the pause after a rejected token. */
  refresh(): Promise<void> {
    return this.poller.refresh();
  }

  /** Shows a state known without polling (no token), and stops polling until refreshed. */
  showWithoutPolling(state: TrackerState): void {
    this.show(state);
    // Re-planning for a state that polls never (noToken) cancels a poll already scheduled.
    this.poller.reschedule(state);
  }

  /** Settings that only change the display apply at once. */
  rerender(): void {
    this.render();
  }

  private show(state: TrackerState): void {
    this.current = state;
    this.render();
    const ticks = state.kind === 'tracking' || state.kind === 'lockedOut';
    if (ticks && !this.ticker) this.ticker = setInterval(() => this.render(), 1_000);
    if (!ticks && this.ticker) {
      clearInterval(this.ticker);
      this.ticker = undefined;
    }
    void vscode.commands.executeCommand('setContext', 'timeTracker.tracking', state.kind === 'tracking');
    this.changed.fire(state);
  }

  private render(): void {
    const presentation = present(this.current, this.settings(), Date.now(), this.queued());
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
    this.poller.dispose();
    if (this.ticker) clearInterval(this.ticker);
    for (const subscription of this.subscriptions) subscription.dispose();
    this.changed.dispose();
    this.item.dispose();
  }
}

function sameAs(a: Presentation, b: Presentation): boolean {
  return a.text === b.text && a.tooltip === b.tooltip && a.command === b.command && a.tone === b.tone;
}
