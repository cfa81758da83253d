/**
 * Every message the user reads goes out here: notifications with their buttons, the advice of a
 * failure, a question before something risky, the status bar's brief confirmations, and the
 * notices withdrawn once their outcome makes them wrong. One place decides how a sentence is shown
 * and what a button does, and logs a button whose action failed instead of losing it in a promise
 * nobody awaits. The window's functions are looked up at each call, so the tests' spies on them
 * see everything shown.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import * as vscode from 'vscode';
import { errorMessage } from '../platform/errors';
import { COMMANDS } from '../tracker/ids';
import type { Advice, FixAction } from '../tracker/advice/advice';
import { SECTION } from './settings';
import type { Log } from './oneLineLog';

/** A button on a message: its label, and what choosing it does. */
export interface MessageAction {
  readonly label: string;
  readonly run: () => unknown;
}

type Severity = 'info' | 'warning' | 'error';

/**
 * What a withdrawable notice is about; a newer notice on the same topic replaces the older.
 * `queued`: an entry waits in the queue (withdrawn once it leaves it: sent, refused or discarded).
 */
export type NoticeTopic = 'queued';

const SHOW = { info: 'showInformationMessage', warning: 'showWarningMessage', error: 'showErrorMessage' } as const;

export class Messages implements vscode.Disposable {
  /** The notices on screen, by topic: each one's withdrawal. */
  private readonly notices = new Map<NoticeTopic, () => void>();
  /** A failure's state was said and its end is awaited, to be said once in the status bar. */
  private awaitingRecovery = false;
  /** What a `heard` run said so far: its async context's own list, so that a command run beside it is not heard. */
  private readonly hearing = new AsyncLocalStorage<string[]>();

  constructor(private readonly log: Log) {}

  /**
   * Runs `run` as usual, and gives beside its result every sentence it said (notifications, advice, notices, status
   * lines), in order: what the agent's tools answer with, in the words a command's user reads.
   */
  async heard<T>(run: () => Promise<T>): Promise<{ readonly result: T; readonly said: readonly string[] }> {
    const said: string[] = [];
    const result = await this.hearing.run(said, run);
    return { result, said };
  }

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
   * The entries of a setting that are not used: each logged, the first said with how many more the
   * log holds, and Open Settings (at `setting`, else the extension's settings).
   */
  problems(problems: readonly string[], setting?: string): void {
    const [first] = problems;
    if (first === undefined) return;
    for (const problem of problems) this.log.warn(problem);
    const more = problems.length - 1;
    const message =
      more === 0 ? first : vscode.l10n.t('{problem} ({count} more in the log.)', { problem: first, count: more });
    if (setting === undefined) void this.advise({ severity: 'warning', message, action: 'openSettings' });
    else void this.warn(message, this.actions.openSettings(setting));
  }

  /**
   * A warning the caller waits on for the user's choice (modal when `modal`), for decisions the
   * caller acts on itself; resolves to the chosen label, or undefined when dismissed.
   */
  async ask(
    message: string,
    options: { readonly modal: boolean; readonly detail?: string },
    ...labels: string[]
  ): Promise<string | undefined> {
    const { modal, detail } = options;
    return vscode.window.showWarningMessage(message, { modal, ...(detail === undefined ? {} : { detail }) }, ...labels);
  }

  /**
   * Something in progress that its own outcome makes wrong ("…is queued" while the app does not
   * answer, once it is sent): shown until `until` settles, then withdrawn, or replaced by a newer
   * one on its topic. VS Code lets an extension close only a progress notification, whose spinner
   * says "in progress" and which has no buttons, so it is for progress alone, never a failure.
   * A failure that a state causes (Start or Stop refused while the app rejects the token) is an
   * error or a warning with its fix as a button (`failure`): VS Code gives no way to close one, so
   * it is not withdrawn; the status bar item carries the state for as long as it lasts, and its end
   * is said in the status bar.
   */
  notice(topic: NoticeTopic, message: string, until: Thenable<unknown>): void {
    this.hearing.getStore()?.push(message);
    this.notices.get(topic)?.();
    let withdraw = (): void => undefined;
    const withdrawn = new Promise<void>((resolve) => (withdraw = resolve));
    this.notices.set(topic, withdraw);
    until.then(withdraw, withdraw);
    void vscode.window
      .withProgress({ location: vscode.ProgressLocation.Notification, title: message }, () => withdrawn)
      .then(() => {
        if (this.notices.get(topic) === withdraw) this.notices.delete(topic);
      });
  }

  /**
   * A failure that lasts while a state does (`advice`, with its fix as a button), and once
   * `recovered` settles one brief line in the status bar that it is over: once for the failures
   * said before it, however many commands met the state.
   */
  failure(advice: Advice, recovered: Thenable<unknown>): void {
    void this.advise(advice);
    if (this.awaitingRecovery) return;
    this.awaitingRecovery = true;
    recovered.then(() => {
      this.awaitingRecovery = false;
      this.status(`$(check) ${vscode.l10n.t('The app takes requests again.')}`);
    });
  }

  /** A brief confirmation in the status bar (a started or stopped activity), gone after 3 s. */
  status(text: string): void {
    this.hearing.getStore()?.push(text);
    vscode.window.setStatusBarMessage(text, 3_000);
  }

  /** The buttons most messages offer. */
  readonly actions = {
    showLog: (): MessageAction => ({ label: vscode.l10n.t('Show Log'), run: () => this.log.show() }),
    showQueue: (): MessageAction => ({
      label: vscode.l10n.t('Show Queued Entries'),
      run: () => vscode.commands.executeCommand(COMMANDS.showQueue),
    }),
    logTime: (): MessageAction => ({
      label: vscode.l10n.t('Log Time'),
      run: () => vscode.commands.executeCommand(COMMANDS.log),
    }),
    /** Open Settings at one setting (its full name), or at the extension's settings. */
    openSettings: (setting: string = SECTION): MessageAction => ({
      label: vscode.l10n.t('Open Settings'),
      run: () => vscode.commands.executeCommand('workbench.action.openSettings', setting),
    }),
  };

  /** The button that fixes what `action` names. */
  private fix(action: FixAction): MessageAction {
    const run = (command: string) => () => vscode.commands.executeCommand(command);
    switch (action) {
      case 'setToken':
        return { label: vscode.l10n.t('Set Token'), run: run(COMMANDS.setToken) };
      case 'showLog':
        return this.actions.showLog();
      case 'retry':
        return { label: vscode.l10n.t('Check Again'), run: run(COMMANDS.checkConnection) };
      case 'openSettings':
        return this.actions.openSettings();
      case 'runLocally':
        return this.actions.openSettings('remote.extensionKind');
    }
  }

  /** Withdraws every notice still shown: the window's extension is going away. */
  dispose(): void {
    for (const withdraw of this.notices.values()) withdraw();
    this.notices.clear();
  }

  /** Shows the message; resolves once the chosen button's action has run (or at once when dismissed). */
  private async notify(severity: Severity, message: string, actions: readonly MessageAction[]): Promise<void> {
    this.hearing.getStore()?.push(message);
    const chosen = await vscode.window[SHOW[severity]](message, ...actions.map((action) => action.label));
    const action = actions.find((candidate) => candidate.label === chosen);
    if (!action) return;
    try {
      await action.run();
    } catch (error) {
      this.log.error(`${action.label} failed: ${errorMessage(error)}`);
    }
  }
}
