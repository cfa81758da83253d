/**
 * What a command says when it sends nothing because the app rejected the token or locks us out
 * (src/tracker/model/signingPause.ts): what was not done, then why and what to do, with the button
 * that fixes it. Worded for the way to the app: the integration's token is renewed in the app, the
 * HTTP API's is set here; a lockout ends by itself.
 */
import * as l10n from '@vscode/l10n';
import type { Route } from '../model/channel';
import type { SigningPause } from '../model/signingPause';
import type { Advice, FixAction } from './advice';

/** Why nothing is sent, in a sentence or two, and the fix. */
function pauseReason(pause: SigningPause, route: Route): { readonly message: string; readonly action: FixAction } {
  if (pause.kind === 'lockedOut') {
    const http = route.kind === 'http';
    return {
      message: [
        l10n.t(
          'The app refuses every request for {0} s more after too many failed sign-ins (a tool with a wrong token?);',
          pause.secondsLeft,
        ),
        l10n.t('nothing is sent until then.'),
        ...(http ? [l10n.t("If this editor's token is the wrong one, set it again.")] : []),
      ].join(' '),
      action: http ? 'setToken' : 'retry',
    };
  }
  if (pause.clockSkewSeconds !== undefined) {
    return {
      message: [
        l10n.t(
          "The app refuses requests signed on this computer's clock, which is {0} s off:",
          Math.abs(pause.clockSkewSeconds),
        ),
        l10n.t('set the system clock right, then check the connection.'),
      ].join(' '),
      action: 'retry',
    };
  }
  if (route.kind === 'integration') {
    return {
      message: [
        l10n.t('The app rejected the token of its VS Code integration:'),
        l10n.t('turn Settings → Integrations → VSCode off and on in the app, then check the connection.'),
      ].join(' '),
      action: 'retry',
    };
  }
  return {
    message: [
      l10n.t('The app rejected the token: copy it again from the app (Settings → Integrations → HTTP API) and set it.'),
      l10n.t('Until then nothing is sent, so that retries cannot lock you out.'),
    ].join(' '),
    action: 'setToken',
  };
}

/**
 * `done` (what the command did instead, one sentence, already translated) followed by the reason;
 * an error when the command did nothing, a warning when what the user gave waits to be sent.
 */
export function pausedAdvice(
  pause: SigningPause,
  route: Route,
  done: string | undefined,
  severity: 'warning' | 'error',
): Advice {
  const reason = pauseReason(pause, route);
  return {
    severity,
    message: done === undefined ? reason.message : `${done} ${reason.message}`,
    action: reason.action,
  };
}
