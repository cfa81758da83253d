/**
 * The globs users write in settings, matched against a whole name: `timeTracker.git.ignoreBranches`
 * (branch names) and `timeTracker.links` (branch names and folder paths). `*` matches within one path
 * segment, `**` across segments, `?` one character (not `/`), and `\` makes the next character itself, as in
 * .gitignore, so that a name holding a wildcard can be written as that name alone (literalGlob: Link This Folder
 * on a folder named `client?`). Branch names cannot hold `\` (git refuses it). Here in src/platform because both
 * src/git and src/tracker use it and neither may import the other.
 *
 * Matched by walking the name once while keeping the set of places in the pattern reached so far, never by a regular
 * expression: a workspace can set the patterns, and a backtracking match of `*a*a*a*a*a*a*a*a*a*a*a*b` against 30 `a`s
 * took 10 s. This takes name length × pattern length steps, and both are bounded: a glob over MAX_GLOB_LENGTH, or past
 * MAX_GLOB_LIST_LENGTH with those before it, is refused (matches nothing; the caller says why, `checkGlobs`), a run of
 * stars is one step, and a name is matched by its first `maxNameLength` characters (MAX_MATCHED_BRANCH_LENGTH for a
 * branch).
 */

import { foldedName } from './pathKey';

/** The longest glob taken; a longer one matches nothing, and the caller says so. */
export const MAX_GLOB_LENGTH = 1_000;
/**
 * How much of a branch name a glob or the ticket key scan sees: the longest branch the app takes
 * (the protocol's BRANCH_MAX_LENGTH, repeated here because src/platform imports nothing of ours).
 * Git allows longer names; such a branch is matched by its first 255 characters.
 */
export const MAX_MATCHED_BRANCH_LENGTH = 255;
/** How much of any other name (a folder's path) a glob sees: the longest path most systems open. */
export const MAX_MATCHED_NAME_LENGTH = 4_096;

/**
 * The most characters one list's globs have together (ignoreBranches; the globs of one file's
 * links): a match costs up to name length × the globs' length, so the sum is what is bounded.
 */
export const MAX_GLOB_LIST_LENGTH = 4_000;

/** Why a glob of a list is not used: longer than MAX_GLOB_LENGTH, or past MAX_GLOB_LIST_LENGTH with those before it. */
export type GlobProblem = 'TOO_LONG' | 'LIST_TOO_LONG';

export interface RefusedGlob {
  readonly glob: string;
  readonly problem: GlobProblem;
}

/** Sorts a list's globs into those used and those refused, in order; blank ones are neither. */
export function checkGlobs(patterns: readonly string[]): {
  readonly used: readonly string[];
  readonly refused: readonly RefusedGlob[];
} {
  const used: string[] = [];
  const refused: RefusedGlob[] = [];
  let spent = 0;
  for (const pattern of patterns) {
    const glob = pattern.trim();
    if (glob === '') continue;
    const problem =
      glob.length > MAX_GLOB_LENGTH
        ? 'TOO_LONG'
        : spent + glob.length > MAX_GLOB_LIST_LENGTH
          ? 'LIST_TOO_LONG'
          : undefined;
    if (problem !== undefined) {
      refused.push({ glob, problem });
      continue;
    }
    spent += glob.length;
    used.push(glob);
  }
  return { used, refused };
}

/**
 * Whether a name matches one of the globs; the refused ones (checkGlobs) match nothing. `key` is
 * what the globs and the name compare as (pathKey for a folder's path), taken after the bounds.
 */
export function compileGlobs(
  patterns: readonly string[],
  maxNameLength = MAX_MATCHED_NAME_LENGTH,
  key: (text: string) => string = (text) => text,
): (name: string) => boolean {
  const globs = checkGlobs(patterns).used.map((glob) => compileGlob(key(glob)));
  return (name) => {
    const characters = codePoints(key(name.slice(0, maxNameLength)));
    return globs.some((glob) => matches(glob, characters));
  };
}

/**
 * Whether a branch matches one of the globs: case-folded where its repository ignores case
 * (`core.ignorecase`), since git there takes `feature/Login` for `feature/login`.
 */
export function compileBranchGlobs(patterns: readonly string[]): (branch: string, ignoresCase: boolean) => boolean {
  const exact = compileGlobs(patterns, MAX_MATCHED_BRANCH_LENGTH);
  const folded = compileGlobs(patterns, MAX_MATCHED_BRANCH_LENGTH, foldedName);
  return (branch, ignoresCase) => (ignoresCase ? folded : exact)(branch);
}

/** The glob that matches `name` and nothing else: each wildcard and backslash in it behind a backslash. */
export function literalGlob(name: string): string {
  return name.replace(/[*?\\]/g, '\\$&');
}

/** What a step of a glob reads: one given character, or a wildcard. */
const LITERAL = 0;
const ONE = 1;
const SEGMENT = 2;
const ANY = 3;
const SLASH = 0x2f;

/** A glob's steps: `kinds[i]` is LITERAL…ANY, `literals[i]` the code point a LITERAL step reads. */
interface Steps {
  readonly kinds: Uint8Array;
  readonly literals: Int32Array;
}

function compileGlob(glob: string): Steps {
  const kinds: number[] = [];
  const literals: number[] = [];
  const characters = Array.from(glob);
  for (let i = 0; i < characters.length; i++) {
    const character = characters[i] ?? '';
    let kind = LITERAL;
    if (character === '\\' && i + 1 < characters.length) {
      kinds.push(LITERAL);
      literals.push(characters[++i]?.codePointAt(0) ?? 0);
      continue;
    }
    if (character === '*' && characters[i + 1] === '*') {
      // `**`, and any longer run of stars, which can match no more than `**`: one step.
      kind = ANY;
      while (characters[i + 1] === '*') i++;
    } else if (character === '*') kind = SEGMENT;
    else if (character === '?') kind = ONE;
    kinds.push(kind);
    literals.push(kind === LITERAL ? (character.codePointAt(0) ?? 0) : -1);
  }
  return { kinds: Uint8Array.from(kinds), literals: Int32Array.from(literals) };
}

function codePoints(name: string): Int32Array {
  return Int32Array.from(Array.from(name), (character) => character.codePointAt(0) ?? 0);
}

/**
 * `reached[i]`: the first `i` steps can match what was read so far. A star is passed over without
 * reading (reaching it reaches the step after it), and stays reached while it reads what it may
 * read. One pass over the steps per character: a star's step after it is set before it is looked at.
 */
function matches({ kinds, literals }: Steps, characters: Int32Array): boolean {
  const count = kinds.length;
  let reached = new Uint8Array(count + 1);
  let next = new Uint8Array(count + 1);
  reached[0] = 1;
  for (let i = 0; i < count && reached[i] === 1; i++) if ((kinds[i] as number) >= SEGMENT) reached[i + 1] = 1;
  for (const character of characters) {
    next.fill(0);
    let alive = false;
    for (let i = 0; i < count; i++) {
      const kind = kinds[i] as number;
      if (reached[i] === 1) {
        if (kind === ANY || (kind === SEGMENT && character !== SLASH)) next[i] = 1;
        else if (kind === ONE ? character !== SLASH : kind === LITERAL && literals[i] === character) next[i + 1] = 1;
      }
      if (next[i] === 1) {
        alive = true;
        if (kind >= SEGMENT) next[i + 1] = 1;
      }
    }
    if (!alive && next[count] !== 1) return false;
    [reached, next] = [next, reached];
  }
  return reached[count] === 1;
}
