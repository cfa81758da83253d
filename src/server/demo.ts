/**
 * `--demo`: the state a newcomer sees first (`npm start`), so the extension has something real to
 * show without the app: two groups, a handful of activities, one running for 25 minutes, and time
 * already logged today. A snapshot like the one a data file holds, built for a given instant, so
 * the running time is 25 minutes (or the one given) whenever the server starts.
 */
import type { Activity } from './activities';
import type { Entry, Session, StateSnapshot } from './state';

/**
 * The activity that runs, and since how long (unless `--started-ago` says), as CONTRIBUTING.md and the start check name
 * them.
 */
export const DEMO_RUNNING = { name: 'Write docs', groupName: 'Work', minutes: 25 } as const;

const MINUTE = 60_000;

/**
 * The demo state at `now` (ms since 1970), with ids from `newId`. What counts as today is the
 * server's business: entries are logged at `now`, so they fall on today whatever the hour, and
 * the finished session ends just before the running one began.
 */
export function demoSnapshot(
  now: number,
  newId: () => string,
  runningMs: number = DEMO_RUNNING.minutes * MINUTE,
): StateSnapshot {
  const activity = (name: string, groupName: string): Activity => ({ id: newId().toLowerCase(), name, groupName });
  const writeDocs = activity(DEMO_RUNNING.name, DEMO_RUNNING.groupName);
  const review = activity('Code review', 'Work');
  const standup = activity('Standup', 'Work');
  const reading = activity('Reading', 'Personal');
  const exercise = activity('Exercise', 'Personal');

  const startedAt = now - runningMs;
  const sessions: Session[] = [
    { activityID: review.id, startedAt: startedAt - 50 * MINUTE, endedAt: startedAt - 5 * MINUTE },
  ];
  const entry = (of: Activity, durationMinutes: number, note: string | null): Entry => ({
    entryID: newId().toLowerCase(),
    activityID: of.id,
    durationMinutes,
    note,
    loggedAt: now,
  });
  return {
    activities: [writeDocs, review, standup, reading, exercise],
    sessions,
    running: { activityID: writeDocs.id, startedAt },
    entries: [entry(standup, 15, 'daily'), entry(reading, 30, null)],
  };
}
