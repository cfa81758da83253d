/**
 * The branch-time part as the "Time by Branch" commands read it, over rows a test writes: on or
 * off, the ledger's rows and its refresh (counted), and the real pure summary and ticket keys.
 */
import type { BranchTime } from '../../../../../src/extension/branchTime/branchTime';
import { dayOf, EMPTY_BOOK, type LedgerRow } from '../../../../../src/tracker/branchTime/ledgerBook';
import { summarize } from '../../../../../src/tracker/branchTime/summary';
import { ticketKeys } from '../../../../../src/tracker/branchTime/ticketKeys';

export interface BranchTimeFake {
  readonly part: BranchTime;
  /** How many times the commands read the ledger again. */
  readonly refreshed: () => number;
}

export function branchTimeFake(enabled: boolean, rows: readonly LedgerRow[]): BranchTimeFake {
  let refreshed = 0;
  const part: Pick<BranchTime, 'enabled' | 'summary' | 'ticketKeys'> & {
    ledger: Pick<BranchTime['ledger'], 'refresh' | 'current'>;
  } = {
    enabled,
    ledger: {
      refresh: () => {
        refreshed++;
        return Promise.resolve();
      },
      current: { ...EMPTY_BOOK, rows },
    },
    summary: (kind) => summarize(rows, kind, Date.now()),
    ticketKeys: () => ticketKeys([]),
  };
  return { part: part as BranchTime, refreshed: () => refreshed };
}

/** 25 minutes of Review today on a branch that names the ticket PROJ-7. */
export function rowToday(): LedgerRow {
  const now = Date.now();
  return {
    root: '/work/shop',
    repository: 'shop',
    branch: 'feature/PROJ-7-login',
    activityID: 'a1',
    activityName: 'Review',
    day: dayOf(now),
    ms: 25 * 60_000,
    firstMs: now - 30 * 60_000,
    lastMs: now - 5 * 60_000,
  };
}
