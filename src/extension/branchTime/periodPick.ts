/**
 * The questions the "Time by Branch" commands ask: which period (for Copy Summary from the view's
 * title or the palette, and for Export as CSV), and whether to clear every window's history. A
 * quick pick rather than a modal for the last, because a modal's default button (the one Enter
 * presses) is always the first action VS Code is given, never Cancel, and emptying every window's
 * ledger should take a deliberate choice.
 */
import * as vscode from 'vscode';
import { readTypedDays } from '../../tracker/agentTools/toolAnswers';
import { dayOf } from '../../tracker/branchTime/ledgerBook';
import {
  formatLedgerDuration,
  PERIODS,
  periodLabel,
  type DayRange,
  type PeriodKind,
} from '../../tracker/branchTime/summary';
import { pickOne, type Choice } from '../pickers/pickOne';
import type { BranchTime } from './branchTime';

/** A period of the view, or every day the ledger keeps (for the CSV). */
export type ExportPeriod = PeriodKind | 'all';

/**
 * Which period, each with its total; the one selected in the view (else Today) is active. `extra` adds every kept day
 * (the CSV) or days the user types next (the week by ticket: a sprint, a month).
 */
export function pickPeriod<Extra extends 'all' | 'days' = never>(
  branchTime: BranchTime,
  options: { readonly title: string; readonly active: PeriodKind | undefined; readonly extra?: Extra },
): Promise<PeriodKind | Extra | undefined> {
  const items: Choice<PeriodKind | Extra>[] = PERIODS.map((kind) => {
    const summary = branchTime.summary(kind);
    return {
      value: kind,
      label: periodLabel(kind),
      description: summary.repositories.length === 0 ? vscode.l10n.t('nothing yet') : formatLedgerDuration(summary),
    };
  });
  if (options.extra === 'all')
    items.push({
      value: options.extra,
      label: exportPeriodLabel('all'),
      description: vscode.l10n.t('every day the ledger keeps'),
    });
  if (options.extra === 'days')
    items.push({
      value: options.extra,
      label: vscode.l10n.t('Other Days…'),
      description: vscode.l10n.t('a day, or the first and the last'),
    });
  return pickOne(items, {
    title: options.title,
    placeholder: vscode.l10n.t('Which period?'),
    active: options.active ?? 'today',
  });
}

/**
 * The days typed after Other Days…, this month so far offered; undefined when the box is closed. VS Code refuses Enter
 * while validateInput answers an error, so a value that is no period keeps the box open with its sentence.
 */
export async function askDays(title: string, nowMs = Date.now()): Promise<DayRange | undefined> {
  const now = new Date(nowMs);
  for (let typed = `${dayOf(new Date(now.getFullYear(), now.getMonth(), 1).getTime())} ${dayOf(nowMs)}`; ;) {
    const value = await vscode.window.showInputBox({
      title,
      prompt: vscode.l10n.t('A day (2026-12-01), or the first and the last (2026-11-01 2026-11-30)'),
      value: typed,
      ignoreFocusOut: true,
      validateInput: (text) => {
        const read = readTypedDays(text);
        if ('refused' in read) return read.refused;
        const { fromDay: from, toDay: to } = read.days;
        return {
          message: vscode.l10n.t('From {from} to {to}.', { from, to }),
          severity: vscode.InputBoxValidationSeverity.Info,
        };
      },
    });
    if (value === undefined) return undefined;
    const read = readTypedDays(value);
    if ('days' in read) return read.days;
    typed = value;
  }
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
