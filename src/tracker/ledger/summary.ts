/**
 * What the "Time by Branch" view and Copy Summary show: the ledger's rows for one period (today,
 * this week, last week), grouped repository → branch → activity, with the view's durations to the
 * minute (Copy Summary's text, whose lines add up, is copySummary.ts). Pure: rows and the clock in,
 * data and text out; the view (src/extension) only renders it.
 */
import * as l10n from '@vscode/l10n';
import { formatMinutes } from '../view/duration';
import { dayOf, type LedgerRow } from './ledgerBook';

export type PeriodKind = 'today' | 'thisWeek' | 'lastWeek';

export const PERIODS: readonly PeriodKind[] = ['today', 'thisWeek', 'lastWeek'];

interface Totals {
  readonly ms: number;
  readonly firstMs: number;
  readonly lastMs: number;
}

export interface ActivitySummary extends Totals {
  readonly activityID: string;
  readonly activityName: string;
}

export interface BranchSummary extends Totals {
  readonly root: string;
  readonly repository: string;
  readonly branch: string;
  /** Most time first. */
  readonly activities: readonly ActivitySummary[];
}

export interface RepositorySummary extends Totals {
  readonly root: string;
  readonly repository: string;
  readonly branches: readonly BranchSummary[];
}

export interface PeriodSummary {
  readonly kind: PeriodKind;
  /** The first and last local day of the period, `YYYY-MM-DD`. */
  readonly fromDay: string;
  readonly toDay: string;
  readonly ms: number;
  readonly repositories: readonly RepositorySummary[];
}

/** The period's first and last day; weeks start on Monday. */
export function periodDays(kind: PeriodKind, nowMs: number): { fromDay: string; toDay: string } {
  const now = new Date(nowMs);
  const day = (offset: number): string => dayOf(new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset).getTime());
  const sinceMonday = (now.getDay() + 6) % 7;
  switch (kind) {
    case 'today':
      return { fromDay: day(0), toDay: day(0) };
    case 'thisWeek':
      return { fromDay: day(-sinceMonday), toDay: day(0) };
    case 'lastWeek':
      return { fromDay: day(-sinceMonday - 7), toDay: day(-sinceMonday - 1) };
  }
}

export function summarize(rows: readonly LedgerRow[], kind: PeriodKind, nowMs: number): PeriodSummary {
  const { fromDay, toDay } = periodDays(kind, nowMs);
  const inPeriod = rows.filter((row) => row.day >= fromDay && row.day <= toDay);
  const repositories = groupBy(inPeriod, (row) => row.root).map((repositoryRows) => {
    const branches = groupBy(repositoryRows, (row) => row.branch).map((branchRows) => {
      const activities = groupBy(branchRows, (row) => row.activityID.toLowerCase()).map((activityRows) => {
        const latest = latestOf(activityRows);
        return { activityID: latest.activityID, activityName: latest.activityName, ...totals(activityRows) };
      });
      const latest = latestOf(branchRows);
      return { root: latest.root, repository: latest.repository, branch: latest.branch, activities: byTime(activities), ...totals(branchRows) };
    });
    const latest = latestOf(repositoryRows);
    return { root: latest.root, repository: latest.repository, branches: byTime(branches), ...totals(repositoryRows) };
  });
  return { kind, fromDay, toDay, ms: totals(inPeriod).ms, repositories: byTime(repositories) };
}

/** Today's time on one place, for the status bar's tooltip. */
export function todayOnBranch(rows: readonly LedgerRow[], root: string, branch: string, nowMs: number): number {
  const today = dayOf(nowMs);
  return rows.filter((row) => row.day === today && row.root === root && row.branch === branch).reduce((sum, row) => sum + row.ms, 0);
}

/** To the minute: `2h 15m`, `45m`, `< 1m`. */
export function formatLedgerDuration(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  return minutes < 1 ? l10n.t('< 1m') : formatMinutes(minutes);
}

/** The exact total, for the hover: `2h 15m 7s` (`45s` under a minute). */
export function formatExactDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  return minutes === 0 ? `${seconds}s` : `${formatMinutes(minutes)} ${seconds % 60}s`;
}

export function periodLabel(kind: PeriodKind): string {
  switch (kind) {
    case 'today':
      return l10n.t('Today');
    case 'thisWeek':
      return l10n.t('This Week');
    case 'lastWeek':
      return l10n.t('Last Week');
  }
}

function totals(rows: readonly LedgerRow[]): Totals {
  return {
    ms: rows.reduce((sum, row) => sum + row.ms, 0),
    firstMs: Math.min(...rows.map((row) => row.firstMs)),
    lastMs: Math.max(...rows.map((row) => row.lastMs)),
  };
}

function groupBy(rows: readonly LedgerRow[], key: (row: LedgerRow) => string): LedgerRow[][] {
  const groups = new Map<string, LedgerRow[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return [...groups.values()];
}

/** The most recent row: its names are the ones the user sees now (an activity renamed in the app). */
function latestOf(rows: readonly LedgerRow[]): LedgerRow {
  return rows.reduce((latest, row) => (row.lastMs > latest.lastMs ? row : latest));
}

function byTime<T extends Totals>(items: T[]): T[] {
  return items.sort((a, b) => b.ms - a.ms || a.firstMs - b.firstMs);
}
