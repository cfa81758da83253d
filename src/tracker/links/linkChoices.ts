/**
 * What Link This Branch… offers beyond a link for one branch: on a branch that names a ticket, a
 * link for every branch like it to its ticket (`{"branch": "fix/**", "activity": "{ticket}"}`); in
 * the Link commands' picker, no new activity named with a `{` (a placeholder is written only through
 * that ticket choice, never typed as a name); and after a link is written, whether its activity runs
 * already (then the offer to start it now is a sentence instead). Pure: names in, decisions out, each
 * in time bounded by the first MAX_MATCHED_BRANCH_LENGTH characters of a branch.
 */
import * as l10n from '@vscode/l10n';
import { MAX_MATCHED_BRANCH_LENGTH } from '../../platform/globs';
import { branchKey } from '../../platform/pathKey';
import type { ActivityReference } from '../../protocol/types';
import type { TicketKeys } from '../branchTime/ticketKeys';
import { TICKET_PLACEHOLDER } from './links';

/** "Every branch like this one → its ticket": the link to write, and what it does on this branch. */
export interface TicketLinkChoice {
  /** The branch glob: the branch's first path segment + `/**`, or `**` where there is none to take. */
  readonly pattern: string;
  /** The ticket key this branch names: the activity the link tracks here. */
  readonly ticket: string;
  /** The link as written to settings.json, in the form docs/USER-DETAILS.md documents for tickets. */
  readonly link: {
    readonly branch: string;
    readonly activity: typeof TICKET_PLACEHOLDER;
    readonly createIfMissing: true;
  };
}

/** The glob characters of src/platform/globs.ts: a segment holding one is no literal prefix. */
const GLOB_CHARACTERS = /[*?]/;

/**
 * The ticket link for every branch like `branch`, or undefined when it names no ticket key. Like it
 * means under the same first path segment (`fix/PROJ-123-login` → `fix/**`), so a team's `feature/`
 * and `fix/` branches each get theirs; a branch with no such segment (`PROJ-123-login`), or whose
 * first segment is the ticket itself (`PROJ-123/login`), gets `**`, every branch that names a ticket
 * (a `{ticket}` link matches no branch without a key). `ignoresCase`: the branch's repository says
 * `core.ignorecase`, so its key may be spelled otherwise in the branch (./links.ts matches it so).
 */
export function ticketLinkFor(branch: string, tickets: TicketKeys, ignoresCase = false): TicketLinkChoice | undefined {
  const seen = branch.slice(0, MAX_MATCHED_BRANCH_LENGTH);
  const ticket = tickets.keyOf(seen, ignoresCase);
  if (ticket === undefined) return undefined;
  const slash = seen.indexOf('/');
  const prefix = slash > 0 ? seen.slice(0, slash) : undefined;
  const literal =
    prefix !== undefined &&
    !branchKey(prefix, ignoresCase).includes(branchKey(ticket, ignoresCase)) &&
    !GLOB_CHARACTERS.test(prefix);
  const pattern = literal ? `${prefix}/**` : '**';
  return { pattern, ticket, link: { branch: pattern, activity: TICKET_PLACEHOLDER, createIfMissing: true } };
}

/**
 * Why a name typed into the Link commands' picker is not offered as a new activity, or undefined
 * when it may be: a name with `{` would be written as a placeholder, and `{ticket}` would then stand
 * for each branch's key instead of an activity of that name.
 */
export function placeholderRefusal(name: string): string | undefined {
  if (!name.includes('{')) return undefined;
  return [
    l10n.t('A link\'s activity with "{brace}" is a placeholder: for each branch\'s ticket ({placeholder}),', {
      brace: '{',
      placeholder: TICKET_PLACEHOLDER,
    }),
    l10n.t('run Link This Branch… on a branch that names one and choose "Every branch like this one".'),
  ].join(' ');
}

/** The activity a new link names, as the picker knew it: by id where it was picked from the list. */
export interface LinkedActivity {
  readonly name: string;
  readonly activityID?: string | undefined;
}

/**
 * Whether `running` is the activity a link names: the same id where it is known (its group told it
 * apart), else the same name in any case (the poll carries no group).
 */
export function runsAlready(running: ActivityReference | undefined, linked: LinkedActivity): boolean {
  if (running === undefined) return false;
  if (linked.activityID !== undefined) return running.activityID.toLowerCase() === linked.activityID.toLowerCase();
  return running.activityName.trim().toLocaleLowerCase() === linked.name.trim().toLocaleLowerCase();
}
