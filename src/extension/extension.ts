/**
 * Composition root of the extension. The features (status bar, commands, branch reporting) arrive
 * in later steps; for now it only creates the log channel and says that it is active.
 */
import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  const log = vscode.window.createOutputChannel('Time Tracker', { log: true });
  context.subscriptions.push(log);
  const { version } = context.extension.packageJSON as { version?: string };
  log.info(`Time Tracker ${version ?? ''} activated.`);
}

export function deactivate(): void {
  // Everything is in context.subscriptions, which VS Code disposes.
}
