/**
 * What the extension showed through `vscode.window` while a test step ran: the extension shares
 * this `vscode.window` with the suite, so wrapping its methods for the step sees every call, and
 * the originals are put back whatever the step does.
 */
import * as vscode from 'vscode';

/** A notification as shown: its message and the buttons it offered. */
export interface ShownNotification {
  readonly message: string;
  readonly buttons: readonly string[];
}

/** The information, warning and error notifications shown while `run` runs. */
export async function notificationsDuring(run: () => Thenable<unknown>): Promise<ShownNotification[]> {
  const window = vscode.window as unknown as Record<string, (...args: unknown[]) => unknown>;
  const methods = ['showInformationMessage', 'showWarningMessage', 'showErrorMessage'];
  const originals = methods.map((method) => window[method]!);
  const shown: ShownNotification[] = [];
  methods.forEach((method, index) => {
    window[method] = (...args: unknown[]) => {
      shown.push({ message: String(args[0]), buttons: args.slice(1).filter((arg): arg is string => typeof arg === 'string') });
      return originals[index]!(...args);
    };
  });
  try {
    await run();
  } finally {
    methods.forEach((method, index) => (window[method] = originals[index]!));
  }
  return shown;
}

/** The brief status bar messages (`setStatusBarMessage`) set while `run` runs. */
export async function statusMessagesDuring(run: () => Thenable<unknown>): Promise<string[]> {
  const window = vscode.window as unknown as { setStatusBarMessage: (...args: unknown[]) => unknown };
  const original = window.setStatusBarMessage;
  const shown: string[] = [];
  window.setStatusBarMessage = (...args: unknown[]) => {
    shown.push(String(args[0]));
    return original(...args);
  };
  try {
    await run();
  } finally {
    window.setStatusBarMessage = original;
  }
  return shown;
}
