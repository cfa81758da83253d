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

/**
 * A remote URL without whatever precedes its host's `@` (a user name, a password, a token) and without its query and
 * fragment (`?access_token=…`), in every form git takes: a URL, a URL no parser accepts (a port out of range, a space
 * or bracket in the host: git may still pass it to a helper that does), and scp-style `user:password@host:path`. Plain
 * string operations, so a form that does not parse keeps nothing either. The user part ends at the last `@` before
 * the path's first `/`, where curl ends it too, so a raw `?`, `#` or `@` in a password goes with it; an `@` in the
 * path stays. Otherwise the URL is kept as written, for the app to show.
 */
export function withoutCredentials(url: string): string {
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(url)?.[0] ?? '';
  const rest = url.slice(scheme.length);
  const slash = rest.indexOf('/');
  const authority = slash === -1 ? rest : rest.slice(0, slash);
  const host = rest.slice(authority.lastIndexOf('@') + 1);
  const end = host.search(/[?#]/);
  return scheme + (end === -1 ? host : host.slice(0, end));
}
