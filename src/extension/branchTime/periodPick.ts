/**
 * The questions the "Time by Branch" commands ask: which period (for Copy Summary from the view's
 * title or the palette, and for Export as CSV), and whether to clear every window's history. A
 * quick pick rather than a modal for the last, because a modal's default button (the one Enter
 * presses) is always the first action VS Code is given, never Cancel, and emptying every window's
 * ledger should take a deliberate choice.
 */
import * as vscode from 'vscode';
import { formatLedgerDuration, PERIODS, periodLabel, type PeriodKind } from '../../tracker/branchTime/summary';
import { pickOne, type Choice } from '../pickers/pickOne';
import type { BranchTime } from './branchTime';

/** A period of the view, or every day the ledger keeps (for the CSV). */
export type ExportPeriod = PeriodKind | 'all';

/** Which period, each with its total; the one selected in the view (else Today) is active. */
export function pickPeriod(
  branchTime: BranchTime,
  options: { readonly title: string; readonly active: PeriodKind | undefined; readonly withAll: boolean },
): Promise<ExportPeriod | undefined> {
  const items: Choice<ExportPeriod>[] = PERIODS.map((kind) => {
    const summary = branchTime.summary(kind);
    return {
      value: kind,
      label: periodLabel(kind),
      description: summary.repositories.length === 0 ? vscode.l10n.t('nothing yet') : formatLedgerDuration(summary),
    };
  });
  if (options.withAll)
    items.push({
      value: 'all',
      label: exportPeriodLabel('all'),
      description: vscode.l10n.t('every day the ledger keeps'),
    });
  return pickOne(items, {
    title: options.title,
    placeholder: vscode.l10n.t('Which period?'),
    active: options.active ?? 'today',
  });
}

export function exportPeriodLabel(period: ExportPeriod): string {
  return period === 'all' ? vscode.l10n.t('All Kept Days') : periodLabel(period);
}

/** Clear or keep: Cancel comes first and is active, so Enter keeps the history. */
export function confirmClear(): Promise<boolean> {
  const items: Choice<boolean>[] = [
    { value: false, label: vscode.l10n.t('Cancel'), description: vscode.l10n.t('keep the history') },
    {
      value: true,
      label: `$(trash) ${vscode.l10n.t('Clear History')}`,
      detail: vscode.l10n.t(
        'Every window on this computer loses its time by branch. The app keeps its own time; only this ledger is emptied.',
      ),
    },
  ];
  return pickOne(items, {
    title: vscode.l10n.t('Clear the time by branch of every window on this computer?'),
    placeholder: vscode.l10n.t('Enter keeps the history'),
    active: false,
  }).then((clear) => clear === true);
}
