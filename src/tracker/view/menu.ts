/** The status bar menu: only the actions that make sense in the current state. */
import * as l10n from '@vscode/l10n';
import { COMMANDS, type CommandId } from '../ids';
import type { TrackerState } from '../model/trackerState';

export interface MenuEntry {
  readonly label: string;
  readonly detail?: string;
  readonly command: CommandId;
}

const entry = (label: string, command: CommandId, detail?: string): MenuEntry => (detail === undefined ? { label, command } : { label, command, detail });

export function menuFor(state: TrackerState, hasToken: boolean, queued = 0): MenuEntry[] {
  const queue = queued > 0 ? [entry(`$(inbox) ${l10n.t('Show Queued Entries ({0})', queued)}`, COMMANDS.showQueue)] : [];
  const tail = [
    ...queue,
    entry(`$(plug) ${l10n.t('Check Connection')}`, COMMANDS.checkConnection),
    entry(`$(output) ${l10n.t('Show Log')}`, COMMANDS.showLog),
  ];
  const setToken = `$(key) ${l10n.t('Set Token…')}`;
  const tokenEntries = hasToken
    ? [entry(setToken, COMMANDS.setToken, l10n.t('Replace the stored token')), entry(`$(trash) ${l10n.t('Clear Token')}`, COMMANDS.clearToken)]
    : [entry(setToken, COMMANDS.setToken, l10n.t("Paste the token from the app's settings"))];
  // A first release (GET /current alone) has no stop and no entries.
  const full = (state.kind === 'idle' || state.kind === 'tracking') && state.firstRelease !== true;
  const logTime = full ? [entry(`$(history) ${l10n.t('Log Time…')}`, COMMANDS.log)] : [];
  switch (state.kind) {
    case 'tracking':
      return [
        ...(full ? [entry(`$(debug-stop) ${l10n.t('Stop Tracking')}`, COMMANDS.stop, state.activity.activityName)] : []),
        entry(`$(play) ${l10n.t('Switch Activity…')}`, COMMANDS.start),
        ...logTime,
        ...tail,
      ];
    case 'idle':
      return [entry(`$(play) ${l10n.t('Start Tracking…')}`, COMMANDS.start), ...logTime, ...tail];
    case 'noToken':
      return [...tokenEntries, ...tail];
    case 'tokenRejected':
      return [...tokenEntries, ...tail];
    case 'starting':
    case 'offline':
    case 'licenseLocked':
    case 'lockedOut':
    case 'unavailable':
    case 'failed':
      return [...tail, ...tokenEntries];
  }
}
