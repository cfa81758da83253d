/**
 * What Start Tracking's picker says instead of a list when nothing can be started now, whatever
 * is typed: the app rejected the token, locks every tool out, or has no valid license. A picker
 * that lists activities and takes a new name in these states invites a choice that only ends in
 * an error toast; this one says why before anything is typed, and its items are the fixes.
 */
import * as l10n from '@vscode/l10n';
import { COMMANDS } from '../ids';
import type { Route } from '../model/channel';
import type { TrackerState } from '../model/trackerState';

/** A fix the blocked picker offers: its label, and the command it runs. */
export interface StartFix {
  readonly label: string;
  readonly command: typeof COMMANDS.setToken | typeof COMMANDS.checkConnection;
}

export interface BlockedStart {
  /** Why nothing can be started, and what to do: the picker's placeholder. */
  readonly placeholder: string;
  /** The fixes, what helps most first. */
  readonly fixes: readonly StartFix[];
}

/** The picker's words and fixes when Start cannot succeed in `state`; undefined when it can try. */
export function blockedStart(state: TrackerState, route: Route, nowMs: number): BlockedStart | undefined {
  const setToken: StartFix = { label: `$(key) ${l10n.t('Set Token…')}`, command: COMMANDS.setToken };
  const check: StartFix = { label: `$(plug) ${l10n.t('Check Connection')}`, command: COMMANDS.checkConnection };
  // The integration's token is the app's own: only the app renews it, so Set Token would not help.
  const http = route.kind === 'http';
  switch (state.kind) {
    case 'tokenRejected':
      if (state.clockSkewSeconds !== undefined) {
        return {
          placeholder: [
            l10n.t(
              "Nothing can be started: the app refuses requests signed on this computer's clock, which is {0} s off.",
              Math.abs(state.clockSkewSeconds),
            ),
            l10n.t('Set the clock right, then check the connection.'),
          ].join(' '),
          fixes: [check],
        };
      }
      return http
        ? {
            placeholder: l10n.t(
              'Nothing can be started: the app rejected the token. Set the one it shows (Settings → Integrations → HTTP API).',
            ),
            fixes: [setToken, check],
          }
        : {
            placeholder: [
              l10n.t('Nothing can be started: the app rejected the token of its VS Code integration.'),
              l10n.t('Turn Settings → Integrations → VSCode off and on in the app, then check the connection.'),
            ].join(' '),
            fixes: [check],
          };
    case 'lockedOut': {
      if (state.untilMs <= nowMs) return undefined;
      const seconds = Math.ceil((state.untilMs - nowMs) / 1000);
      // The token may well be right (another tool failed): checking again comes first.
      return {
        placeholder: l10n.t(
          'Nothing can be started: the app refuses every request for {0} s more after too many failed sign-ins.',
          seconds,
        ),
        fixes: http ? [check, setToken] : [check],
      };
    }
    case 'licenseLocked':
      return {
        placeholder: l10n.t(
          "Nothing can be started: the time tracker's license is locked. Activate or renew it in the app, then check the connection.",
        ),
        fixes: [check],
      };
    default:
      return undefined;
  }
}
