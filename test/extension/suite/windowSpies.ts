/**
 * What the extension showed through `vscode.window` while a test step ran: the extension shares
 * this `vscode.window` with the suite, so wrapping its methods for the step sees every call, and
 * the originals are put back whatever the step does.
 */
import * as vscode from 'vscode';

/** A notification as shown: its message (a link as the user reads it, its label) and the buttons it offered. */
export interface ShownNotification {
  readonly message: string;
  readonly buttons: readonly string[];
  /** The labels of the command links in its text. */
  readonly links: readonly string[];
  /**
   * A notice the extension withdraws itself (a progress notification): `withdrawn` turns true once
   * it is gone. Absent for a plain notification, which stays until the user closes it.
   */
  readonly withdrawal?: Withdrawal;
}

export interface Withdrawal {
  withdrawn: boolean;
  /** Resolves once it is withdrawn. */
  readonly done: Promise<void>;
}

const LINK = /\[([^\]]*)\]\(command:[^)]*\)/g;

/** A notification's text as shown: each command link as its label. */
function asShown(message: string, buttons: readonly string[], withdrawal?: Withdrawal): ShownNotification {
  const links = [...message.matchAll(LINK)].map((match) => match[1] ?? '');
  return { message: message.replace(LINK, '$1'), buttons, links, ...(withdrawal === undefined ? {} : { withdrawal }) };
}

/** The information, warning and error notifications, and the progress notifications, shown while `run` runs. */
export async function notificationsDuring(run: () => Thenable<unknown>): Promise<ShownNotification[]> {
  const window = vscode.window as unknown as Record<string, (...args: unknown[]) => unknown>;
  const methods = ['showInformationMessage', 'showWarningMessage', 'showErrorMessage', 'withProgress'];
  const originals = methods.map((method) => window[method]!);
  const shown: ShownNotification[] = [];
  methods.forEach((method, index) => {
    window[method] = (...args: unknown[]) => {
      if (method === 'withProgress') return recordProgress(shown, originals[index]!, args);
      shown.push(
        asShown(
          String(args[0]),
          args.slice(1).filter((arg): arg is string => typeof arg === 'string'),
        ),
      );
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

/** A progress notification: recorded with its title, and marked withdrawn once its task settles. */
function recordProgress(
  shown: ShownNotification[],
  original: (...args: unknown[]) => unknown,
  args: unknown[],
): unknown {
  const [options, task] = args as [vscode.ProgressOptions, (...taskArgs: unknown[]) => Thenable<unknown>];
  if (options.location !== vscode.ProgressLocation.Notification) return original(...args);
  let withdrawn = (): void => undefined;
  const withdrawal: Withdrawal = { withdrawn: false, done: new Promise((resolve) => (withdrawn = resolve)) };
  shown.push(asShown(options.title ?? '', [], withdrawal));
  return original(options, (...taskArgs: unknown[]) =>
    Promise.resolve(task(...taskArgs)).finally(() => {
      withdrawal.withdrawn = true;
      withdrawn();
    }),
  );
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
