/**
 * The one sentence for a part of the extension that could not be loaded or started (a bundle
 * missing beside the others, say): the activation bundle says it for the core, the core for the
 * rest. Its own file, so that the activation bundle takes nothing else in with it.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../platform/errors';

export function sayCouldNotStart(error: unknown): void {
  void vscode.window.showErrorMessage(vscode.l10n.t('Time Tracker could not start: {0}', errorMessage(error)));
}
