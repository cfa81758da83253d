/**
 * What the "Time by Branch" view and Copy Summary show: the ledger's rows for one period (today,
 * this week, last week), grouped repository → branch → activity, each with its whole minutes: its
 * own time to the nearest minute, a total its rows do not add up to said to be rounded
 * (./minuteShares.ts), so that the view's rows and Copy Summary's lines (copySummary.ts) give the
 * same figures and no row reads more than half a minute from its own time.
 * Pure: rows and the clock in, data and text out; the view (src/extension) only renders it.
 */
import * as l10n from '@vscode/l10n';
import { formatMinutes } from '../duration';
import { branchKey, pathKey } from '../../platform/pathKey';
import { placeOf, samePlace, type WorkPlace } from './attribution';
import { dayOf, type LedgerRow } from './ledgerBook';
import { roundedMinutes, totalMinutes, type TotalMinutes } from './minuteShares';

export type PeriodKind = 'today' | 'thisWeek' | 'lastWeek';

export const PERIODS: readonly PeriodKind[] = ['today', 'thisWeek', 'lastWeek'];

/** The local days a summary covers, `YYYY-MM-DD`, both included. */
export interface DayRange {
  readonly fromDay: string;
  readonly toDay: string;
}

/**
 * A time and the whole minutes shown for it: its own time to the nearest minute, what the view and
 * Copy Summary show; `approximate` where the rows under it add up to other minutes.
 */
export interface Minuted extends TotalMinutes {
  readonly ms: number;
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
  /** A period of the view, or `days` someone gave (the agent's time-by-branch tool). */
  readonly kind: PeriodKind | 'days';
  /** The first and last local day of the period, `YYYY-MM-DD`. */
  readonly fromDay: string;
  readonly toDay: string;
  readonly ms: number;
  readonly minutes: number;
  readonly approximate?: true;
  readonly repositories: readonly RepositorySummary[];
}

/** The period's first and last day; weeks start on Monday. */
export function periodDays(kind: PeriodKind, nowMs: number): DayRange {
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
  return summarizeDays(rows, kind, periodDays(kind, nowMs), platform);
}

/** The same for the days of `range`, whatever period they are. */
export function summarizeDays(
  rows: readonly LedgerRow[],
  kind: PeriodSummary['kind'],
  { fromDay, toDay }: DayRange,
  platform: NodeJS.Platform = process.platform,
): PeriodSummary {
  const inPeriod = rows.filter((row) => row.day >= fromDay && row.day <= toDay);
  const ms = sumMs(inPeriod);
  const repositories = grouped(
    groupBy(inPeriod, (row) => pathKey(row.root, platform)),
    (repositoryRows) => {
      const ignoresCase = repositoryRows.some((row) => row.ignoresCase === true);
      const branches = grouped(
        groupBy(repositoryRows, (row) => branchKey(row.branch, ignoresCase)),
        (branchRows) => {
          const activities = grouped(
            groupBy(branchRows, (row) => row.activityID.toLowerCase()),
            (activityRows) => {
              const latest = latestOf(activityRows);
              return {
                minutes: roundedMinutes(sumMs(activityRows)),
                activityID: latest.activityID,
                activityName: latest.activityName,
              };
            },
          );
          const first = firstOf(branchRows);
          return { ...placeOf(first, ignoresCase), ...over(sumMs(branchRows), activities), activities };
        },
      );
      const first = firstOf(repositoryRows);
      return { root: first.root, repository: first.repository, ...over(sumMs(repositoryRows), branches), branches };
    },
  );
  return { kind, fromDay, toDay, ms, ...over(ms, repositories), repositories };
}

/** The minutes of a total of `ms` over the rows shown under it. */
function over(ms: number, parts: readonly Minuted[]): TotalMinutes {
  return totalMinutes(
    ms,
    parts.map((part) => part.minutes),
  );
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

/** The groups, most time first (the earlier group first on a tie), each made with its minutes, and its totals. */
function grouped<T extends TotalMinutes>(
  groups: readonly LedgerRow[][],
  make: (rows: readonly LedgerRow[]) => T,
): (T & Totals)[] {
  return groups
    .map((rows) => ({
      ...make(rows),
      ms: sumMs(rows),
      firstMs: Math.min(...rows.map((row) => row.firstMs)),
      lastMs: Math.max(...rows.map((row) => row.lastMs)),
    }))
    .sort((a, b) => b.ms - a.ms || a.firstMs - b.firstMs);
}

/**
 * A node's minutes as the view and Copy Summary show them: `2h 15m`, `45m`; `< 1m` for some time
 * under half a minute, `0m` for none; `≈ 5m` for a total its rows do not add up to.
 */
export function formatLedgerDuration(node: Minuted): string {
  const shown = node.minutes === 0 && node.ms > 0 ? l10n.t('< 1m') : formatMinutes(node.minutes);
  return node.approximate === true ? l10n.t('≈ {0}', shown) : shown;
}

/** The exact total, for the hover: `2h 15m 7s` (`45s` under a minute). */
export function formatExactDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  return minutes === 0 ? `${seconds}s` : `${formatMinutes(minutes)} ${seconds % 60}s`;
}

export function periodLabel(kind: PeriodSummary['kind']): string {
  switch (kind) {
    case 'days':
      return l10n.t('Chosen Days');
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
