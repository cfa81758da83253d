/** Set Token and Clear Token: the HTTP API's token in secret storage, through the session. */
import * as vscode from 'vscode';
import type { CommandServices } from './services';

/** A token passed as an argument (scripts, tests) skips the input box; it is never echoed. */
export async function setToken(services: CommandServices, given: unknown): Promise<boolean> {
  const token =
    typeof given === 'string'
      ? given
      : await vscode.window.showInputBox({
          title: vscode.l10n.t('Time Tracker: Set Token'),
          prompt: vscode.l10n.t("Paste the token shown in the app's settings (Integrations → HTTP API). It is kept in VS Code's secret storage."),
          password: true,
          ignoreFocusOut: true,
          validateInput: (value) => (value.trim() === '' ? vscode.l10n.t('The token must not be empty.') : undefined),
        });
  if (token === undefined || token.trim() === '') return false;
  // Done means in use: a report or a command right after Set Token goes out with the new token.
  await services.session.setToken(token.trim());
  if (services.session.channel.kind === 'integration') {
    void services.messages.info(
      vscode.l10n.t("Token stored. The app's VS Code integration is in use now; the token is for the HTTP API, when the integration is off."),
    );
  }
  return true;
}

export async function clearToken(services: CommandServices): Promise<void> {
  await services.session.clearToken();
}
