/**
 * What Set Token says right after storing a token for the HTTP API, from the state its one poll
 * left, so a wrong token is said where the user is looking, not only by a red status bar item
 * away from it. Pure, so every state has its sentence in a unit test.
 */
import * as l10n from '@vscode/l10n';
import { signingPause } from '../model/signingPause';
import type { TrackerState } from '../model/trackerState';
import type { Advice } from './advice';

/** The answer to "did the app take the token I just set?", for the state after Set Token's poll. */
export function tokenCheckAdvice(state: TrackerState, nowMs: number): Advice {
  switch (state.kind) {
    // The app checks the token before the license and before it looks for the endpoint.
    case 'idle':
    case 'tracking':
    case 'licenseLocked':
    case 'unavailable':
      return { severity: 'info', message: l10n.t('The app accepted the token.') };
    case 'tokenRejected':
      return state.clockSkewSeconds === undefined
        ? {
            severity: 'error',
            message: l10n.t('The app rejected this token: copy it again from Settings → Integrations.'),
            action: 'setToken',
          }
        : {
            severity: 'error',
            message: [
              l10n.t(
                "The token is stored, but the app could not check it: this computer's clock is {0} s off.",
                Math.abs(state.clockSkewSeconds),
              ),
              l10n.t('Set the system clock right, then check the connection.'),
            ].join(' '),
            action: 'retry',
          };
    case 'lockedOut': {
      const pause = signingPause(state, nowMs);
      if (pause?.kind === 'lockedOut') {
        return {
          severity: 'warning',
          message: [
            l10n.t('The token is stored.'),
            l10n.t(
              'The app refuses every request for {0} s more after too many failed sign-ins; the token is checked when that ends.',
              pause.secondsLeft,
            ),
          ].join(' '),
        };
      }
      return unknownAnswer();
    }
    case 'offline':
      return { severity: 'info', message: l10n.t('The token is stored; it is checked when the app answers.') };
    case 'remoteHost':
      return {
        severity: 'info',
        message: [
          l10n.t('The token is stored, but not checked:'),
          l10n.t('this extension runs on the remote machine of this window and sends nothing from there.'),
          l10n.t('It is checked once the extension runs on your computer.'),
        ].join(' '),
        action: 'runLocally',
      };
    case 'starting':
    case 'noToken':
    case 'failed':
      return unknownAnswer();
  }
}

function unknownAnswer(): Advice {
  return {
    severity: 'warning',
    message: l10n.t(
      "The token is stored, but the app's answer did not show whether it accepts it: check the connection.",
    ),
    action: 'retry',
  };
}
