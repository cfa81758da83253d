/**
 * A repository's own config file, read bounded (the file-system port's 64 KiB) and parsed with plain
 * string operations, one pass a line: it is a repository's file, and a regular expression such as
 * `/^\s*\[\s*([^\]]+?)\s*\]\s*$/` takes cubic time on a line of spaces. Included files and the
 * user's global config are not followed: git writes the settings read here into the repository's own.
 */
import type { FileSystemPort } from '../platform/fileSystemPort';

/** The text of the config of the repository at `gitDir` (the common dir's, for a worktree); undefined if unreadable. */
export async function repositoryConfig(gitDir: string, fs: FileSystemPort): Promise<string | undefined> {
  const commonDir = (await fs.readText(fs.path.join(gitDir, 'commondir')))?.trim();
  const configDir = commonDir ? fs.path.resolve(gitDir, commonDir) : gitDir;
  return fs.readText(fs.path.join(configDir, 'config'));
}

/** `[name]` (space around either bracket allowed): the name, trimmed; undefined for any other line. */
export function sectionName(line: string): string | undefined {
  const trimmed = line.trim();
  if (!trimmed.startsWith('[') || !trimmed.endsWith(']') || trimmed.length < 3) return undefined;
  const inner = trimmed.slice(1, -1);
  return inner.includes(']') ? undefined : inner.trim();
}

const TRUE_VALUES = new Set(['true', 'yes', 'on', '1']);

/**
 * `core.ignorecase`, which git sets where the file system ignores case (APFS, HFS+ by default): then
 * `git checkout feature/Login` finds `feature/login` and writes HEAD in the case typed. The last
 * setting wins, as in git; a key without a value is true; section and key names ignore case.
 */
export function ignoresCase(config: string): boolean {
  let inCore = false;
  let ignoreCase = false;
  for (const line of config.split(/\r?\n/)) {
    const section = sectionName(line);
    if (section !== undefined) {
      inCore = section.toLowerCase() === 'core';
      continue;
    }
    const value = inCore ? ignoreCaseValue(line) : undefined;
    if (value !== undefined) ignoreCase = value;
  }
  return ignoreCase;
}

/** `ignorecase = value` (or the bare key): whether it says true; undefined for any other line. */
function ignoreCaseValue(line: string): boolean | undefined {
  const key = line.trimStart();
  if (key.slice(0, 'ignorecase'.length).toLowerCase() !== 'ignorecase') return undefined;
  const rest = key.slice('ignorecase'.length).trimStart();
  if (rest === '' || rest.startsWith('#') || rest.startsWith(';')) return true;
  if (!rest.startsWith('=')) return undefined;
  const value = withoutComment(rest.slice(1))
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .toLowerCase();
  return TRUE_VALUES.has(value);
}

function withoutComment(value: string): string {
  const hash = value.indexOf('#');
  const semicolon = value.indexOf(';');
  const ends = [hash, semicolon].filter((index) => index !== -1);
  return ends.length === 0 ? value : value.slice(0, Math.min(...ends));
}
