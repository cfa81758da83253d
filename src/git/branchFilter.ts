/**
 * `timeTracker.git.ignoreBranches`: glob patterns matched against the whole branch name.
 * `*` matches within one path segment, `**` across segments, `?` one character.
 */
export function compileBranchGlobs(patterns: readonly string[]): (branch: string) => boolean {
  const expressions = patterns.filter((pattern) => pattern.trim() !== '').map((pattern) => globToRegExp(pattern.trim()));
  return (branch) => expressions.some((expression) => expression.test(branch));
}

function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const character = glob[i] ?? '';
    if (character === '*') {
      if (glob[i + 1] === '*') {
        source += '.*';
        i++;
      } else {
        source += '[^/]*';
      }
    } else if (character === '?') {
      source += '[^/]';
    } else {
      source += character.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
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
