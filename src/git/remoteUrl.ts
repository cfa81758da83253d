/**
 * A repository's remote URL as its config holds it may carry a user name and password: repoName.ts
 * sends and logs it only without them. (The branch globs that lived beside it are src/platform/globs.ts.)
 */

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
