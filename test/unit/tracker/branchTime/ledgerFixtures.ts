/** What the ledger's unit tests share: a fixed morning, one activity, places and spans on it. */
import type { LedgerActivity, PollObservation, Span, WorkPlace } from '../../../../src/tracker/branchTime/attribution';
import type { LedgerBook } from '../../../../src/tracker/branchTime/ledgerBook';

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
/** 25 November 2026, 09:00 local time. */
export const T0 = new Date(2026, 10, 25, 9, 0, 0).getTime();
export const dev: LedgerActivity = { activityID: 'A1', activityName: 'Development' };
export const tracking: PollObservation = { kind: 'tracking', activity: dev, onBreak: false };
/** A branch of a repository, named as the folder's last part. */
export const place = (branch: string, root = '/repos/api'): WorkPlace => ({
  root,
  repository: root.split('/').at(-1)!,
  branch,
});
export const span = (branch: string, from: number, to: number): Span => ({
  startMs: from,
  endMs: to,
  place: place(branch),
  activity: dev,
});
/** The book's time, on one branch or on all. */
export const total = (book: LedgerBook, branch?: string): number =>
  book.rows.filter((row) => branch === undefined || row.branch === branch).reduce((sum, row) => sum + row.ms, 0);
