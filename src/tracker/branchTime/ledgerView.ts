/**
 * What the "Time by Branch" view holds: the three periods, or nothing, and then which of its
 * welcome texts explains why. Branch names, activity names and minutes sit on screen for as long
 * as the view is open, so a private status bar (timeTracker.statusBar.private, for screen
 * sharing) empties it too; Copy Summary, run on purpose, still copies. Pure: the adapter is
 * src/extension/branchTime/branchTimeView.ts, the texts are package.json's viewsWelcome.
 */
import { PERIODS, type PeriodKind } from './summary';

export type LedgerViewContent =
  /** timeTracker.branchTime.enabled is off: nothing is recorded. */
  | { readonly kind: 'off' }
  /** The status bar is private: the view names nothing and says how to show it again. */
  | { readonly kind: 'hiddenWhilePrivate' }
  /** No time yet: the welcome text explains the view instead of three empty periods. */
  | { readonly kind: 'empty' }
  | { readonly kind: 'periods'; readonly periods: readonly PeriodKind[] };

export function ledgerViewContent(facts: {
  readonly enabled: boolean;
  readonly isPrivate: boolean;
  readonly hasTime: boolean;
}): LedgerViewContent {
  if (!facts.enabled) return { kind: 'off' };
  if (facts.isPrivate) return { kind: 'hiddenWhilePrivate' };
  if (!facts.hasTime) return { kind: 'empty' };
  return { kind: 'periods', periods: PERIODS };
}
