/**
 * A session that has run past timeTracker.statusBar.longSessionHours is most likely a timer left
 * running: the status bar turns the warning colour and leads with Stop, and the menu too, without
 * a notification, since the user may well mean it. Its age is the app's own (GET /current's
 * `startedAt`) where the app said it; else all that is known is when this window first saw it
 * running, so it has run at least since then. A break is the user's own pause, never a
 * forgotten timer.
 */
import type { TrackerState } from './trackerState';

const HOUR_MS = 3_600_000;

/** Since when what runs has run, on this machine's clock. */
export interface SessionStart {
  readonly sinceMs: number;
  /** The app said it (true); else this window first saw it running then, and it may have run longer. */
  readonly fromApp: boolean;
}

/** The start of the running session, if it is running; undefined when idle, on a break, or not answering. */
export function sessionStart(state: TrackerState): SessionStart | undefined {
  if (state.kind !== 'tracking' || state.onBreak) return undefined;
  if (state.startedAtMs !== undefined) return { sinceMs: state.startedAtMs - state.appClockOffsetMs, fromApp: true };
  return { sinceMs: state.seenSinceMs ?? state.observedAtMs, fromApp: false };
}

/** The session, once it has run `hours` at `nowMs`; undefined before that, and while nothing runs. */
export function longSession(state: TrackerState, nowMs: number, hours: number): SessionStart | undefined {
  const start = sessionStart(state);
  return start !== undefined && nowMs >= longFromMs(start, hours) ? start : undefined;
}

/** The moment a session that started at `start` turns long. */
export function longFromMs(start: SessionStart, hours: number): number {
  return start.sinceMs + hours * HOUR_MS;
}
