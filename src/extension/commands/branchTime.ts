/**
 * The "Time by Branch" view's commands: Copy Summary (plain text or Markdown) of the period,
 * repository or branch a row's context menu is opened on, or of the period asked for from the
 * view's title or the palette; Export as CSV, a period (or every kept day) written to the file the
 * save dialog names through the workspace file system (so a remote window writes where its dialog
 * pointed; the CSV itself is src/tracker/branchTime/ledgerCsv.ts); and Clear History, which asks
 * first. None of them sends anything to the app: the ledger is a view of time the app already has.
 */
import { homedir } from 'node:os';
import * as vscode from 'vscode';
import { errorMessage } from '../../platform/errors';
import { COMMANDS } from '../../tracker/ids';
import { summaryText, type SummaryFormat, type SummaryScope } from '../../tracker/branchTime/copySummary';
import { csvFileName, ledgerCsv, type LedgerCsv } from '../../tracker/branchTime/ledgerCsv';
import type { TicketKeys } from '../../tracker/branchTime/ticketKeys';
import {
  roundingRule,
  ticketWeek,
  ticketWeekCsv,
  ticketWeekTable,
  ticketWeekText,
} from '../../tracker/branchTime/ticketWeek';
import { readPeriodInput } from '../../tracker/agentTools/toolAnswers';
import { PERIODS, periodDays, periodLabel, type DayRange, type PeriodKind } from '../../tracker/branchTime/summary';
import { askDays, confirmClear, exportPeriodLabel, pickPeriod, type ExportPeriod } from '../branchTime/periodPick';
import { pickOne } from '../pickers/pickOne';
import type { CommandServices } from './services';

/** What a copy covers: a period, and within it a repository or a branch. */
interface CopyTarget {
  readonly kind: PeriodKind;
  readonly scope?: SummaryScope;
}

export async function copyBranchSummary(
  services: CommandServices,
  node: unknown,
  format: SummaryFormat,
): Promise<void> {
  const { branchTime, messages } = services;
  if (
    !ledgerOn(
      services,
      vscode.l10n.t('Tracking by branch is off (timeTracker.branchTime.enabled), so there is no summary to copy.'),
    )
  )
    return;
  await branchTime.ledger.refresh();
  const target = targetOf(node) ?? (await askPeriod(services, format));
  if (target === undefined) return;
  const text = summaryText(branchTime.summary(target.kind), branchTime.ticketKeys(), format, target.scope);
  if (text === undefined) {
    void messages.info(nothingYet(target.kind));
    return;
  }
  await vscode.env.clipboard.writeText(text);
  messages.status(vscode.l10n.t('Copied the summary of {0}.', periodLabel(target.kind)));
}

/**
 * The period's summary in plain text as Copy Summary gives it, read afresh from the ledger (the time-by-branch tool,
 * ./tools.ts); or the sentence that says why there is none.
 */
export async function plainSummary(services: CommandServices, what: PeriodKind | DayRange): Promise<string> {
  const { branchTime } = services;
  if (!branchTime.enabled)
    return vscode.l10n.t('Tracking by branch is off (timeTracker.branchTime.enabled), so there is no time by branch.');
  await branchTime.ledger.refresh();
  const summary = typeof what === 'string' ? branchTime.summary(what) : branchTime.summaryOfDays(what);
  const text = summaryText(summary, branchTime.ticketKeys(), 'plain');
  if (text !== undefined) return text;
  return typeof what === 'string' ? nothingYet(what) : nothingOnDays(what);
}

function nothingOnDays(days: DayRange): string {
  return vscode.l10n.t('No time by branch from {from} to {to}: it is counted while the app tracks an activity.', {
    from: days.fromDay,
    to: days.toDay,
  });
}

/**
 * Copy Week by Ticket: the period's time by ticket and day, rounded by `timeTracker.branchTime.roundTo`, as the plain
 * lines worklog tools parse or a Markdown table. The period: a keybinding's `{ "period" }` or `{ "fromDay", "toDay" }`,
 * a period's row in the view, else asked, this week first.
 */
export async function copyWeekByTicket(services: CommandServices, args: unknown, shape: SummaryFormat): Promise<void> {
  const { branchTime, messages } = services;
  const off = vscode.l10n.t('Tracking by branch is off (timeTracker.branchTime.enabled), so there is no week to copy.');
  if (!ledgerOn(services, off)) return;
  await branchTime.ledger.refresh();
  const asked = await weekPeriod(services, args, shape);
  if (asked === undefined) return;
  const week = ticketWeek(
    branchTime.ledger.current.rows,
    asked.kind,
    asked.days,
    branchTime.ticketKeys(),
    services.settings().branchTime.roundTo,
  );
  const text = shape === 'markdown' ? ticketWeekTable(week) : ticketWeekText(week);
  if (text === undefined) {
    void messages.info(asked.kind === 'days' ? nothingOnDays(asked.days) : nothingYet(asked.kind));
    return;
  }
  await vscode.env.clipboard.writeText(text);
  messages.status(vscode.l10n.t('Copied the week by ticket of {0}.', periodLabel(asked.kind)));
}

/** The period a copy of the week by ticket covers; undefined when the pick was closed or the arguments refused. */
async function weekPeriod(
  services: CommandServices,
  args: unknown,
  shape: SummaryFormat,
): Promise<{ readonly kind: PeriodKind | 'days'; readonly days: DayRange } | undefined> {
  const fromView = targetOf(args)?.kind;
  const given = typeof args === 'object' && args !== null && fromView === undefined ? readPeriodInput(args) : undefined;
  if (given !== undefined && 'refused' in given) {
    void services.messages.error(vscode.l10n.t('Nothing was copied: {0}', given.refused));
    return undefined;
  }
  if (given !== undefined && 'days' in given) return { kind: 'days', days: given.days };
  const title =
    shape === 'markdown'
      ? vscode.l10n.t('Copy Week by Ticket as Markdown Table')
      : vscode.l10n.t('Copy Week by Ticket as Text');
  const kind =
    fromView ?? given?.period ?? (await pickPeriod(services.branchTime, { title, active: 'thisWeek', extra: 'days' }));
  if (kind !== 'days') return kind === undefined ? undefined : { kind, days: periodDays(kind, Date.now()) };
  const days = await askDays(title);
  return days === undefined ? undefined : { kind, days };
}

function nothingYet(kind: PeriodKind): string {
  return vscode.l10n.t(
    'No time by branch for {0} yet: it is counted while the app tracks an activity.',
    periodLabel(kind),
  );
}

export async function exportBranchTimeCsv(services: CommandServices, args: unknown): Promise<void> {
  const { branchTime, messages, log } = services;
  const keys = (): TicketKeys => branchTime.ticketKeys();
  const off = vscode.l10n.t(
    'Tracking by branch is off (timeTracker.branchTime.enabled), so there is nothing to export.',
  );
  if (!ledgerOn(services, off)) return;
  await branchTime.ledger.refresh();
  const period =
    periodOf(args) ??
    (await pickPeriod(branchTime, {
      title: vscode.l10n.t('Export Time by Branch as CSV'),
      active: services.branchTimeSelection(),
      extra: 'all',
    }));
  if (period === undefined) return;
  // A keybinding that names the period and not the lines means a line per ledger row, as before there was a choice.
  const byTicket = byTicketOf(args) ?? (periodOf(args) === undefined ? await pickCsvShape(services) : false);
  if (byTicket === undefined) return;
  const range = period === 'all' ? undefined : periodDays(period, Date.now());
  const csv = byTicket ? ticketCsv(services, range) : ledgerCsv(branchTime.ledger.current.rows, range, keys());
  if (csv === undefined) {
    void messages.info(
      vscode.l10n.t('No time by branch for {0}: there is nothing to export.', exportPeriodLabel(period)),
    );
    return;
  }
  const target = await vscode.window.showSaveDialog({
    title: vscode.l10n.t('Export Time by Branch as CSV'),
    saveLabel: vscode.l10n.t('Export'),
    defaultUri: vscode.Uri.joinPath(vscode.Uri.file(homedir()), csvFileName(range ?? csv.days, byTicket)),
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

/** The CSV by ticket and day (the figures of Copy Week by Ticket), with the days it has lines of. */
function ticketCsv(services: CommandServices, range: DayRange | undefined): LedgerCsv | undefined {
  const { branchTime } = services;
  const days = range ?? { fromDay: '0000-01-01', toDay: '9999-12-31' };
  const week = ticketWeek(
    branchTime.ledger.current.rows,
    'days',
    days,
    branchTime.ticketKeys(),
    services.settings().branchTime.roundTo,
  );
  const csv = ticketWeekCsv(week);
  const [first, last] = [week.days[0]?.day, week.days.at(-1)?.day];
  return csv && first !== undefined && last !== undefined
    ? { ...csv, days: { fromDay: first, toDay: last } }
    : undefined;
}

/** A line per ledger row, or by ticket and day; undefined when the pick was closed. */
async function pickCsvShape(services: CommandServices): Promise<boolean | undefined> {
  return pickOne<boolean>(
    [
      {
        value: false,
        label: vscode.l10n.t('By Day, Branch and Activity'),
        description: vscode.l10n.t('a line per ledger row, in seconds'),
      },
      {
        value: true,
        label: vscode.l10n.t('By Ticket and Day'),
        description: roundingRule(services.settings().branchTime.roundTo),
      },
    ],
    { title: vscode.l10n.t('Export Time by Branch as CSV'), placeholder: vscode.l10n.t('Which lines?'), active: false },
  );
}

/** `{ "by": "ticket" }` (or `"row"`) from a keybinding; anything else asks. */
function byTicketOf(args: unknown): boolean | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const { by } = args as { by?: unknown };
  return by === 'ticket' ? true : by === 'row' ? false : undefined;
}

/** `{ "period": "thisWeek" }` from a keybinding: a period, or `all`; anything else asks. */
function periodOf(args: unknown): ExportPeriod | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const { period } = args as { period?: unknown };
  return [...PERIODS, 'all' as const].find((candidate) => candidate === period);
}

export async function clearBranchHistory(services: CommandServices): Promise<void> {
  if (!(await confirmClear())) return;
  await services.branchTime.ledger.clear();
  services.log.info(`${COMMANDS.clearBranchHistory}: the time-by-branch ledger was cleared.`);
  services.messages.status(vscode.l10n.t('Time by branch cleared.'));
}

/** Whether the ledger is on; off, says so with the setting's button. */
function ledgerOn(services: CommandServices, whyNot: string): boolean {
  if (services.branchTime.enabled) return true;
  void services.messages.info(whyNot, services.messages.actions.openSettings('timeTracker.branchTime.enabled'));
  return false;
}

/** From the view's title or the palette: which period, the one selected in the view first. */
async function askPeriod(services: CommandServices, format: SummaryFormat): Promise<CopyTarget | undefined> {
  const title =
    format === 'markdown' ? vscode.l10n.t('Copy Summary as Markdown') : vscode.l10n.t('Copy Summary as Text');
  const kind = await pickPeriod(services.branchTime, { title, active: services.branchTimeSelection() });
  return kind === undefined ? undefined : { kind };
}

/**
 * The node a row's context menu hands over (a period, a repository or a branch of it; an
 * activity's row copies its branch), or `{ kind }` from a keybinding's arguments; undefined for
 * anything else, and then the command asks.
 */
function targetOf(node: unknown): CopyTarget | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  const { kind, root, branch } = node as { kind?: unknown; root?: unknown; branch?: unknown };
  const period = PERIODS.find((candidate) => candidate === kind);
  if (period === undefined) return undefined;
  if (typeof root !== 'string') return { kind: period };
  return { kind: period, scope: typeof branch === 'string' ? { root, branch } : { root } };
}
