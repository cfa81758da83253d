/**
 * What HEAD says and whether git is in the middle of something, and the rule that decides when a
 * branch switch is reported. Pure: the watcher feeds it file contents.
 */

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

const BRANCH_REF = /^ref:\s*refs\/heads\/(.+?)\s*$/;

/** `ref: refs/heads/<name>` is a branch; a bare object id (or another ref) is a detached HEAD. */
export function parseHead(content: string | undefined): HeadState {
  if (content === undefined) return { kind: 'unreadable' };
  const firstLine = content.split('\n', 1)[0] ?? '';
  const match = BRANCH_REF.exec(firstLine);
  if (match?.[1]) return { kind: 'branch', branch: match[1] };
  return firstLine.trim() === '' ? { kind: 'unreadable' } : { kind: 'detached' };
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
