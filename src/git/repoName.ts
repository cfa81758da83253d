import { basename } from 'node:path';
import { simpleGit } from 'simple-git';
import { withoutCredentials } from './branchFilter';
import type { Repository } from './repositories';

export type RepoNameMode = 'folderName' | 'remoteUrl';

/**
 * The `repo` field of a branch report: the repository's folder name, or origin's URL without
 * credentials (a token embedded in a remote URL must never reach the app). Without an origin the
 * folder name is used.
 */
export async function repoName(repository: Repository, mode: RepoNameMode): Promise<string> {
  const folderName = basename(repository.root);
  if (mode === 'folderName') return folderName;
  try {
    const url = (await simpleGit({ baseDir: repository.root, timeout: { block: 5_000 } }).remote(['get-url', 'origin'])) ?? '';
    return url.trim() === '' ? folderName : withoutCredentials(url.trim());
  } catch {
    return folderName;
  }
}
