/**
 * What the log says when the status bar's state changes: one line per change, never one per
 * poll. Each request is a debug line of its own (src/extension/requestLog.ts); at info level,
 * where the log file is read, an idle hour is a few lines, not 360. English, as every log line.
 */
import { formatInstant } from '../../protocol/instant';
import { sameActivity, type TrackerState } from './trackerState';

export interface StateChangeLine {
  /** `warn` for a state that needs the user (a rejected token, a locked license, a failure). */
  readonly level: 'info' | 'warn';
  readonly line: string;
}

/**
 * The line for the change from `before` to `after`, or undefined when nothing a user would see
 * changed (the same activity still runs, the same failure again). No token, and a remote
 * machine's host that sends nothing, are said where the channel is chosen (the session's "Not
 * connected: …"), so they get no line here.
 */
export function describeStateChangeForLog(before: TrackerState, after: TrackerState): StateChangeLine | undefined {
  if (!changed(before, after)) return undefined;
  const wasConnected = before.kind === 'idle' || before.kind === 'tracking';
  switch (after.kind) {
    case 'starting':
    case 'noToken':
    case 'remoteHost':
      return undefined;
    case 'idle':
      if (before.kind === 'tracking')
        return info(`Stopped ${before.activity.activityName}: nothing is tracked${after.onBreak ? ', on break' : ''}.`);
      if (wasConnected) return info(after.onBreak ? 'A break started.' : 'The break ended.');
      return info(`Connected: nothing is tracked${after.onBreak ? ', on break' : ''}.`);
    case 'tracking': {
      const name = after.activity.activityName;
      if (before.kind === 'tracking' && sameActivity(before.activity, after.activity))
        return info(after.onBreak ? `A break started; ${name} is kept.` : `The break ended; ${name} runs.`);
      if (wasConnected)
        return info(
          `Started ${name}${before.kind === 'tracking' ? ` (instead of ${before.activity.activityName})` : ''}.`,
        );
      return info(`Connected: ${name} runs.`);
    }
    case 'offline':
      return info('Offline: the app does not answer (it is closed, or its switch is off).');
    case 'tokenRejected':
      return warn(
        after.clockSkewSeconds === undefined
          ? 'The app rejected the token.'
          : `The app rejected the request: this computer's clock is ${after.clockSkewSeconds} s off.`,
      );
    case 'licenseLocked':
      return warn("The app's license is locked.");
    case 'lockedOut':
      return warn(`The app refuses requests until ${formatInstant(after.untilMs)} after too many failed sign-ins.`);
    case 'unavailable':
      return warn('The app does not offer its status (GET /status answers 503).');
    case 'failed':
      return warn(`Asking the app failed: ${after.message}`);
  }
}

/** Whether the change is one a user would see: a new kind, activity, break, or failure. */
function changed(before: TrackerState, after: TrackerState): boolean {
  if (before.kind !== after.kind) return true;
  switch (after.kind) {
    case 'idle':
      return before.kind === 'idle' && before.onBreak !== after.onBreak;
    case 'tracking':
      return (
        before.kind === 'tracking' &&
        (!sameActivity(before.activity, after.activity) || before.onBreak !== after.onBreak)
      );
    case 'failed':
      return before.kind === 'failed' && before.message !== after.message;
    case 'tokenRejected':
      return before.kind === 'tokenRejected' && before.clockSkewSeconds !== after.clockSkewSeconds;
    default:
      return false;
  }
}

function info(line: string): StateChangeLine {
  return { level: 'info', line };
}

function warn(line: string): StateChangeLine {
  return { level: 'warn', line };
}
