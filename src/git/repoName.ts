import { nodeFileSystem, type FileSystemPort } from '../platform/fileSystemPort';
import { repositoryConfig, sectionName } from './repoConfig';
import type { Repository } from './repositories';

export type RepoNameMode = 'folderName' | 'remoteUrl';

/**
 * The `repo` field of a branch report: the repository's folder name, or origin's URL without
 * credentials (a token embedded in a remote URL must never reach the app). Without an origin the
 * folder name is used. Origin is read from the repository's config file, the same way on this
 * machine and for a remote workspace (where no local git could run); `insteadOf` rewrites and
 * included config files are not followed.
 */
export async function repoName(
  repository: Pick<Repository, 'root' | 'gitDir'>,
  mode: RepoNameMode,
  fs: FileSystemPort = nodeFileSystem,
): Promise<string> {
  const folderName = fs.path.basename(repository.root);
  if (mode === 'folderName') return folderName;
  try {
    const url = originInConfig((await repositoryConfig(repository.gitDir, fs)) ?? '');
    return url === undefined ? folderName : withoutCredentials(url);
  } catch {
    return folderName;
  }
}

/** `[remote "origin"] url = …`, read as repoConfig.ts reads a config: plain string operations, one pass a line. */
export function originInConfig(config: string): string | undefined {
  let inOrigin = false;
  for (const line of config.split(/\r?\n/)) {
    const section = sectionName(line);
    if (section !== undefined) {
      inOrigin = /^remote\s+"origin"$/.test(section);
      continue;
    }
    const url = inOrigin ? urlValue(line) : undefined;
    if (url !== undefined) return url;
  }
  return undefined;
}

/** `url = value`: the value, trimmed, where it is not empty and stays on its line. */
function urlValue(line: string): string | undefined {
  const key = line.trimStart();
  if (!key.startsWith('url')) return undefined;
  const equals = key.slice('url'.length).trimStart();
  if (!equals.startsWith('=')) return undefined;
  const value = equals.slice(1).trim();
  return value === '' || /[\r\u2028\u2029]/.test(value) ? undefined : value;
}

/** A remote URL without the user name and password someone may have embedded in it. */
export function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username === '' && parsed.password === '') return url;
    parsed.username = '';
    parsed.password = '';
    return parsed.toString();
  } catch {
    // scp-like `git@host:path` is no URL; the part before @ is a login name, never a secret.
    return url;
  }
}
