/**
 * Counts the notifications the extension shows, as it shows them. VS Code gives one `vscode` API object to every file
 * under an extension's folder, so these tests (loaded from this extension's out/) and the extension's bundle share
 * `vscode.window`; wrapping its three show…Message functions and withProgress (the notices it withdraws) sees every
 * call. The workbench cannot be asked instead: it merges a notification into an identical one still listed and drops
 * toasts beyond three in 800 ms, so its DOM would hide exactly the storm this looks for. (./driver.mjs, outside the
 * host, still reads the DOM, to check that nothing the user saw escaped this count.)
 */
import * as vscode from 'vscode';

/** `notice`: a progress notification, which the extension withdraws once its outcome makes it wrong. */
export type Severity = 'info' | 'warning' | 'error' | 'notice';

export interface Shown {
  readonly severity: Severity;
  readonly message: string;
  readonly atMs: number;
  /** The user action under way when it was shown (see `during`), if any. */
  readonly action: number | undefined;
}

type Show = (...args: unknown[]) => unknown;
const METHODS = {
  showInformationMessage: 'info',
  showWarningMessage: 'warning',
  showErrorMessage: 'error',
  withProgress: 'notice',
} as const;
/** A command link in a notification's text, which the workbench shows as its label. */
const LINK = /\[([^\]]*)\]\(command:[^)]*\)/g;

export class NotificationSpy implements vscode.Disposable {
  readonly shown: Shown[] = [];
  private action: number | undefined;
  private readonly originals = new Map<keyof typeof METHODS, Show>();

  constructor() {
    const window = vscode.window as unknown as Record<keyof typeof METHODS, Show>;
    for (const [method, severity] of Object.entries(METHODS) as [keyof typeof METHODS, Severity][]) {
      const original = window[method];
      this.originals.set(method, original);
      window[method] = (...args: unknown[]) => {
        const options = args[0] as vscode.ProgressOptions;
        if (severity !== 'notice')
          this.shown.push({
            severity,
            message: String(args[0]).replace(LINK, '$1'),
            atMs: Date.now(),
            action: this.action,
          });
        else if (options.location === vscode.ProgressLocation.Notification)
          this.shown.push({
            severity,
            message: (options.title ?? '').replace(LINK, '$1'),
            atMs: Date.now(),
            action: this.action,
          });
        return original(...args);
      };
    }
  }

  /** Runs a user action; what is shown until it settles is attributed to it. */
  async during<T>(action: number, run: () => Promise<T>): Promise<T> {
    this.action = action;
    try {
      return await run();
    } finally {
      this.action = undefined;
    }
  }

  of(action: number): Shown[] {
    return this.shown.filter((shown) => shown.action === action);
  }

  dispose(): void {
    const window = vscode.window as unknown as Record<keyof typeof METHODS, Show>;
    for (const [method, original] of this.originals) window[method] = original;
  }
}
