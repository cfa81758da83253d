/**
 * Copy Summary's text (issue 24): one line a branch, what a user pastes into a timesheet or a
 * ticket: the ticket key when the branch names one (`timeTracker.ticketPattern`), the branch, its
 * duration to the minute and its activities; plain text or Markdown. Pure.
 */
import * as l10n from '@vscode/l10n';
import { formatLedgerDuration, periodLabel, type BranchSummary, type PeriodSummary } from './summary';

/** `timeTracker.ticketPattern`'s default: Jira-style keys (`PROJ-123`). */
export const DEFAULT_TICKET_PATTERN = '[A-Z][A-Z0-9]+-\\d+';

export interface TicketMatcher {
  /** The ticket key the branch names, if any. */
  readonly keyOf: (branch: string) => string | undefined;
  /** Why the pattern set could not be used (then the default is), in the user's language. */
  readonly problem?: string;
}

/** The setting's pattern, or the default with a sentence saying why the setting's was not used. */
export function ticketMatcher(pattern: string): TicketMatcher {
  const compiled = compile(pattern);
  if (compiled instanceof RegExp) return { keyOf: (branch) => compiled.exec(branch)?.[0] || undefined };
  const fallback = compile(DEFAULT_TICKET_PATTERN) as RegExp;
  return {
    keyOf: (branch) => fallback.exec(branch)?.[0] || undefined,
    problem: l10n.t('The ticket pattern "{pattern}" (timeTracker.ticketPattern) is not a valid regular expression ({reason}); using the default, {fallback}.', {
      pattern,
      reason: compiled,
      fallback: DEFAULT_TICKET_PATTERN,
    }),
  };
}

/** A regular expression, or why the text is none. */
function compile(pattern: string): RegExp | string {
  try {
    return new RegExp(pattern.trim() === '' ? DEFAULT_TICKET_PATTERN : pattern);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export type SummaryFormat = 'plain' | 'markdown';

/** The period's heading, then one line a branch (most time first); `undefined` for an empty period. */
export function summaryText(summary: PeriodSummary, tickets: TicketMatcher, format: SummaryFormat): string | undefined {
  const branches = summary.repositories.flatMap((repository) => repository.branches);
  if (branches.length === 0) return undefined;
  const multipleRepositories = summary.repositories.length > 1;
  const range = summary.fromDay === summary.toDay ? summary.fromDay : `${summary.fromDay} – ${summary.toDay}`;
  const heading = l10n.t('Time by branch, {period} ({range}): {total}', { period: periodLabel(summary.kind), range, total: formatLedgerDuration(summary.ms) });
  const lines = branches.sort((a, b) => b.ms - a.ms).map((branch) => branchLine(branch, tickets.keyOf(branch.branch), multipleRepositories, format));
  return format === 'markdown' ? [`**${escape(heading)}**`, '', ...lines, ''].join('\n') : [heading, ...lines, ''].join('\n');
}

function branchLine(branch: BranchSummary, ticket: string | undefined, withRepository: boolean, format: SummaryFormat): string {
  const activities = branch.activities.map((activity) => activity.activityName).join(', ');
  const duration = formatLedgerDuration(branch.ms);
  const where = withRepository ? ` (${branch.repository})` : '';
  if (format === 'plain') return `${ticket === undefined ? '' : `${ticket} `}${branch.branch}${where}: ${duration}, ${activities}`;
  const key = ticket === undefined ? '' : `**${escape(ticket)}** `;
  return `- ${key}\`${branch.branch.replace(/`/g, "'")}\`${escape(where)}: ${duration}, ${escape(activities)}`;
}

/**
 * The characters that change Markdown inline, in text from the app or a repository name; fewer than
 * the tooltip escapes, so that the pasted text stays readable as typed (`PROJ-12`, not `PROJ\-12`).
 */
function escape(text: string): string {
  return text.replace(/[\\`*_[\]<>|]/g, (character) => `\\${character}`);
}
