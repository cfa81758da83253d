/**
 * What HEAD says and whether git is in the middle of something, and the rule that decides when a
 * branch switch is reported. Pure: the watcher feeds it file contents.
 */
import { branchKey } from '../platform/pathKey';

export type HeadState =
  | { readonly kind: 'branch'; readonly branch: string }
  | { readonly kind: 'detached' }
  /** HEAD could not be read (repository gone, or caught mid-write). */
  | { readonly kind: 'unreadable' };

/**
 * Files and folders git keeps in the git directory while an operation is under way; while any
 * exists, HEAD moves for the operation's sake, not because the user switched branches.
 */
export const BUSY_MARKERS = [
  'rebase-merge',
  'rebase-apply',
  'MERGE_HEAD',
  'CHERRY_PICK_HEAD',
  'REVERT_HEAD',
  'BISECT_LOG',
  'sequencer',
] as const;

const REF_PREFIX = 'ref:';
const BRANCH_PREFIX = 'refs/heads/';
/** What JavaScript's `.` does not match: a branch name holding one is no branch. (`\n` ends the line first.) */
const LINE_TERMINATORS = ['\r', '\u2028', '\u2029'];

/**
 * `ref: refs/heads/<name>` is a branch; a bare object id (or another ref) is a detached HEAD. Only
 * the first line counts; space around the name is not part of it. Read with plain string
 * operations, each one pass: HEAD is a repository's file, up to the 64 KiB the file-system port
 * reads (a larger one is unreadable), and a regular expression such as `/^ref:\s*refs\/heads\/(.+?)\s*$/`
 * takes quadratic time on a long line (1.6 s on 64 KiB).
 */
export function parseHead(content: string | undefined): HeadState {
  if (content === undefined) return { kind: 'unreadable' };
  const end = content.indexOf('\n');
  const firstLine = end === -1 ? content : content.slice(0, end);
  const branch = branchIn(firstLine);
  if (branch !== undefined) return { kind: 'branch', branch };
  return firstLine.trim() === '' ? { kind: 'unreadable' } : { kind: 'detached' };
}

function branchIn(line: string): string | undefined {
  if (!line.startsWith(REF_PREFIX)) return undefined;
  const ref = line.slice(REF_PREFIX.length).trimStart();
  if (!ref.startsWith(BRANCH_PREFIX)) return undefined;
  const name = ref.slice(BRANCH_PREFIX.length).trimEnd();
  return name === '' || LINE_TERMINATORS.some((terminator) => name.includes(terminator)) ? undefined : name;
}

export interface BranchSwitch {
  readonly branch: string;
  readonly previousBranch: string | undefined;
}

/**
 * A switch is reported only when the repository is on a branch, no operation is under way, and
 * the branch differs from the last one reported (or seen at start). Rebases, bisects, detached
 * HEADs and unreadable moments change nothing: the report comes once the repository is back on a
 * branch, and only if that branch is a different one.
 */
export function decideSwitch(lastBranch: string | undefined, head: HeadState, busy: boolean): BranchSwitch | undefined {
  if (busy || head.kind !== 'branch' || head.branch === lastBranch) return undefined;
  return { branch: head.branch, previousBranch: lastBranch };
}

/**
 * The branch HEAD names, as `seen` names it where the repository ignores case and the two differ in
 * case (or Unicode form) alone: `git checkout feature/Login` on `feature/login` writes HEAD in the
 * case typed, and one branch keeps one name.
 */
export function asSeen(branch: string, seen: string | undefined, ignoresCase: boolean): string {
  return seen !== undefined && branchKey(branch, ignoresCase) === branchKey(seen, ignoresCase) ? seen : branch;
}
