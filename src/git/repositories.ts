/**
 * Finds the git repository of a folder: the nearest `.git` above it. A `.git` file (a worktree,
 * or a submodule opened as a folder) points to the real git directory, where HEAD lives.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';

export interface Repository {
  /** The working tree's top folder. */
  readonly root: string;
  /** Where HEAD and the operation markers live (for a worktree: `.git/worktrees/<name>`). */
  readonly gitDir: string;
}

export async function findRepository(folder: string): Promise<Repository | undefined> {
  let current = resolve(folder);
  for (;;) {
    const candidate = join(current, '.git');
    const info = await stat(candidate).catch(() => undefined);
    if (info?.isDirectory()) return { root: current, gitDir: candidate };
    if (info?.isFile()) {
      const gitDir = await readGitFile(candidate);
      if (gitDir) return { root: current, gitDir };
    }
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

/** `gitdir: <path>`, relative to the folder holding the `.git` file. */
async function readGitFile(path: string): Promise<string | undefined> {
  const content = await readFile(path, 'utf8').catch(() => undefined);
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(content ?? '');
  if (!match?.[1]) return undefined;
  return isAbsolute(match[1]) ? match[1] : resolve(dirname(path), match[1]);
}
