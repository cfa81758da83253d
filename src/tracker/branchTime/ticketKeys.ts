/**
 * The ticket key a branch names, for Copy Summary, the CSV export and `{ticket}` in a link: the first
 * key among the branch's first MAX_MATCHED_BRANCH_LENGTH characters. A key is Jira-style, `PROJ-123`
 * (an upper-case letter, then upper-case letters or digits, two characters at least, then `-` and
 * digits), or GitHub-style, `#123`; it stands apart: no letter or digit right before it, none right
 * after its digits, and at most MAX_KEY_DIGITS digits. `timeTracker.ticketPrefixes` narrows the keys
 * to the prefixes it lists (`#` for `#123`): spelled as listed, or in any case where the repository
 * ignores case, and then written as the list spells it. A fixed grammar found in one pass, never a
 * regular expression from a setting, so no setting can make it slow. Pure.
 */
import * as l10n from '@vscode/l10n';
import { MAX_MATCHED_BRANCH_LENGTH } from '../../platform/globs';
import { displayText } from '../../platform/outsideText';
import { branchKey } from '../../platform/pathKey';

/** The most digits a key's number has: more than any tracker counts, so a longer run is no key. */
export const MAX_KEY_DIGITS = 10;
/** The most prefixes read from the setting; those after are not used, and a sentence says so. */
export const MAX_TICKET_PREFIXES = 100;
/** The longest prefix taken; a project key is a few letters. */
export const MAX_TICKET_PREFIX_LENGTH = 32;
/** How much of a refused entry a sentence quotes. */
const QUOTE_LIMIT = 40;

export interface TicketKeys {
  /** The key `branch` names, if any; `ignoresCase`: its repository says `core.ignorecase`. */
  readonly keyOf: (branch: string, ignoresCase: boolean) => string | undefined;
}

/** A key's prefix where no list says which count. */
const DEFAULT_PREFIX = /^[A-Z][A-Z0-9]+$/;
/** What a listed prefix may be besides `#`, and what a key's prefix is when a list says which count. */
const PREFIX = /^[A-Za-z][A-Za-z0-9]+$/;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const ASCII_DIGIT = /[0-9]/;

/**
 * The keys `prefixes` lets count (every key when none is listed), with a sentence for each entry not
 * used: one that is no prefix, or past the MAX_TICKET_PREFIXES read; the rest apply.
 */
export function ticketKeys(prefixes: readonly string[]): TicketKeys & { readonly problems: readonly string[] } {
  const problems: string[] = [];
  if (prefixes.length > MAX_TICKET_PREFIXES)
    problems.push(
      l10n.t('Only the first {limit} of the {count} ticket prefixes in timeTracker.ticketPrefixes are used.', {
        count: prefixes.length,
        limit: MAX_TICKET_PREFIXES,
      }),
    );
  const listed: string[] = [];
  for (const entry of prefixes.slice(0, MAX_TICKET_PREFIXES)) {
    const prefix = entry.trim();
    if (prefix === '') continue;
    if (prefix === '#' || (prefix.length <= MAX_TICKET_PREFIX_LENGTH && PREFIX.test(prefix))) listed.push(prefix);
    else
      problems.push(
        [
          l10n.t('The ticket prefix "{prefix}" of timeTracker.ticketPrefixes is not used:', {
            prefix: displayText(prefix, QUOTE_LIMIT),
          }),
          l10n.t(
            'a prefix is a letter and then letters or digits, at most {limit} characters in all (such as PROJ), or #.',
            { limit: MAX_TICKET_PREFIX_LENGTH },
          ),
        ].join(' '),
      );
  }
  // Nothing listed, or nothing listed that is a prefix: every key counts, as with no list.
  if (listed.length === 0) return { keyOf: (branch) => firstKey(branch, defaultSpelling), problems };
  const exact = spellings(listed, false);
  const folded = spellings(listed, true);
  return {
    keyOf: (branch, ignoresCase) => {
      const listedAs = ignoresCase ? folded : exact;
      return firstKey(branch, (prefix) => listedAs.get(branchKey(prefix, ignoresCase)));
    },
    problems,
  };
}

/** Each listed prefix as the case rule compares it, to its spelling in the list; the first of two alike wins. */
function spellings(listed: readonly string[], ignoresCase: boolean): ReadonlyMap<string, string> {
  const byKey = new Map<string, string>();
  for (const prefix of listed)
    if (!byKey.has(branchKey(prefix, ignoresCase))) byKey.set(branchKey(prefix, ignoresCase), prefix);
  return byKey;
}

/**
 * `keys` remembering each branch's key under each case rule, for one summary or export: a branch has
 * a row a day and an activity, and its key is the same in each.
 */
export function rememberingKeys(keys: TicketKeys): TicketKeys['keyOf'] {
  const known = new Map<string, string | undefined>();
  return (branch, ignoresCase) => {
    const key = `${ignoresCase ? 'i' : 'e'}${branch}`;
    if (known.has(key)) return known.get(key);
    const found = keys.keyOf(branch, ignoresCase);
    known.set(key, found);
    return found;
  };
}

function defaultSpelling(prefix: string): string | undefined {
  return prefix === '#' || DEFAULT_PREFIX.test(prefix) ? prefix : undefined;
}

/**
 * The first key in the branch's first MAX_MATCHED_BRANCH_LENGTH characters whose prefix `spelling`
 * takes (it answers the prefix to write), in one pass: a run of letters and digits is read once,
 * as one word, so no key starts inside one.
 */
function firstKey(branch: string, spelling: (prefix: string) => string | undefined): string | undefined {
  const text = branch.slice(0, MAX_MATCHED_BRANCH_LENGTH);
  const standsApart = (at: number): boolean => at >= text.length || !LETTER_OR_DIGIT.test(text.charAt(at));
  let at = 0;
  while (at < text.length) {
    const start = at;
    if (text.charAt(at) === '#') {
      at++;
      if (start > 0 && !standsApart(start - 1)) continue;
    } else if (LETTER_OR_DIGIT.test(text.charAt(at))) {
      while (!standsApart(at)) at++;
      if (text.charAt(at) !== '-' || !PREFIX.test(text.slice(start, at))) continue;
      at++;
    } else {
      at++;
      continue;
    }
    const digitsFrom = at;
    let end = at;
    while (end < text.length && ASCII_DIGIT.test(text.charAt(end))) end++;
    const digits = end - digitsFrom;
    if (digits === 0 || digits > MAX_KEY_DIGITS || !standsApart(end)) continue;
    const prefix = text.slice(start, text.charAt(start) === '#' ? start + 1 : digitsFrom - 1);
    const written = spelling(prefix);
    if (written !== undefined) return `${written}${written === '#' ? '' : '-'}${text.slice(digitsFrom, end)}`;
  }
  return undefined;
}
