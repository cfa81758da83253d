/**
 * Set Token and Clear Token: the HTTP API's token in secret storage, through the session. Set Token
 * says first when the app's VS Code integration is in use, which needs none. Each says what it did:
 * Set Token whether the app took the token (its one poll is the check), Clear Token that it removed
 * one, or that there was none.
 */
import * as vscode from 'vscode';
import { tokenCheckAdvice } from '../../tracker/advice/tokenCheck';
import type { CommandServices } from './services';

/** A token passed as an argument (scripts, tests) skips the input box; it is never echoed. */
export async function setToken(services: CommandServices, given: unknown): Promise<boolean> {
  const token =
    typeof given === 'string'
      ? given
      : await vscode.window.showInputBox({
          title: vscode.l10n.t('Time Tracker: Set Token'),
          // Said before anything is pasted: through the integration's socket the app's own token is used.
          prompt:
            services.session.channel.kind === 'integration'
              ? [
                  vscode.l10n.t("No token is needed: the app's VS Code integration connects through its socket."),
                  vscode.l10n.t(
                    "A token set here is kept for the app's HTTP API, used only when the integration is off.",
                  ),
                ].join(' ')
              : vscode.l10n.t(
                  "Paste the token shown in the app's settings (Integrations → HTTP API). It is kept in VS Code's secret storage.",
                ),
          password: true,
          ignoreFocusOut: true,
          validateInput: (value) => (value.trim() === '' ? vscode.l10n.t('The token must not be empty.') : undefined),
        });
  if (token === undefined || token.trim() === '') return false;
  const { session, messages } = services;
  // Done means in use, and checked: the poll of the reconnect is the one signed request with the
  // new token (none while the app locks us out); its state says what the app made of it.
  await session.setToken(token.trim());
  if (session.channel.kind === 'integration') {
    void messages.info(
      vscode.l10n.t(
        "Token stored. The app's VS Code integration is in use now; the token is for the HTTP API, when the integration is off.",
      ),
    );
  } else {
    void messages.advise(tokenCheckAdvice(session.state, Date.now()));
  }
  return true;
}

export async function clearToken(services: CommandServices): Promise<void> {
  const { session, messages } = services;
  await session.ready();
  const stored = session.tokenStored;
  await session.clearToken();
  if (!stored) {
    void messages.info(vscode.l10n.t('There was no token to remove.'));
    return;
  }
  const { channel } = session;
  void messages.info(
    channel.kind === 'http' && channel.tokenSource !== 'secretStorage'
      ? vscode.l10n.t('Removed the token from VS Code. The token from {0} is in use now.', channel.tokenSource)
      : vscode.l10n.t('Removed the token from VS Code.'),
  );
}
