/**
 * Export Time by Branch as CSV: a period (or every kept day), a file from the save dialog, and the
 * ledger's rows of that period written there through the workspace file system (so a remote
 * window writes where its dialog pointed). The CSV itself is src/tracker/branchTime/ledgerCsv.ts.
 */
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { errorMessage } from '../../platform/errors';
import { COMMANDS } from '../../tracker/ids';
import { csvFileName, ledgerCsv } from '../../tracker/branchTime/ledgerCsv';
import { PERIODS, periodDays } from '../../tracker/branchTime/summary';
import { exportPeriodLabel, pickPeriod, type ExportPeriod } from '../branchTime/periodPick';
import { ledgerOn } from './branchTime';
import type { CommandServices } from './services';

export async function exportBranchTimeCsv(services: CommandServices, args: unknown): Promise<void> {
  const { branchTime, messages, log } = services;
  if (
    !ledgerOn(
      services,
      vscode.l10n.t('Tracking by branch is off (timeTracker.branchTime.enabled), so there is nothing to export.'),
    )
  )
    return;
  await branchTime.ledger.refresh();
  const period =
    periodOf(args) ??
    (await pickPeriod(branchTime, {
      title: vscode.l10n.t('Export Time by Branch as CSV'),
      active: services.branchTimeSelection(),
      withAll: true,
    }));
  if (period === undefined) return;
  const range = period === 'all' ? undefined : periodDays(period, Date.now());
  const csv = ledgerCsv(branchTime.ledger.current.rows, range, branchTime.ticketKeys());
  if (csv === undefined) {
    void messages.info(
      vscode.l10n.t('No time by branch for {0}: there is nothing to export.', exportPeriodLabel(period)),
    );
    return;
  }
  const target = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Export Time by Branch as CSV'),
    saveLabel: vscode.l10n.t('Export'),
    defaultUri: vscode.Uri.joinPath(vscode.Uri.file(homedir()), csvFileName(range ?? csv.days)),
    filters: { [vscode.l10n.t('CSV')]: ['csv'] },
  });
  if (target === undefined) return;
  const shown = target.scheme === 'file' ? target.fsPath : target.toString(true);
  try {
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(csv.text));
  } catch (error) {
    log.error(`${COMMANDS.exportBranchTimeCsv}: could not write ${shown}: ${errorMessage(error)}`);
    void messages.error(
      vscode.l10n.t('Could not write {file}: {reason}. Nothing was exported; choose another place.', {
        file: shown,
        reason: errorMessage(error),
      }),
      messages.actions.showLog(),
    );
    return;
  }
  log.info(`${COMMANDS.exportBranchTimeCsv}: wrote ${csv.rows} rows to ${shown}.`);
  const values = { count: csv.rows, period: exportPeriodLabel(period), file: shown };
  const said =
    csv.rows === 1
      ? vscode.l10n.t('Exported 1 row of time by branch ({period}) to {file}.', values)
      : vscode.l10n.t('Exported {count} rows of time by branch ({period}) to {file}.', values);
  void messages.info(said, {
    label: vscode.l10n.t('Open'),
    run: () => vscode.commands.executeCommand('vscode.open', target),
  });
}

/** `{ "period": "thisWeek" }` from a keybinding: a period, or `all`; anything else asks. */
function periodOf(args: unknown): ExportPeriod | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const { period } = args as { period?: unknown };
  return [...PERIODS, 'all' as const].find((candidate) => candidate === period);
}
