/**
 * The brief status bar lines after Start, Stop and a link's Undo, and the note that queued entries
 * went out: what happened, with the name and the time where the status bar may show them. With
 * timeTracker.statusBar.private they say what happened and nothing else, since they appear on a
 * shared screen unasked, exactly as the item does; the menu, opened on purpose, still names what
 * runs.
 */
import * as l10n from '@vscode/l10n';
import type { StopAnswer } from '../../client/answerTypes';
import { elapsedSecondsAt, sameActivity, type TrackerState } from '../model/trackerState';
import { formatMinutes } from '../duration';
import { escapeIcons } from '../markup';
import { shortenName } from './statusText';

/** The most characters of a name the Stop message shows, so "after 1h 30m" stays in view beside the item. */
export const STOPPED_NAME_MAX = 30;

/** Start went through: the activity the app named (or the one asked for), unless private. */
export function startedConfirmation(name: string | undefined, isPrivate: boolean): string {
  const said =
    isPrivate || name === undefined ? l10n.t('Tracking started.') : l10n.t('Tracking {0}', escapeIcons(name));
  return `$(record) ${said}`;
}

/**
 * Stop went through: what stopped and after how long, from the app's answer where it says so,
 * else from the last poll (a running activity the answer does not name is the one the poll saw);
 * undefined when nothing ran, which the caller says where the user looks instead. The name is
 * cut as the item cuts it (`maxNameLength`), and to STOPPED_NAME_MAX at most: the message shares
 * the status bar with the item and others, and the duration is what it is for.
 */
export function stoppedConfirmation(
  result: StopAnswer,
  polled: TrackerState,
  nowMs: number,
  isPrivate: boolean,
  maxNameLength: number,
): string | undefined {
  if (result.stopped === null) return undefined;
  const seen = polled.kind === 'tracking' ? polled : undefined;
  const activity = result.stopped ?? seen?.activity;
  if (activity === undefined) return undefined;
  if (isPrivate) return `$(debug-stop) ${l10n.t('Tracking stopped.')}`;
  const name = escapeIcons(shortenName(activity.activityName, Math.min(maxNameLength, STOPPED_NAME_MAX)));
  const seenSeconds = seen && sameActivity(seen.activity, activity) ? elapsedSecondsAt(seen, nowMs) : undefined;
  const seconds = result.durationSeconds ?? seenSeconds;
  const said =
    seconds === undefined
      ? l10n.t('Stopped {0}', name)
      : l10n.t('Stopped {name} after {duration}', {
          name,
          // As Time by Branch says time that rounds to no minute: "after 0m" reads as if nothing ran.
          duration: seconds < 30 ? l10n.t('< 1m') : formatMinutes(seconds / 60),
        });
  return `$(debug-stop) ${said}`;
}

/** A link's start taken back: what ran before runs again (`previous`), or tracking stopped. */
export function undoneConfirmation(
  undo: { readonly previous: string | undefined; readonly started: string },
  isPrivate: boolean,
): string {
  const { previous, started } = undo;
  if (previous === undefined)
    return `$(discard) ${isPrivate ? l10n.t('Tracking stopped.') : l10n.t('Stopped {0}', escapeIcons(started))}`;
  return `$(discard) ${isPrivate ? l10n.t('Tracking the previous activity again.') : l10n.t('Tracking {0} again', escapeIcons(previous))}`;
}

/**
 * Why a queued entry waited: the app did not answer, locked requests out, refused them (the token, the clock), or had
 * its license locked.
 */
export type QueueCause = 'offline' | 'lockedOut' | 'refused' | 'licenseLocked';

/** A queued entry the app took, as the user logged it, and why it had waited (undefined: not known in this window). */
export interface SentEntry {
  readonly minutes: number;
  readonly name: string;
  readonly cause: QueueCause | undefined;
}

/**
 * Entries that waited in the queue, sent once the app took them: said once, unasked, whenever the
 * app comes back, so while private it says how many and nothing of what or how long. Worded by why
 * they waited where all waited for one known reason.
 */
export function sentFromQueue(sent: readonly SentEntry[], isPrivate: boolean): string | undefined {
  const [only] = sent;
  if (only === undefined) return undefined;
  const why = waitedBecause(sent);
  if (isPrivate)
    return sent.length === 1
      ? l10n.t('Sent an entry {why}.', { why })
      : l10n.t('Sent {count} entries {why}.', { count: sent.length, why });
  if (sent.length === 1)
    return l10n.t('Sent {duration} on {name} ({why}).', {
      duration: formatMinutes(only.minutes),
      name: only.name,
      why,
    });
  const total = formatMinutes(sent.reduce((sum, entry) => sum + entry.minutes, 0));
  return l10n.t('Sent {count} entries {why}, {total} in all.', { count: sent.length, why, total });
}

function waitedBecause(sent: readonly SentEntry[]): string {
  const cause = sent[0]?.cause;
  switch (sent.every((entry) => entry.cause === cause) ? cause : undefined) {
    case 'offline':
      return l10n.t('logged while the app was offline');
    case 'lockedOut':
      return l10n.t('logged while the app locked requests out');
    case 'refused':
      return l10n.t('logged while the app refused requests');
    case 'licenseLocked':
      return l10n.t('logged while the license was locked');
    case undefined:
      return sent.length === 1
        ? l10n.t('queued while the app could not take it')
        : l10n.t('queued while the app could not take them');
  }
}
