/**
 * What the "Time by Branch" view and Copy Summary show: the ledger's rows for one period (today,
 * this week, last week), grouped repository → branch → activity, each with its whole minutes: the
 * period's total rounded once and shared down (./minuteShares.ts), so that the view's rows and
 * Copy Summary's lines (copySummary.ts) give the same figures and each adds up to the one above.
 * Pure: rows and the clock in, data and text out; the view (src/extension) only renders it.
 */
import * as l10n from '@vscode/l10n';
import { formatMinutes } from '../duration';
import { branchKey, pathKey } from '../../platform/pathKey';
import { placeOf, samePlace, type WorkPlace } from './attribution';
import { dayOf, type LedgerRow } from './ledgerBook';
import { roundedMinutes, shareMinutes } from './minuteShares';

export type PeriodKind = 'today' | 'thisWeek' | 'lastWeek';

export const PERIODS: readonly PeriodKind[] = ['today', 'thisWeek', 'lastWeek'];

/** A time and the whole minutes shown for it. */
export interface Minuted {
  readonly ms: number;
  /**
   * Its share of the period's total rounded once: what the view and Copy Summary show, so that
   * repositories add up to the period, branches to their repository, activities to their branch
   * (so a node may be off its own rounding, by less than a minute at each level).
   */
  readonly minutes: number;
}

interface Totals extends Minuted {
  readonly firstMs: number;
  readonly lastMs: number;
}

export interface ActivitySummary extends Totals {
  readonly activityID: string;
  readonly activityName: string;
}

export interface BranchSummary extends Totals, WorkPlace {
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
  /** The period's total, rounded once to the nearest minute. */
  readonly minutes: number;
  readonly repositories: readonly RepositorySummary[];
}

/** The period's first and last day; weeks start on Monday. */
export function periodDays(kind: PeriodKind, nowMs: number): { fromDay: string; toDay: string } {
  const now = new Date(nowMs);
  const day = (offset: number): string =>
    dayOf(new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset).getTime());
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

/**
 * Rows group by place as samePlace compares them on `platform` (./attribution.ts): a repository by
 * its root's pathKey, a branch case-folded where a row of its repository says it ignores case. A
 * repository and a branch are named as first written.
 */
export function summarize(
  rows: readonly LedgerRow[],
  kind: PeriodKind,
  nowMs: number,
  platform: NodeJS.Platform = process.platform,
): PeriodSummary {
  const { fromDay, toDay } = periodDays(kind, nowMs);
  const inPeriod = rows.filter((row) => row.day >= fromDay && row.day <= toDay);
  const ms = sumMs(inPeriod);
  const minutes = roundedMinutes(ms);
  const repositories = shared(
    minutes,
    groupBy(inPeriod, (row) => pathKey(row.root, platform)),
    (repositoryRows, repositoryMinutes) => {
      const ignoresCase = repositoryRows.some((row) => row.ignoresCase === true);
      const branches = shared(
        repositoryMinutes,
        groupBy(repositoryRows, (row) => branchKey(row.branch, ignoresCase)),
        (branchRows, branchMinutes) => {
          const activities = shared(
            branchMinutes,
            groupBy(branchRows, (row) => row.activityID.toLowerCase()),
            (activityRows) => {
              const latest = latestOf(activityRows);
              return { activityID: latest.activityID, activityName: latest.activityName };
            },
          );
          const first = firstOf(branchRows);
          return { ...placeOf(first, ignoresCase), activities };
        },
      );
      const first = firstOf(repositoryRows);
      return { root: first.root, repository: first.repository, branches };
    },
  );
  return { kind, fromDay, toDay, ms, minutes, repositories };
}

/** The summary's branch that `place` is (samePlace on `platform`), if it has time in the period. */
export function branchAt(
  summary: PeriodSummary,
  place: WorkPlace,
  platform: NodeJS.Platform = process.platform,
): BranchSummary | undefined {
  for (const repository of summary.repositories) {
    const branch = repository.branches.find((candidate) => samePlace(candidate, place, platform));
    if (branch !== undefined) return branch;
  }
  return undefined;
}

/**
 * The groups, most time first, each made with its share of `minutes` (in proportion to its time,
 * by the largest remainder, the earlier group first on a tie) and its totals.
 */
function shared<T>(
  minutes: number,
  groups: readonly LedgerRow[][],
  make: (rows: readonly LedgerRow[], minutes: number) => T,
): (T & Totals)[] {
  const sorted = groups
    .map((rows) => ({
      rows,
      ms: sumMs(rows),
      firstMs: Math.min(...rows.map((row) => row.firstMs)),
      lastMs: Math.max(...rows.map((row) => row.lastMs)),
    }))
    .sort((a, b) => b.ms - a.ms || a.firstMs - b.firstMs);
  const shares = shareMinutes(
    minutes,
    sorted.map((group) => group.ms),
  );
  return sorted.map(({ rows, ms, firstMs, lastMs }, index) => {
    const share = shares[index] ?? 0;
    return { ...make(rows, share), ms, minutes: share, firstMs, lastMs };
  });
}

/**
 * A node's minutes as the view and Copy Summary show them: `2h 15m`, `45m`; `< 1m` for some time
 * whose share is no minute, `0m` for none.
 */
export function formatLedgerDuration(node: Minuted): string {
  return node.minutes === 0 && node.ms > 0 ? l10n.t('< 1m') : formatMinutes(node.minutes);
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

function sumMs(rows: readonly LedgerRow[]): number {
  return rows.reduce((sum, row) => sum + row.ms, 0);
}

function groupBy(rows: readonly LedgerRow[], key: (row: LedgerRow) => string): LedgerRow[][] {
  const groups = new Map<string, LedgerRow[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), row]);
  return [...groups.values()];
}

/**
 * The row written first: a place's names are as first written (the repository opened under a path
 * in another case keeps one name).
 */
function firstOf(rows: readonly LedgerRow[]): LedgerRow {
  return rows.reduce((first, row) => (row.firstMs < first.firstMs ? row : first));
}

/** The most recent row: an activity's name is the one the user sees now (renamed in the app). */
function latestOf(rows: readonly LedgerRow[]): LedgerRow {
  return rows.reduce((latest, row) => (row.lastMs > latest.lastMs ? row : latest));
}
