/**
 * The item's words for a session that has run past timeTracker.statusBar.longSessionHours: the
 * warning tone, and in the tooltip's headline since when it runs and Stop, so that Stop is the
 * first command the tooltip offers, before a link's Undo. Said where the user looks, never in a
 * notification: a long day is no error. Private, the colour and Stop stay and every time goes.
 * Only the rest bundle holds this file (it is handed to the item as `inputs.longSession`), since
 * nothing of it is needed before a session has run for hours.
 */
import * as l10n from '@vscode/l10n';
import { clockTime, formatMinutes } from '../duration';
import { COMMANDS } from '../ids';
import { link } from '../markup';
import { longFromMs, sessionStart, type SessionStart } from '../model/longSession';
import type { TrackerState } from '../model/trackerState';
import type { StatusBarInputs, StatusFacts } from './factTypes';
import { nextStepMs } from './trackingFacts';

export function longSessionFacts(state: TrackerState, facts: StatusFacts, inputs: StatusBarInputs): StatusFacts {
  const start = sessionStart(state);
  const hours = inputs.longSessionHours;
  if (start === undefined || hours === undefined) return facts;
  const { nowMs } = inputs;
  const fromMs = longFromMs(start, hours);
  // The item is drawn again when a time it shows changes: the moment it turns long is one of them.
  if (nowMs < fromMs) return { ...facts, changesAtMs: earliest(facts.changesAtMs, fromMs) };
  const isPrivate = inputs.private === true;
  const stop = state.kind === 'tracking' && state.firstRelease !== true;
  const headline = [
    isPrivate ? l10n.t('Running for a long time.') : runningSince(start, nowMs),
    ...(stop ? [l10n.t('{stop} it if it was forgotten.', { stop: link(l10n.t('Stop'), COMMANDS.stop) })] : []),
  ];
  // Its running time counts on in whole minutes, from the start it names.
  const ticks = isPrivate ? undefined : nextStepMs(start.sinceMs, nowMs, 60_000);
  return {
    ...facts,
    tone: 'warning',
    spoken: `${facts.spoken} ${l10n.t('Running for a long time.')}`,
    tooltip: { ...facts.tooltip, headline: [...facts.tooltip.headline, ...headline] },
    changesAtMs: ticks === undefined ? facts.changesAtMs : earliest(facts.changesAtMs, ticks),
  };
}

function earliest(moment: number | undefined, other: number): number {
  return moment === undefined ? other : Math.min(moment, other);
}

/**
 * Since when it runs; where the app did not say, how long this window has seen it too, since the headline then names
 * no running time (where the app said, the headline already does: "for 9h 12m").
 */
function runningSince(start: SessionStart, nowMs: number): string {
  const time = clockTime(start.sinceMs, nowMs);
  if (start.fromApp) return l10n.t('Running since {time}.', { time });
  const duration = formatMinutes(Math.floor((nowMs - start.sinceMs) / 60_000));
  return l10n.t('Running at least {duration}, since {time}, when this window first saw it.', { duration, time });
}
