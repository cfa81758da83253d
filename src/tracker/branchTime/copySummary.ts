/**
 * Copy Summary's text: what a user pastes into a timesheet or a ticket. A line a branch (the ticket
 * key when the branch names one, ./ticketKeys.ts; the repository when several appear) with its
 * minutes, and under it a line an activity with its minutes, the minutes the view shows; plain
 * text or Markdown. Pure.
 */
import * as l10n from '@vscode/l10n';
import { formatLedgerDuration, periodLabel, type BranchSummary, type PeriodSummary } from './summary';
import { totalMinutes } from './minuteShares';
import { rememberingKeys, type TicketKeys } from './ticketKeys';

export type SummaryFormat = 'plain' | 'markdown';

/** What a copy covers within its period: a repository, or one branch of it; nothing, the whole period. */
export interface SummaryScope {
  readonly root: string;
  readonly branch?: string;
}

/**
 * The period's heading with its total, then a line a branch (most time first) and under it a line
 * an activity, each with its minutes; `undefined` when nothing is in scope. The minutes are the
 * summary's (each its own time rounded, ./summary.ts), the ones the view shows; the heading's total
 * is rounded alike and says so (`≈`) where the branches add up to other minutes.
 */
export function summaryText(
  summary: PeriodSummary,
  tickets: TicketKeys,
  format: SummaryFormat,
  scope?: SummaryScope,
): string | undefined {
  const branches = summary.repositories
    .filter((repository) => scope === undefined || repository.root === scope.root)
    .flatMap((repository) => repository.branches)
    .filter((branch) => scope?.branch === undefined || branch.branch === scope.branch)
    .sort((a, b) => b.ms - a.ms || a.firstMs - b.firstMs);
  if (branches.length === 0) return undefined;
  const withRepository = new Set(branches.map((branch) => branch.root)).size > 1;
  const range = summary.fromDay === summary.toDay ? summary.fromDay : `${summary.fromDay} – ${summary.toDay}`;
  const ms = branches.reduce((sum, branch) => sum + branch.ms, 0);
  const total = {
    ms,
    ...totalMinutes(
      ms,
      branches.map((branch) => branch.minutes),
    ),
  };
  const heading = l10n.t('Time by branch, {period} ({range}): {total}', {
    period: periodLabel(summary.kind),
    range,
    total: formatLedgerDuration(total),
  });
  const keyOf = rememberingKeys(tickets);
  const lines = branches.flatMap((branch) =>
    branchLines(branch, { ticket: keyOf(branch.branch, branch.ignoresCase === true), withRepository, format }),
  );
  return format === 'markdown'
    ? [`**${markdownEscape(heading)}**`, '', ...lines, ''].join('\n')
    : [heading, ...lines, ''].join('\n');
}

/** The branch's line, then its activities' lines, indented. */
function branchLines(
  branch: BranchSummary,
  how: { readonly ticket: string | undefined; readonly withRepository: boolean; readonly format: SummaryFormat },
): string[] {
  const { ticket, format } = how;
  const where = how.withRepository ? ` (${branch.repository})` : '';
  const activities = branch.activities.map((activity) => ({
    name: activity.activityName,
    duration: formatLedgerDuration(activity),
  }));
  if (format === 'plain') {
    const head = `${ticket === undefined ? '' : `${ticket} `}${branch.branch}${where}: ${formatLedgerDuration(branch)}`;
    return [head, ...activities.map((activity) => `  ${activity.name}: ${activity.duration}`)];
  }
  const key = ticket === undefined ? '' : `**${markdownEscape(ticket)}** `;
  const head = `- ${key}\`${branch.branch.replace(/`/g, "'")}\`${markdownEscape(where)}: ${formatLedgerDuration(branch)}`;
  return [head, ...activities.map((activity) => `  - ${markdownEscape(activity.name)}: ${activity.duration}`)];
}

/**
 * The characters that change Markdown inline, in text from the app or a repository name; fewer than
 * the tooltip escapes, so that the pasted text stays readable as typed (`PROJ-12`, not `PROJ\-12`).
 */
export function markdownEscape(text: string): string {
  return text.replace(/[\\`*_[\]<>|]/g, (character) => `\\${character}`);
}
