/**
 * What the tools this extension gives the editor's agent answer (src/extension/commands/tools.ts):
 * short plain text a model reads well. The status tool says what the status bar's tooltip says, its
 * markup taken off (bold, icons, command links as their labels) while the names in it stay escaped
 * as the tooltip escapes them, so a model that repeats them repeats no link or markup from the app.
 * The time-by-branch tool reads its period; what it answers is Copy Summary's plain text. Pure.
 */
import * as l10n from '@vscode/l10n';
import { displayText } from '../../platform/outsideText';
import type { ActivitySelector, EntryRequest } from '../../protocol/types';
import { PERIODS, type DayRange, type PeriodKind } from '../branchTime/summary';
import { formatMinutes } from '../duration';
import { escapeMarkdown } from '../markup';
import { typedTooLong, type PickableActivity } from '../pickers/activityPicks';

/** A command link of the tooltip, `[label](command:…)`, not one a name escaped (`\[`). */
const COMMAND_LINK = /(?<!\\)\[([^\]]*)\]\(command:[^)]*\)/g;
/** Bold, `**…**`; a name's stars are escaped one by one (`\*\*`), so never two in a row. */
const BOLD = /(?<!\\)\*\*/g;
/** A codicon, `$(name)`; a name's `$(` is escaped (`\$(`). */
const ICON = /(?<!\\)\$\([a-z0-9-]+(?:~[a-z]+)?\)\s?/g;

/** The status bar's tooltip (Markdown) as plain paragraphs: what the status tool answers. */
export function plainTooltip(tooltip: string): string {
  return tooltip
    .split(/\n{2,}/)
    .filter((paragraph) => paragraph.trim() !== '---')
    .map((paragraph) => {
      const links = [...paragraph.matchAll(COMMAND_LINK)];
      const rest = paragraph.replace(COMMAND_LINK, '').replace(/[\s·]+/g, '');
      // A paragraph of links only is the tooltip's row of buttons: the commands a user runs for it.
      if (links.length > 0 && rest === '')
        return l10n.t('Commands: {0}.', links.map((match) => match[1] ?? '').join(', '));
      return paragraph.replace(COMMAND_LINK, '$1').replace(BOLD, '').replace(ICON, '').trim();
    })
    .filter((paragraph) => paragraph !== '')
    .join('\n\n');
}

/** The most days the time-by-branch tool sums at once: a quarter, more than the ledger keeps by default. */
export const MAX_DAYS = 92;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The time-by-branch tool's input: `{ "period": "today" | "thisWeek" | "lastWeek" }` (today if none), or
 * `{ "fromDay": "YYYY-MM-DD", "toDay": "YYYY-MM-DD" }` (`toDay` the first if left out), at most MAX_DAYS; or why not.
 */
export function readPeriodInput(
  input: unknown,
): { readonly period: PeriodKind } | { readonly days: DayRange } | { readonly refused: string } {
  const given = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const { period, fromDay, toDay } = given;
  if (fromDay !== undefined || toDay !== undefined) {
    if (period !== undefined) return { refused: l10n.t('Give "period" or "fromDay", not both.') };
    return readDays(fromDay, toDay ?? fromDay, {
      notDays: () => l10n.t('"fromDay" and "toDay" must be days such as "2026-12-01".'),
      backwards: () => l10n.t('"toDay" must not come before "fromDay".'),
    });
  }
  if (period === undefined) return { period: 'today' };
  const known = PERIODS.find((kind) => kind === period);
  if (known !== undefined) return { period: known };
  return { refused: l10n.t('"period" must be one of {0}.', PERIODS.map((kind) => `"${kind}"`).join(', ')) };
}

/**
 * Days a user types for a period: one day (`2026-12-01`), or the first and the last, with a space, `..`, a dash or `to`
 * between them (`2026-11-01 2026-11-30`); at most MAX_DAYS; or why not, in the words of the box it is typed in.
 */
export function readTypedDays(text: string): { readonly days: DayRange } | { readonly refused: string } {
  const example = () => l10n.t('Type a day such as 2026-12-01, or the first and the last: 2026-11-01 2026-11-30.');
  // What is longer than two days and a separator is no period: refused unread, never matched at length.
  if (text.length > 64) return { refused: example() };
  const match = /^\s*(\d{4}-\d\d-\d\d)(?:\s*(?:\.\.|-|–|—|to|\s)\s*(\d{4}-\d\d-\d\d))?\s*$/.exec(text);
  if (match === null) return { refused: example() };
  return readDays(match[1], match[2] ?? match[1], {
    notDays: example,
    backwards: () => l10n.t('The last day must not come before the first.'),
  });
}

/** Why a period is refused, in the words of where it was given. */
interface DaysRefused {
  readonly notDays: () => string;
  readonly backwards: () => string;
}

function readDays(
  from: unknown,
  to: unknown,
  refused: DaysRefused,
): { readonly days: DayRange } | { readonly refused: string } {
  const [first, last] = [calendarDay(from), calendarDay(to)];
  if (first === undefined || last === undefined) return { refused: refused.notDays() };
  const span = Math.round((last.getTime() - first.getTime()) / 86_400_000) + 1;
  if (span < 1) return { refused: refused.backwards() };
  if (span > MAX_DAYS) return { refused: l10n.t('At most {0} days at once.', MAX_DAYS) };
  return { days: { fromDay: from as string, toDay: to as string } };
}

/** A `YYYY-MM-DD` that names a day of the calendar (not the 31st of February), at local midnight. */
function calendarDay(text: unknown): Date | undefined {
  const match = typeof text === 'string' ? DAY.exec(text) : null;
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(year, month - 1, day);
  return date.getFullYear() === year && date.getMonth() === month - 1 && date.getDate() === day ? date : undefined;
}

/**
 * What a write tool asks before anything is sent: in chat under the tool's call (`message`), else in this extension's
 * own modal question (`detail`).
 */
export interface ToolConfirmation {
  readonly title: string;
  /** Markdown, for the chat: each name from the agent or the app escaped. */
  readonly message: string;
  /** Plain text, for a modal question's detail: each name as given (cut, controls removed). */
  readonly detail: string;
}

/** A name from the agent or the app, in quotes, as one of the two markups shows it. */
type Quote = (text: string) => string;

/** The most characters of a name, note or date from the agent that a confirmation shows. */
const SHOWN_MAX = 200;

const inMarkdown: Quote = (text) => `"${escapeMarkdown(displayText(text, SHOWN_MAX))}"`;
const asText: Quote = (text) => `"${displayText(text, SHOWN_MAX)}"`;

/** The question in both markups, from its words with names quoted by `quote`. */
function confirmation(title: string, words: (quote: Quote) => string): ToolConfirmation {
  return { title, message: words(inMarkdown), detail: words(asText) };
}

/** Start: the activity by name (created only when asked) or by id (with the name this window knows it by). */
export function startConfirmation(request: ActivitySelector, knownName: string | undefined): ToolConfirmation {
  return confirmation(
    l10n.t('Start tracking?'),
    (quote) =>
      `${l10n.t('Starts tracking: {0}', selected(request, knownName, quote))} ${l10n.t('What runs now stops.')}`,
  );
}

/** Stop: what the last poll saw running, where the status bar may name it. */
export function stopConfirmation(running: string | undefined): ToolConfirmation {
  return confirmation(l10n.t('Stop tracking?'), (quote) =>
    running === undefined
      ? l10n.t('Stops what the time tracker runs now.')
      : l10n.t('Stops {0} in the time tracker.', quote(running)),
  );
}

/**
 * Log: the activity, the minutes and the note exactly as they will be sent; when the agent asked for another day, that
 * the app takes no date for an entry and records it now.
 */
export function logConfirmation(
  request: EntryRequest,
  knownName: string | undefined,
  otherDay: string | undefined,
): ToolConfirmation {
  return confirmation(l10n.t('Log time?'), (quote) => {
    const what = l10n.t('Logs {duration} ({minutes} minutes) on: {activity}', {
      duration: formatMinutes(request.durationMinutes),
      minutes: request.durationMinutes,
      activity: selected(request, knownName, quote),
    });
    const note =
      request.note === undefined || request.note.trim() === ''
        ? l10n.t('No note.')
        : l10n.t('Note: {0}', quote(request.note.trim()));
    const day = otherDay === undefined ? [] : [recordedNow(otherDay, quote)];
    return [...day, what, note].join('\n\n');
  });
}

/** The service takes no date for an entry: asked for another day, it still records the time now. */
export function recordedNow(otherDay: string, quote: Quote = inMarkdown): string {
  return l10n.t(
    'The app takes no date for an entry: it records this time now, today, not on {0}. Go on only if that is what you want.',
    quote(otherDay),
  );
}

/** The `date` the agent gave Log Time, when it names a day other than `today` (`YYYY-MM-DD`, this computer's). */
export function otherDayAsked(input: unknown, today: string): string | undefined {
  const date = typeof input === 'object' && input !== null ? (input as Record<string, unknown>).date : undefined;
  if (typeof date !== 'string') return undefined;
  const asked = date.trim();
  return asked === '' || asked === today || asked.toLowerCase() === 'today' ? undefined : asked;
}

function selected(request: ActivitySelector, knownName: string | undefined, quote: Quote): string {
  if (request.activityID !== undefined) {
    const id = quote(request.activityID);
    return knownName === undefined
      ? l10n.t('the activity with the id {0}.', id)
      : l10n.t('{name} (the activity with the id {id}).', { name: quote(knownName), id });
  }
  const name = quote(request.name ?? '');
  return request.createIfMissing === true
    ? l10n.t('{0}, created if the app has no activity of that name.', name)
    : l10n.t('{0}, an activity the app already has.', name);
}

/** What a command said, as one plain text: its status lines' icons and its bold taken off, names left escaped. */
export function plainSaid(said: readonly string[]): string {
  return said
    .map((sentence) => plainTooltip(sentence))
    .filter((sentence) => sentence !== '')
    .join('\n');
}

/** `chat.tools.autoApprove` as VS Code's settings hold it, by where it is set: `true`, or `{ "<tool>": true }`. */
export interface AutoApproveValues {
  readonly globalValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

/**
 * Whether a workspace's settings (a repository's `.vscode/settings.json`) turn on VS Code's auto-approval of `tool`
 * where the user's own settings do not: VS Code then asks nothing in chat, so this extension asks itself. The user's
 * own `true` is the user's decision.
 */
export function approvedByWorkspaceOnly(values: AutoApproveValues | undefined, tool: string): boolean {
  const approves = (value: unknown): boolean =>
    value === true ||
    (typeof value === 'object' && value !== null && (value as Record<string, unknown>)[tool] === true);
  if (values === undefined || approves(values.globalValue)) return false;
  return approves(values.workspaceFolderValue ?? values.workspaceValue);
}

/** The search tool's `{ "query": "…" }`: a name, or part of one, that an activity can have; or why not. */
export function readQueryInput(input: unknown): { readonly query: string } | { readonly refused: string } {
  const query = typeof input === 'object' && input !== null ? (input as Record<string, unknown>).query : undefined;
  if (typeof query !== 'string' || query.trim() === '')
    return { refused: l10n.t('"query" must be the name of an activity, or a part of one.') };
  const tooLong = typedTooLong(query);
  return tooLong === undefined ? { query: query.trim() } : { refused: `"query": ${tooLong}.` };
}

/** Where the activities listed come from: the app's answer, or what it named before (with why it did not answer). */
export type ActivitiesFrom = { readonly kind: 'app' } | { readonly kind: 'known'; readonly why: string };

/** The activities found for `query`, a line each with its id and group, for a model to pick from and start by id. */
export function activityLines(query: string, found: readonly PickableActivity[], from: ActivitiesFrom): string {
  const asked = inMarkdown(query);
  const lines = found.map(({ activityName, activityID, groupName }) => {
    const group = typeof groupName === 'string' ? l10n.t(', group {0}', inMarkdown(groupName)) : '';
    return `- ${inMarkdown(activityName)} (id ${inMarkdown(activityID)}${group})`;
  });
  if (from.kind === 'app')
    return lines.length === 0
      ? l10n.t('No activity of the app matches {0}.', asked)
      : [l10n.t('Activities of the app that match {0}:', asked), ...lines].join('\n');
  const heading =
    lines.length === 0
      ? l10n.t('None of the activities the app named before matches {0}.', asked)
      : l10n.t('Activities the app named before that match {0}:', asked);
  return [`${from.why} ${heading}`, ...lines].join('\n');
}
