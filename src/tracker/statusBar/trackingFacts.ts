/**
 * The words of the states in which the app says what runs: not tracking, tracking (with the
 * running time when the app said when it started), and on break; each with today's total and the
 * actions the app offers. Elapsed time and today's total count on from the last poll without a
 * request, in whole minutes (the seconds only where the user's format asks for them), and the
 * facts say when they next change, so the item is drawn again then and not before. Told privately
 * (timeTracker.statusBar.private), for screen sharing and recordings, they are the icon and the
 * state only: no activity name, no group
 * and no time in the text, the tooltip or the spoken label; the menu, opened on purpose, still
 * shows them, and the tooltip says so and offers to show them again.
 */
import * as l10n from '@vscode/l10n';
import { COMMANDS } from '../ids';
import { elapsedSecondsAt, type TrackerState } from '../model/trackerState';
import { formatMinutes } from '../duration';
import { escapeMarkdown } from '../markup';
import type { StatusBarInputs, StatusFacts, StatusLink, TooltipFacts } from './factTypes';
import { DEFAULT_STATUS_FORMAT, formatShows, shortenName } from './statusText';

type Answering = Extract<TrackerState, { kind: 'idle' | 'tracking' }>;

export function idleFacts(state: Extract<TrackerState, { kind: 'idle' }>, settings: StatusBarInputs): StatusFacts {
  const today = todayFacts(state.todaySeconds, settings, state.firstRelease === true);
  if (state.onBreak) return onBreakFacts(undefined, today, settings, state);
  return {
    text: {
      icon: 'clock',
      state: l10n.t('Not tracking'),
      today: today.total,
      ...optionalParts({ ...settings, group: undefined }),
    },
    spoken:
      today.total === undefined
        ? l10n.t('Time Tracker: not tracking. Activate for the menu.')
        : l10n.t('Time Tracker: not tracking, {0} today. Activate for the menu.', today.total),
    tooltip: answeringTooltip([l10n.t('**Not tracking.**')], today, state, settings.branchToday),
    tone: 'normal',
  };
}

export function trackingFacts(
  state: Extract<TrackerState, { kind: 'tracking' }>,
  settings: StatusBarInputs,
): StatusFacts {
  const { nowMs } = settings;
  const sinceObserved = Math.max(0, Math.floor((nowMs - state.observedAtMs) / 1000));
  const firstRelease = state.firstRelease === true;
  const today = todayFacts(
    state.todaySeconds === undefined ? undefined : state.todaySeconds + sinceObserved,
    settings,
    firstRelease,
  );
  // Today's total, in whole minutes, counts on from the second the app said it.
  const todayChangesAtMs =
    state.todaySeconds === undefined || firstRelease
      ? undefined
      : nextStepMs(state.observedAtMs - state.todaySeconds * 1000, nowMs, 60_000);
  const name = state.activity.activityName;
  // The item's text shows the name cut, so the time stays in view; the tooltip and the screen reader say it whole.
  const shown = shortenName(name, settings.maxNameLength);
  if (state.onBreak) return { ...onBreakFacts({ name, shown }, today, settings, state), changesAtMs: todayChangesAtMs };
  // When the app did not say when it started: the name alone, rather than a time made up.
  const seconds = elapsedSecondsAt(state, nowMs);
  const elapsed = seconds === undefined ? undefined : formatElapsedMinutes(seconds);
  const elapsedSeconds = seconds === undefined ? undefined : formatElapsed(seconds);
  const step = formatShows(settings.format ?? DEFAULT_STATUS_FORMAT, 'elapsedSeconds') ? 1_000 : 60_000;
  const elapsedChangesAtMs =
    state.startedAtMs === undefined ? undefined : nextStepMs(state.startedAtMs - state.appClockOffsetMs, nowMs, step);
  return {
    text: { icon: 'record', activity: shown, elapsed, elapsedSeconds, today: today.total, ...optionalParts(settings) },
    spoken: trackingSpoken(name, elapsed, today.total),
    tooltip: answeringTooltip(
      [
        elapsed === undefined
          ? l10n.t('**Tracking {0}.**', escapeMarkdown(name))
          : l10n.t('**Tracking {name}** for {elapsed}.', { name: escapeMarkdown(name), elapsed }),
      ],
      today,
      state,
      settings.branchToday,
    ),
    tone: 'normal',
    changesAtMs: earliest(elapsedChangesAtMs, todayChangesAtMs),
  };
}

function trackingSpoken(name: string, elapsed: string | undefined, today: string | undefined): string {
  if (elapsed === undefined) {
    return today === undefined
      ? l10n.t('Time Tracker: tracking {0}. Activate for the menu.', name)
      : l10n.t('Time Tracker: tracking {name}, {today} today. Activate for the menu.', { name, today });
  }
  return today === undefined
    ? l10n.t('Time Tracker: tracking {name} for {elapsed}. Activate for the menu.', { name, elapsed })
    : l10n.t('Time Tracker: tracking {name} for {elapsed}, {today} today. Activate for the menu.', {
        name,
        elapsed,
        today,
      });
}

/** A break, with or without the activity that continues after it (its name whole, and as the item shows it). */
function onBreakFacts(
  activity: { readonly name: string; readonly shown: string } | undefined,
  today: TodayFacts,
  settings: StatusBarInputs,
  state: Answering,
): StatusFacts {
  const name = activity?.name;
  const spoken =
    name === undefined
      ? today.total === undefined
        ? l10n.t('Time Tracker: on break. Activate for the menu.')
        : l10n.t('Time Tracker: on break, {0} today. Activate for the menu.', today.total)
      : today.total === undefined
        ? l10n.t('Time Tracker: on break, {0} paused. Activate for the menu.', name)
        : l10n.t('Time Tracker: on break, {name} paused, {today} today. Activate for the menu.', {
            name,
            today: today.total,
          });
  const resumes = name === undefined ? [] : [l10n.t('{0} continues when you start it again.', escapeMarkdown(name))];
  return {
    text: {
      icon: 'coffee',
      state: activity === undefined ? l10n.t('On break') : l10n.t('On break ({0})', activity.shown),
      today: today.total,
      ...optionalParts(activity === undefined ? { ...settings, group: undefined } : settings),
    },
    spoken,
    tooltip: answeringTooltip([l10n.t('**On break.**'), ...resumes], today, state),
    tone: 'normal',
  };
}

/** The private form: the state's words, that the menu has the rest, and the way to show them again. */
export function privateFacts(state: Answering): StatusFacts {
  const { text, spoken, headline } = privateWords(state);
  return {
    text,
    spoken,
    tooltip: {
      headline: [headline],
      body: [l10n.t('The status bar is private: it shows no activity and no time. The menu shows them.')],
      links: [...actions(state), { label: l10n.t('Show Activity and Time'), command: COMMANDS.togglePrivateStatusBar }],
    },
    tone: 'normal',
  };
}

function privateWords(state: Answering): Pick<StatusFacts, 'text' | 'spoken'> & { readonly headline: string } {
  if (state.onBreak) {
    return {
      text: { icon: 'coffee', state: l10n.t('On break') },
      spoken: l10n.t('Time Tracker: on break.'),
      headline: l10n.t('**On break.**'),
    };
  }
  if (state.kind === 'tracking') {
    return {
      text: { icon: 'record', state: l10n.t('Tracking') },
      spoken: l10n.t('Time Tracker: tracking. Activate for the menu.'),
      headline: l10n.t('**Tracking.**'),
    };
  }
  return {
    text: { icon: 'clock', state: l10n.t('Not tracking') },
    spoken: l10n.t('Time Tracker: not tracking. Activate for the menu.'),
    headline: l10n.t('**Not tracking.**'),
  };
}

/**
 * The parts only a user's format shows: the running activity's group (cut like its name) and this branch's time today.
 */
function optionalParts(settings: StatusBarInputs): { readonly group?: string; readonly branchToday?: string } {
  const group =
    settings.group === undefined || settings.group === ''
      ? undefined
      : shortenName(settings.group, settings.maxNameLength);
  return {
    ...(group === undefined ? {} : { group }),
    ...(settings.branchToday === undefined ? {} : { branchToday: settings.branchToday.duration }),
  };
}

/** While the app answers: the headline, today's line (and this branch's), the actions. */
function answeringTooltip(
  headline: readonly string[],
  today: TodayFacts,
  state: Answering,
  branchToday?: StatusBarInputs['branchToday'],
): TooltipFacts {
  const branchLine =
    branchToday && l10n.t('This branch ({0}) today: {1}.', escapeMarkdown(branchToday.branch), branchToday.duration);
  return {
    headline,
    body: branchLine === undefined ? [today.line] : [today.line, branchLine],
    links: actions(state),
  };
}

/**
 * The tooltip's actions, in the order of the menu (menu.ts). An app without GET /status (a first
 * release) has no stop and no entries either, so those links are left out there.
 */
function actions(state: Answering): StatusLink[] {
  const full = state.firstRelease !== true;
  const stop = full && { label: l10n.t('Stop'), command: COMMANDS.stop };
  const logTime = full && { label: l10n.t('Log Time'), command: COMMANDS.log };
  const start = { label: l10n.t('Start'), command: COMMANDS.start };
  let links: (StatusLink | false)[];
  if (state.kind === 'idle') links = [start, logTime];
  // On break a start ends the break (the headline says so) and Stop ends the paused activity: the menu's order.
  else if (state.onBreak) links = [start, stop, logTime];
  else links = [stop, { label: l10n.t('Switch Activity'), command: COMMANDS.start }, logTime];
  return links.filter((entry): entry is StatusLink => entry !== false);
}

interface TodayFacts {
  /** The total for the text and spoken sentences, or undefined when the setting hides it or the app did not say it. */
  readonly total: string | undefined;
  /** The tooltip's paragraph, always there. */
  readonly line: string;
}

function todayFacts(seconds: number | undefined, settings: StatusBarInputs, firstRelease: boolean): TodayFacts {
  if (firstRelease) {
    return {
      total: undefined,
      line: l10n.t(
        "This version of the app does not report today's total, nor offer Stop and Log Time: update it for them.",
      ),
    };
  }
  // A full app that left the total out: no number made up, and no advice to update.
  if (seconds === undefined) return { total: undefined, line: l10n.t("Today's total: not said by the app.") };
  const total = formatMinutes(Math.floor(seconds / 60));
  return { total: settings.showTodayTotal ? total : undefined, line: l10n.t('Today: {0}.', total) };
}

/** `< 1m` under a minute, then `25m`, `1h 5m`: whole minutes, as today's total. */
export function formatElapsedMinutes(totalSeconds: number): string {
  return totalSeconds < 60 ? l10n.t('< 1m') : formatMinutes(Math.floor(totalSeconds / 60));
}

/**
 * The first moment after `nowMs` at which a count of whole `stepMs` from `originMs` goes up: when a time shown from
 * that origin next changes.
 */
export function nextStepMs(originMs: number, nowMs: number, stepMs: number): number {
  return originMs + (Math.floor(Math.max(0, nowMs - originMs) / stepMs) + 1) * stepMs;
}

function earliest(...moments: readonly (number | undefined)[]): number | undefined {
  const known = moments.filter((moment): moment is number => moment !== undefined);
  return known.length === 0 ? undefined : Math.min(...known);
}

/** `12:05` under an hour, `1:02:05` from an hour on: the `{elapsedSeconds}` token. */
export function formatElapsed(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const two = (n: number): string => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}
