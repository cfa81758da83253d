/**
 * The ledger as CSV for a timesheet tool or a spreadsheet: one line per ledger row (a day, a
 * repository, a branch and an activity) with its whole seconds. RFC 4180: comma-separated, CRLF line
 * ends, a field with a comma, a double quote, CR or LF in double quotes with its quotes doubled.
 * Branch, repository and activity names come from outside (a repository's branches, the app's
 * activities), and a spreadsheet runs a cell that starts with `=`, `+`, `-`, `@`, a tab or a CR as a
 * formula (CSV injection): such a field gets a leading apostrophe, which spreadsheets show as text
 * and which a reader strips back easily; numbers and dates are ours and never start so. The text
 * opens with a byte-order mark: without one Excel reads UTF-8 as the system's code page and shows
 * `Überstunden` as `Ãœberstunden`; every other reader skips it. Pure.
 */
import type { LedgerRow } from './ledgerBook';
import { rememberingKeys, type TicketKeys } from './ticketKeys';

export const CSV_HEADER = ['date', 'repository', 'branch', 'ticket', 'activity', 'seconds'] as const;
const BYTE_ORDER_MARK = '\uFEFF';

/** The days a CSV covers, `YYYY-MM-DD` both included; none: every day the ledger keeps. */
export interface DayRange {
  readonly fromDay: string;
  readonly toDay: string;
}

export interface LedgerCsv {
  /** The file's whole content, byte-order mark included. */
  readonly text: string;
  /** Lines after the header. */
  readonly rows: number;
  /** The first and last day with a line (for a file name when every kept day is exported). */
  readonly days: DayRange;
}

/** The CSV of the rows in `range`, by day, repository, branch and activity; `undefined` when none is. */
export function ledgerCsv(
  rows: readonly LedgerRow[],
  range: DayRange | undefined,
  tickets: TicketKeys,
): LedgerCsv | undefined {
  const inRange = rows.filter((row) => range === undefined || (row.day >= range.fromDay && row.day <= range.toDay));
  if (inRange.length === 0) return undefined;
  const sorted = [...inRange].sort(
    (a, b) =>
      compare(a.day, b.day) ||
      compare(a.repository, b.repository) ||
      compare(a.root, b.root) ||
      compare(a.branch, b.branch) ||
      compare(a.activityName, b.activityName),
  );
  const keyOf = rememberingKeys(tickets);
  const lines = sorted.map((row) => [
    row.day,
    row.repository,
    row.branch,
    keyOf(row.branch, row.ignoresCase === true) ?? '',
    row.activityName,
    String(Math.round(row.ms / 1000)),
  ]);
  const days = { fromDay: sorted[0]?.day ?? '', toDay: sorted.at(-1)?.day ?? '' };
  return { text: csvText(CSV_HEADER, lines), rows: lines.length, days };
}

/** A CSV file's whole content, byte-order mark included: the header, then a line each, fields made by csvField. */
export function csvText(header: readonly string[], lines: readonly (readonly string[])[]): string {
  return (
    BYTE_ORDER_MARK +
    [header, ...lines]
      .map((fields) => fields.map(csvField).join(','))
      .concat('')
      .join('\r\n')
  );
}

/** One field: neutralized if a spreadsheet would run it, quoted if it holds a separator, a quote or a line break. */
export function csvField(value: string): string {
  const neutral = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(neutral) ? `"${neutral.replace(/"/g, '""')}"` : neutral;
}

/**
 * The file name a save dialog proposes: `time-by-branch-2026-11-27.csv`, or from–to for several days; `time-by-ticket-`
 * for the lines by ticket and day.
 */
export function csvFileName(range: DayRange, byTicket = false): string {
  const name = byTicket ? 'time-by-ticket' : 'time-by-branch';
  return range.fromDay === range.toDay
    ? `${name}-${range.fromDay}.csv`
    : `${name}-${range.fromDay}-to-${range.toDay}.csv`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
