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

/**
 * Why and what to do, each in a line short enough to be read whole: the quick input cuts its title
 * and its placeholder at its width, and one sentence holding both lost the way out behind "…".
 */
export interface BlockedStart {
  /** Why nothing can be started: the picker's title. */
  readonly title: string;
  /** What to do: the picker's placeholder. */
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
          title: l10n.t("Nothing can be started: this computer's clock is {0} s off", Math.abs(state.clockSkewSeconds)),
          placeholder: l10n.t('The app refuses requests signed on it: set the clock right, then check again'),
          fixes: [check],
        };
      }
      return http
        ? {
            title: l10n.t('Nothing can be started: the app rejected the token'),
            placeholder: l10n.t('Set the token the app shows in Settings → Integrations → HTTP API'),
            fixes: [setToken, check],
          }
        : {
            title: l10n.t("Nothing can be started: the app rejected its integration's token"),
            placeholder: l10n.t('In the app, turn Settings → Integrations → VSCode off and on, then check'),
            fixes: [check],
          };
    case 'lockedOut': {
      if (state.untilMs <= nowMs) return undefined;
      const seconds = Math.ceil((state.untilMs - nowMs) / 1000);
      // The token may well be right (another tool failed): checking again comes first.
      return {
        title: l10n.t('Nothing can be started: the app refuses every request for {0} s more', seconds),
        placeholder: l10n.t('After too many failed sign-ins (a tool with a wrong token?)'),
        fixes: http ? [check, setToken] : [check],
      };
    }
    case 'licenseLocked':
      return {
        title: l10n.t("Nothing can be started: the time tracker's license is locked"),
        placeholder: l10n.t('Activate or renew it in the app, then check the connection'),
        fixes: [check],
      };
    default:
      return undefined;
  }
}
