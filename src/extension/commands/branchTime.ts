/**
 * The "Time by Branch" view's commands (issue 24): Copy Summary (plain text or Markdown) of the
 * period it is invoked on (today from the view's title or the palette), and Clear History. None of
 * them sends anything to the app: the ledger is a view of time the app already has.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../../tracker/ids';
import { summaryText, type SummaryFormat } from '../../tracker/ledger/copySummary';
import { PERIODS, periodLabel, type PeriodKind } from '../../tracker/ledger/summary';
import type { CommandServices } from './services';

export async function copyBranchSummary(services: CommandServices, node: unknown, format: SummaryFormat): Promise<void> {
  const { branchTime, messages } = services;
  if (!branchTime.enabled) {
    void messages.info(vscode.l10n.t('Tracking by branch is off (timeTracker.branchTime.enabled), so there is no summary to copy.'), {
      label: vscode.l10n.t('Open Settings'),
      run: () => vscode.commands.executeCommand('workbench.action.openSettings', 'timeTracker.branchTime.enabled'),
    });
    return;
  }
  await branchTime.ledger.refresh();
  const kind = periodOf(node);
  const text = summaryText(branchTime.summary(kind), branchTime.ticketMatcher(), format);
  if (text === undefined) {
    void messages.info(vscode.l10n.t('No time by branch for {0} yet: it is counted while the app tracks an activity.', periodLabel(kind)));
    return;
  }
  await vscode.env.clipboard.writeText(text);
  messages.status(vscode.l10n.t('Copied the summary of {0}.', periodLabel(kind)));
}

export async function clearBranchHistory(services: CommandServices): Promise<void> {
  const clear = vscode.l10n.t('Clear History');
  const chosen = await services.messages.ask(
    vscode.l10n.t('Clear the time by branch of every window on this computer? The app keeps its own time; only this ledger is emptied.'),
    { modal: true },
    clear,
  );
  if (chosen !== clear) return;
  await services.branchTime.ledger.clear();
  services.log.info(`${COMMANDS.clearBranchHistory}: the time-by-branch ledger was cleared.`);
  services.messages.status(vscode.l10n.t('Time by branch cleared.'));
}

/** The period node the context menu hands over; from the view's title or the palette, today. */
function periodOf(node: unknown): PeriodKind {
  if (typeof node !== 'object' || node === null) return 'today';
  const { kind } = node as { kind?: unknown };
  return PERIODS.find((period) => period === kind) ?? 'today';
}
