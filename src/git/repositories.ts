/**
 * Finds the git repository of a folder: the nearest `.git` above it. A `.git` file (a worktree,
 * or a submodule opened as a folder) points to the real git directory, where HEAD lives.
 */
import { nodeFileSystem, type FileSystemPort } from '../platform/fileSystemPort';
import { ignoresCase, repositoryConfig } from './repoConfig';

export interface Repository {
  /** The working tree's top folder. */
  readonly root: string;
  /** Where HEAD and the operation markers live (for a worktree: `.git/worktrees/<name>`). */
  readonly gitDir: string;
  /**
   * Its config says `core.ignorecase` (APFS, HFS+ by default): branch names compare and globs
   * match case-folded (pathKey.ts foldedName), as git finds its refs there. Read when the repository
   * is found, so every part asks the same repository the same question.
   */
  readonly ignoresCase: boolean;
}

export async function findRepository(
  folder: string,
  fs: FileSystemPort = nodeFileSystem,
): Promise<Repository | undefined> {
  const { dirname, join, resolve } = fs.path;
  let current = resolve(folder);
  for (;;) {
    const candidate = join(current, '.git');
    const kind = await fs.kind(candidate);
    if (kind === 'directory') return found(current, candidate, fs);
    if (kind === 'file') {
      const gitDir = await readGitFile(candidate, fs);
      if (gitDir) return found(current, gitDir, fs);
    }
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}

async function found(root: string, gitDir: string, fs: FileSystemPort): Promise<Repository> {
  const config = await repositoryConfig(gitDir, fs);
  return { root, gitDir, ignoresCase: config !== undefined && ignoresCase(config) };
}

/** `gitdir: <path>`, relative to the folder holding the `.git` file. */
async function readGitFile(path: string, fs: FileSystemPort): Promise<string | undefined> {
  const gitDir = gitDirIn((await fs.readText(path)) ?? '');
  if (gitDir === undefined) return undefined;
  return fs.path.isAbsolute(gitDir) ? gitDir : fs.path.resolve(fs.path.dirname(path), gitDir);
}

/**
 * The value of the first `gitdir:` line, trimmed. Plain string operations, one pass a line: the file is a
 * folder's (up to the port's 64 KiB), and `/^gitdir:\s*(.+?)\s*$/m` takes quadratic time on a long line.
 */
export function gitDirIn(content: string): string | undefined {
  for (const line of content.split(/\r\n?|[\n\u2028\u2029]/)) {
    if (!line.startsWith('gitdir:')) continue;
    const value = line.slice('gitdir:'.length).trim();
    if (value !== '') return value;
  }
  return undefined;
}
