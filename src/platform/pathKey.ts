/**
 * File names and paths as the file system compares them. A Mac's file system (APFS, HFS+ by
 * default) ignores case and the Unicode form: `code ~/code/myapp` opens `~/Code/MyApp` under the
 * path as typed, a name made on HFS+ is stored decomposed (NFD) while a keyboard types NFC, and
 * FSEvents reports a name as it is on disk. So every "is this that" or "is this inside that" on
 * paths compares these keys, and what is shown keeps the path as first written. Linux's file
 * systems tell both apart, so there a name is its own key.
 */

/** The key a file name or path compares by on `platform`: NFC and case-folded on darwin, itself elsewhere. */
export function pathKey(path: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'darwin' ? foldedName(path) : path;
}

/**
 * A name as a file system that ignores case and the Unicode form compares it; also a branch name
 * where the repository says `core.ignorecase` (git then finds its refs through such a file system).
 */
export function foldedName(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** Whether `path` is `root` or inside it (either separator), compared by pathKey. */
export function isInside(path: string, root: string, platform: NodeJS.Platform = process.platform): boolean {
  const pathAsKey = pathKey(path, platform);
  const rootAsKey = pathKey(root, platform);
  // A root written with a trailing separator (`/a/b/`, `C:\`) names the same folder as without it.
  const bare = rootAsKey.endsWith('/') || rootAsKey.endsWith('\\') ? rootAsKey.slice(0, -1) : rootAsKey;
  if (pathAsKey === rootAsKey || pathAsKey === bare) return true;
  return pathAsKey.startsWith(`${bare}/`) || pathAsKey.startsWith(`${bare}\\`);
}

/** The key a branch name compares by: folded where its repository ignores case (`core.ignorecase`). */
export function branchKey(branch: string, ignoresCase: boolean): string {
  return ignoresCase ? foldedName(branch) : branch;
}
