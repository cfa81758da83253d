/** The status bar menu: only the actions that make sense in the current state. */
import { COMMANDS, type CommandId } from './presentation';
import type { TrackerState } from './trackerState';

export interface MenuEntry {
  readonly label: string;
  readonly detail?: string;
  readonly command: CommandId;
}

const entry = (label: string, command: CommandId, detail?: string): MenuEntry => (detail === undefined ? { label, command } : { label, command, detail });

export function menuFor(state: TrackerState, hasToken: boolean, queued = 0): MenuEntry[] {
  const queue = queued > 0 ? [entry(`$(inbox) Show Queued Entries (${queued})`, COMMANDS.showQueue)] : [];
  const tail = [...queue, entry('$(plug) Check Connection', COMMANDS.checkConnection), entry('$(output) Show Log', COMMANDS.showLog)];
  const tokenEntries = hasToken
    ? [entry('$(key) Set Token…', COMMANDS.setToken, 'Replace the stored token'), entry('$(trash) Clear Token', COMMANDS.clearToken)]
    : [entry('$(key) Set Token…', COMMANDS.setToken, "Paste the token from the app's settings")];
  switch (state.kind) {
    case 'tracking':
      return [
        entry('$(debug-stop) Stop Tracking', COMMANDS.stop, state.activity.activityName),
        entry('$(play) Switch Activity…', COMMANDS.start),
        entry('$(history) Log Time…', COMMANDS.log),
        ...tail,
      ];
    case 'idle':
      return [entry('$(play) Start Tracking…', COMMANDS.start), entry('$(history) Log Time…', COMMANDS.log), ...tail];
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
