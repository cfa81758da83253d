/**
 * Copy Week by Ticket's figures: the ledger's rows of a period grouped by ticket, then day, the unit a worklog bills.
 * A branch that names a ticket (./ticketKeys.ts) counts under the ticket, with every other branch of that ticket; one
 * that names none under its branch name (with its repository where several repositories have a branch of that name).
 * Each ticket and day is rounded once, by `timeTracker.branchTime.roundTo`; the day's and the period's totals add the
 * rounded figures up, as an invoice does, so the plain lines, the Markdown table and the CSV give the same figures.
 * Pure: rows, tickets and the rule in, figures and text out.
 */
import * as l10n from '@vscode/l10n';
import { displayText } from '../../platform/outsideText';
import { branchKey, pathKey } from '../../platform/pathKey';
import type { LedgerRow } from './ledgerBook';
import { markdownEscape } from './copySummary';
import { csvText } from './ledgerCsv';
import type { RoundTo } from '../settings/settingBounds';
import { periodLabel, type DayRange, type PeriodSummary } from './summary';
import { rememberingKeys, type TicketKeys } from './ticketKeys';

/** The longest activity name or branch shown in a line; the ledger keeps them whole. */
const MAX_NAME_LENGTH = 80;

/**
 * The minutes billed for `ms`, counted in whole seconds first (so that a fraction of a second does not bill another
 * unit): to the nearest minute for 1, else up to the next multiple of `roundTo`; no time bills nothing.
 */
export function billedMinutes(ms: number, roundTo: RoundTo): number {
  const seconds = Math.round(ms / 1000);
  if (roundTo === 1) return Math.round(seconds / 60);
  return Math.ceil(seconds / (roundTo * 60)) * roundTo;
}

/** One ticket (or branch without one) on one day. */
export interface TicketDay {
  readonly day: string;
  /** The ticket key, or the branch name (and its repository) where the branch names none. */
  readonly label: string;
  readonly ms: number;
  readonly minutes: number;
  /** The activities' names, most time first. */
  readonly activities: readonly string[];
}

export interface TicketWeek {
  readonly kind: PeriodSummary['kind'];
  readonly fromDay: string;
  readonly toDay: string;
  readonly roundTo: RoundTo;
  /** By day, then most time first. */
  readonly cells: readonly TicketDay[];
  /** The days with time, in order, each with the sum of its cells' minutes. */
  readonly days: readonly { readonly day: string; readonly minutes: number }[];
  readonly minutes: number;
}

export function ticketWeek(
  rows: readonly LedgerRow[],
  kind: PeriodSummary['kind'],
  { fromDay, toDay }: DayRange,
  tickets: TicketKeys,
  roundTo: RoundTo,
  platform: NodeJS.Platform = process.platform,
): TicketWeek {
  const inRange = rows.filter((row) => row.day >= fromDay && row.day <= toDay && row.ms > 0);
  const keyOf = rememberingKeys(tickets);
  const labelOf = branchLabels(inRange, platform);
  const cells = new Map<string, { day: string; label: string; ms: number; byActivity: Map<string, ActivityTime> }>();
  for (const row of inRange) {
    const ticket = keyOf(row.branch, row.ignoresCase === true);
    const label = ticket ?? labelOf(row);
    const key = `${row.day}\n${ticket === undefined ? `b:${label}` : `t:${ticket}`}`;
    const cell = cells.get(key) ?? { day: row.day, label, ms: 0, byActivity: new Map<string, ActivityTime>() };
    cell.ms += row.ms;
    const activityKey = row.activityID.toLowerCase();
    const activity = cell.byActivity.get(activityKey) ?? { name: row.activityName, ms: 0, lastMs: 0 };
    activity.ms += row.ms;
    // The name the user sees now: the latest row's (renamed in the app).
    if (row.lastMs >= activity.lastMs) [activity.name, activity.lastMs] = [row.activityName, row.lastMs];
    cell.byActivity.set(activityKey, activity);
    cells.set(key, cell);
  }
  const sorted = [...cells.values()]
    .map(({ day, label, ms, byActivity }) => ({
      day,
      label,
      ms,
      minutes: billedMinutes(ms, roundTo),
      activities: [...byActivity.values()].sort((a, b) => b.ms - a.ms).map((activity) => activity.name),
    }))
    .sort((a, b) => compare(a.day, b.day) || b.ms - a.ms || compare(a.label, b.label));
  const days = [...new Set(sorted.map((cell) => cell.day))].map((day) => ({
    day,
    minutes: sum(sorted.filter((cell) => cell.day === day)),
  }));
  return { kind, fromDay, toDay, roundTo, cells: sorted, days, minutes: sum(sorted) };
}

interface ActivityTime {
  name: string;
  ms: number;
  lastMs: number;
}

/** A branch's name as a label: with its repository where another repository of the period has a branch so named. */
function branchLabels(rows: readonly LedgerRow[], platform: NodeJS.Platform): (row: LedgerRow) => string {
  const roots = new Map<string, Set<string>>();
  const nameKey = (row: LedgerRow): string => branchKey(row.branch, row.ignoresCase === true);
  for (const row of rows)
    roots.set(nameKey(row), (roots.get(nameKey(row)) ?? new Set()).add(pathKey(row.root, platform)));
  return (row) => {
    const branch = displayText(row.branch, MAX_NAME_LENGTH);
    return (roots.get(nameKey(row))?.size ?? 0) > 1
      ? `${branch} (${displayText(row.repository, MAX_NAME_LENGTH)})`
      : branch;
  };
}

/** `1h30m`, `45m`, `2h`: as worklog tools parse a time. */
export function worklogDuration(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest}m`;
  return rest === 0 ? `${hours}h` : `${hours}h${rest}m`;
}

/** The rule the figures follow, said in the copied text. */
export function roundingRule(roundTo: RoundTo): string {
  return roundTo === 1
    ? l10n.t('to the nearest minute per ticket and day')
    : l10n.t('rounded up to {0} minutes per ticket and day', roundTo);
}

function heading(week: TicketWeek): string {
  const range = week.fromDay === week.toDay ? week.fromDay : `${week.fromDay} – ${week.toDay}`;
  return l10n.t('Week by ticket, {period} ({range}): {total}, {rule}', {
    period: periodLabel(week.kind),
    range,
    total: worklogDuration(week.minutes),
    rule: roundingRule(week.roundTo),
  });
}

/**
 * The plain lines worklog tools parse, `2026-12-01 PROJ-123 1h30m Write docs, Code review`, a day's lines followed by
 * its total; under a heading with the period's total and the rule. `undefined` when the period has no time.
 */
export function ticketWeekText(week: TicketWeek): string | undefined {
  if (week.cells.length === 0) return undefined;
  const lines = week.days.flatMap(({ day, minutes }) => [
    ...week.cells
      .filter((cell) => cell.day === day)
      .map((cell) => `${day} ${cell.label} ${worklogDuration(cell.minutes)} ${activityNames(cell)}`.trimEnd()),
    l10n.t('{day} total {duration}', { day, duration: worklogDuration(minutes) }),
  ]);
  return [heading(week), ...lines, ''].join('\n');
}

/** A Markdown table, a row a ticket and a column a day with time, each with its total; `undefined` without time. */
export function ticketWeekTable(week: TicketWeek): string | undefined {
  if (week.cells.length === 0) return undefined;
  const labels = [...new Set(week.cells.map((cell) => cell.label))];
  const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  const figure = (minutes: number | undefined): string => (minutes === undefined ? '' : worklogDuration(minutes));
  const total = l10n.t('Total');
  const lines = [
    row([l10n.t('Ticket'), ...week.days.map(({ day }) => weekdayColumn(day)), total]),
    row(['---', ...week.days.map(() => '---:'), '---:']),
    ...labels.map((label) => {
      const mine = week.cells.filter((cell) => cell.label === label);
      return row([
        markdownEscape(label),
        ...week.days.map(({ day }) => figure(mine.find((cell) => cell.day === day)?.minutes)),
        `**${figure(sum(mine))}**`,
      ]);
    }),
    row([`**${total}**`, ...week.days.map(({ minutes }) => `**${figure(minutes)}**`), `**${figure(week.minutes)}**`]),
  ];
  return [`**${markdownEscape(heading(week))}**`, '', ...lines, ''].join('\n');
}

/** The same figures as CSV (./ledgerCsv.ts's rules): a line a ticket and day, with its minutes and activities. */
export function ticketWeekCsv(week: TicketWeek): { readonly text: string; readonly rows: number } | undefined {
  if (week.cells.length === 0) return undefined;
  const header = ['date', 'ticket', 'minutes', 'activities', 'rounding'];
  const rule = roundingRule(week.roundTo);
  const lines = week.cells.map((cell) => [cell.day, cell.label, String(cell.minutes), activityNames(cell), rule]);
  return { text: csvText(header, lines), rows: lines.length };
}

/** `Mon 12-01`: the weekday, then the month and day, of a `YYYY-MM-DD`. */
function weekdayColumn(day: string): string {
  const [year, month, date] = day.split('-').map(Number);
  const weekday = new Date(year ?? 0, (month ?? 1) - 1, date ?? 1).getDay();
  const names = [
    l10n.t('Sun'),
    l10n.t('Mon'),
    l10n.t('Tue'),
    l10n.t('Wed'),
    l10n.t('Thu'),
    l10n.t('Fri'),
    l10n.t('Sat'),
  ];
  return `${names[weekday] ?? ''} ${day.slice(5)}`;
}

function activityNames(cell: TicketDay): string {
  return cell.activities.map((name) => displayText(name, MAX_NAME_LENGTH)).join(', ');
}

function sum(cells: readonly { readonly minutes: number }[]): number {
  return cells.reduce((total, cell) => total + cell.minutes, 0);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
