/**
 * Copy Summary's text: what a user pastes into a timesheet or a ticket. A line a branch (the ticket
 * key when the branch names one, `timeTracker.ticketPattern`; the repository when several appear)
 * with its minutes, and under it a line an activity with its minutes, all adding up to the
 * heading's total; plain text or Markdown. Pure.
 */
import * as l10n from '@vscode/l10n';
import { compileLinearPattern, PatternError, type LinearPattern } from '../../platform/linearPattern';
import { MAX_MATCHED_BRANCH_LENGTH } from '../../platform/globs';
import { displayText } from '../../platform/outsideText';
import { formatLedgerDuration, periodLabel, type BranchSummary, type PeriodSummary } from './summary';

/** How much of a refused pattern a sentence quotes. */
const QUOTE_LIMIT = 80;

/** `timeTracker.ticketPattern`'s default: Jira-style keys (`PROJ-123`). */
export const DEFAULT_TICKET_PATTERN = '[A-Z][A-Z0-9]+-\\d+';

export interface TicketMatcher {
  /** The ticket key the branch names, if any (found among its first MAX_MATCHED_BRANCH_LENGTH characters). */
  readonly keyOf: (branch: string) => string | undefined;
  /** Why the pattern set could not be used (then the default is), in the user's language. */
  readonly problem?: string;
}

/** The longest ticket pattern taken: a ticket key needs a few dozen characters at most. */
export const MAX_TICKET_PATTERN_LENGTH = 200;
/** The most steps the pattern's program may have (each `{n,m}` written out): bounds the work per character. */
const MAX_PROGRAM_SIZE = 2_000;

/**
 * The setting's pattern, or the default with a sentence saying why the setting's was not used. The
 * pattern is a repository's as much as the user's, so it runs on the linear-time matcher
 * (src/platform/linearPattern.ts), never on JavaScript's backtracking one, and sees only the first
 * MAX_MATCHED_BRANCH_LENGTH characters of a branch: every key costs time bounded whatever the pattern.
 */
export function ticketMatcher(pattern: string): TicketMatcher {
  const compiled = compile(pattern.trim() === '' ? DEFAULT_TICKET_PATTERN : pattern);
  if (!(compiled instanceof PatternError)) return { keyOf: keyFinder(compiled) };
  return { keyOf: keyFinder(compile(DEFAULT_TICKET_PATTERN) as LinearPattern), problem: refusal(pattern, compiled) };
}

function keyFinder(pattern: LinearPattern): (branch: string) => string | undefined {
  return (branch) => pattern.firstMatch(branch.slice(0, MAX_MATCHED_BRANCH_LENGTH)) || undefined;
}

/** A matcher, or why the text is none. */
function compile(pattern: string): LinearPattern | PatternError {
  try {
    return compileLinearPattern(pattern, { maxLength: MAX_TICKET_PATTERN_LENGTH, maxProgramSize: MAX_PROGRAM_SIZE });
  } catch (error) {
    if (error instanceof PatternError) return error;
    throw error;
  }
}

/** One sentence: the pattern, why it is not used, and the default used instead. */
function refusal(pattern: string, error: PatternError): string {
  const shown = displayText(pattern, QUOTE_LIMIT);
  const values = {
    pattern: shown,
    piece: error.detail,
    fallback: DEFAULT_TICKET_PATTERN,
    limit: MAX_TICKET_PATTERN_LENGTH,
    length: pattern.length,
    steps: MAX_PROGRAM_SIZE,
  };
  switch (error.code) {
    case 'SYNTAX':
      return l10n.t(
        'The ticket pattern "{pattern}" (timeTracker.ticketPattern) is not a valid regular expression ({reason}); using the default, {fallback}.',
        { ...values, reason: error.detail },
      );
    case 'TOO_LONG':
      return l10n.t(
        'The ticket pattern "{pattern}" (timeTracker.ticketPattern) has {length} characters, more than the {limit} a ticket pattern may have; using the default, {fallback}.',
        values,
      );
    case 'TOO_COMPLEX':
      return l10n.t(
        'The ticket pattern "{pattern}" (timeTracker.ticketPattern) repeats its parts so often that, written out, it has more than {steps} steps; using the default, {fallback}.',
        values,
      );
    case 'BACKREFERENCE':
      return l10n.t(
        'The ticket pattern "{pattern}" (timeTracker.ticketPattern) uses a backreference ({piece}), which needs backtracking, and ticket patterns are matched without it so that none can stall the editor; using the default, {fallback}.',
        values,
      );
    case 'LOOKAROUND':
      return l10n.t(
        'The ticket pattern "{pattern}" (timeTracker.ticketPattern) uses a lookahead or lookbehind ({piece}), which needs backtracking, and ticket patterns are matched without it so that none can stall the editor; using the default, {fallback}.',
        values,
      );
    case 'EMPTY_REPEAT':
      return l10n.t(
        'The ticket pattern "{pattern}" (timeTracker.ticketPattern) repeats a part that can match nothing ({piece}), which only backtracking matches as JavaScript does, and ticket patterns are matched without it so that none can stall the editor; using the default, {fallback}.',
        values,
      );
    case 'UNSUPPORTED':
      return l10n.t(
        'The ticket pattern "{pattern}" (timeTracker.ticketPattern) uses {piece}, which ticket patterns do not support; using the default, {fallback}.',
        values,
      );
  }
}

export type SummaryFormat = 'plain' | 'markdown';

/** What a copy covers within its period: a repository, or one branch of it; nothing, the whole period. */
export interface SummaryScope {
  readonly root: string;
  readonly branch?: string;
}

/**
 * The period's heading with its total, then a line a branch (most time first) and under it a line
 * an activity, each with its minutes; `undefined` when nothing is in scope. The minutes are the
 * summary's (the period's total rounded once and shared down, ./summary.ts), the ones the view
 * shows: the branches add up to the heading and each branch's activities to the branch, and a
 * repository or branch copied alone has the total its row in the view has.
 */
export function summaryText(
  summary: PeriodSummary,
  tickets: TicketMatcher,
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
  const total = {
    ms: branches.reduce((sum, branch) => sum + branch.ms, 0),
    minutes: branches.reduce((sum, branch) => sum + branch.minutes, 0),
  };
  const heading = l10n.t('Time by branch, {period} ({range}): {total}', {
    period: periodLabel(summary.kind),
    range,
    total: formatLedgerDuration(total),
  });
  const lines = branches.flatMap((branch) =>
    branchLines(branch, { ticket: tickets.keyOf(branch.branch), withRepository, format }),
  );
  return format === 'markdown'
    ? [`**${escape(heading)}**`, '', ...lines, ''].join('\n')
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
  const key = ticket === undefined ? '' : `**${escape(ticket)}** `;
  const head = `- ${key}\`${branch.branch.replace(/`/g, "'")}\`${escape(where)}: ${formatLedgerDuration(branch)}`;
  return [head, ...activities.map((activity) => `  - ${escape(activity.name)}: ${activity.duration}`)];
}

/**
 * The characters that change Markdown inline, in text from the app or a repository name; fewer than
 * the tooltip escapes, so that the pasted text stays readable as typed (`PROJ-12`, not `PROJ\-12`).
 */
function escape(text: string): string {
  return text.replace(/[\\`*_[\]<>|]/g, (character) => `\\${character}`);
}
