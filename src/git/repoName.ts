import { withoutCredentials } from './remoteUrl';
import { nodeFileSystem, type FileSystemPort } from '../platform/fileSystemPort';
import type { Repository } from './repositories';

export type RepoNameMode = 'folderName' | 'remoteUrl';

/**
 * The `repo` field of a branch report: the repository's folder name, or origin's URL without
 * credentials (a token embedded in a remote URL must never reach the app). Without an origin the
 * folder name is used. Origin is read from the repository's config file, the same way on this
 * machine and for a remote workspace (where no local git could run); `insteadOf` rewrites and
 * included config files are not followed.
 */
export async function repoName(repository: Repository, mode: RepoNameMode, fs: FileSystemPort = nodeFileSystem): Promise<string> {
  const folderName = fs.path.basename(repository.root);
  if (mode === 'folderName') return folderName;
  try {
    const url = await originFromConfig(repository, fs);
    return url === undefined || url === '' ? folderName : withoutCredentials(url);
  } catch {
    return folderName;
  }
}

/** `[remote "origin"] url = …` of the repository's config (the common dir's, for a worktree). */
async function originFromConfig(repository: Repository, fs: FileSystemPort): Promise<string | undefined> {
  const commonDir = (await fs.readText(fs.path.join(repository.gitDir, 'commondir')))?.trim();
  const configDir = commonDir ? fs.path.resolve(repository.gitDir, commonDir) : repository.gitDir;
  return originInConfig((await fs.readText(fs.path.join(configDir, 'config'))) ?? '');
}

function originInConfig(config: string): string | undefined {
  let inOrigin = false;
  for (const line of config.split(/\r?\n/)) {
    const section = /^\s*\[\s*([^\]]+?)\s*\]\s*$/.exec(line);
    if (section) {
      inOrigin = /^remote\s+"origin"$/.test(section[1] ?? '');
      continue;
    }
    const url = inOrigin ? /^\s*url\s*=\s*(.+?)\s*$/.exec(line) : null;
    if (url?.[1]) return url[1];
  }
  return undefined;
}
