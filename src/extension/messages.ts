/**
 * Every message the user reads goes out here: notifications with their buttons, the advice of a
 * failure, a question before something risky, the status bar's brief confirmations. One place
 * decides how a sentence is shown and what a button does, and logs a button whose action failed
 * instead of losing it in a promise nobody awaits. The window's functions are looked up at each
 * call, so the soak test's spy on them sees everything shown.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../tracker/ids';
import type { Advice, FixAction } from '../tracker/view/advice';

/** A button on a message: its label, and what choosing it does. */
export interface MessageAction {
  readonly label: string;
  readonly run: () => unknown;
}

type Severity = 'info' | 'warning' | 'error';

const SHOW = { info: 'showInformationMessage', warning: 'showWarningMessage', error: 'showErrorMessage' } as const;

export class Messages {
  constructor(private readonly log: vscode.LogOutputChannel) {}

  info(message: string, ...actions: MessageAction[]): Promise<void> {
    return this.notify('info', message, actions);
  }

  warn(message: string, ...actions: MessageAction[]): Promise<void> {
    return this.notify('warning', message, actions);
  }

  error(message: string, ...actions: MessageAction[]): Promise<void> {
    return this.notify('error', message, actions);
  }

  /** A failure's advice, with the button that fixes it where there is one. */
  advise(advice: Advice): Promise<void> {
    const fix = advice.action === undefined ? [] : [this.fix(advice.action)];
    return this.notify(advice.severity, advice.message, fix);
  }

  /**
   * A warning the caller waits on for the user's choice (modal when `modal`), for decisions the
   * caller acts on itself; resolves to the chosen label, or undefined when dismissed.
   */
  async ask(message: string, options: { readonly modal: boolean }, ...labels: string[]): Promise<string | undefined> {
    return vscode.window.showWarningMessage(message, { modal: options.modal }, ...labels);
  }

  /** A brief confirmation in the status bar (a started or stopped activity), gone after 3 s. */
  status(text: string): void {
    vscode.window.setStatusBarMessage(text, 3_000);
  }

  /** The buttons most messages offer. */
  readonly actions = {
    showLog: (): MessageAction => ({ label: vscode.l10n.t('Show Log'), run: () => this.log.show() }),
    showQueue: (): MessageAction => ({ label: vscode.l10n.t('Show Queued Entries'), run: () => vscode.commands.executeCommand(COMMANDS.showQueue) }),
    logTime: (): MessageAction => ({ label: vscode.l10n.t('Log Time'), run: () => vscode.commands.executeCommand(COMMANDS.log) }),
  };

  private fix(action: FixAction): MessageAction {
    switch (action) {
      case 'setToken':
        return { label: vscode.l10n.t('Set Token'), run: () => vscode.commands.executeCommand(COMMANDS.setToken) };
      case 'openSettings':
        return { label: vscode.l10n.t('Open Settings'), run: () => vscode.commands.executeCommand('workbench.action.openSettings', 'timeTracker') };
      case 'showLog':
        return this.actions.showLog();
      case 'retry':
        return { label: vscode.l10n.t('Check Again'), run: () => vscode.commands.executeCommand(COMMANDS.checkConnection) };
      case 'runLocally':
        return { label: vscode.l10n.t('Open Settings'), run: () => vscode.commands.executeCommand('workbench.action.openSettings', 'remote.extensionKind') };
    }
  }

  /** Shows the message; resolves once the chosen button's action has run (or at once when dismissed). */
  private async notify(severity: Severity, message: string, actions: readonly MessageAction[]): Promise<void> {
    const chosen = await vscode.window[SHOW[severity]](message, ...actions.map((action) => action.label));
    const action = actions.find((candidate) => candidate.label === chosen);
    if (!action) return;
    try {
      await action.run();
    } catch (error) {
      this.log.error(`${action.label} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}
