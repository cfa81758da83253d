/**
 * What Link This Branch…, Link This Folder… and Unlink write into a settings file's list of links,
 * pure: the list as written in, the new list out, never touching an entry they do not mean. Where
 * a new link goes follows what decides (./links.ts decideLink): a branch link beats a folder link
 * wherever each stands, and among links of one kind the first that matches wins. So a new exact
 * branch link goes first (it is meant for this branch, before any pattern that also matches it); a
 * new branch pattern goes after the exact branch links and before the patterns already there (it
 * was made on a branch it must act on, so an older broader pattern must not shadow it); a new
 * folder link goes after every branch link, before the folder links already there.
 */
import type { LinkText } from './linkConsent';

/** A link as written to settings.json by the commands. */
export type WrittenLink = LinkText & { readonly except?: readonly string[] };

/** Whether a glob matches more than the one name it spells (`*`, `**`, `?`; not behind a `\`). */
export function isPattern(glob: string): boolean {
  const unescaped = glob.replace(/\\[\s\S]/gu, '');
  return unescaped.includes('*') || unescaped.includes('?');
}

/** The entry's branch glob, where it is a written link that has one. */
function branchOf(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return undefined;
  const branch = (entry as { readonly branch?: unknown }).branch;
  return typeof branch === 'string' ? branch : undefined;
}

/**
 * `link` placed in `list` where it shadows no link of its kind that was there (see above), in place of the entries
 * `replaces` names.
 */
export function placeLink(
  list: readonly unknown[],
  link: WrittenLink,
  replaces: (entry: Partial<WrittenLink>) => boolean,
): unknown[] {
  const kept = list.filter(
    (entry) => !(typeof entry === 'object' && entry !== null && replaces(entry as Partial<WrittenLink>)),
  );
  const lastBranch = kept.reduce<number>((last, entry, index) => (branchOf(entry) === undefined ? last : index), -1);
  let at: number;
  if (link.branch === undefined) at = lastBranch + 1;
  else if (!isPattern(link.branch)) at = 0;
  else {
    const firstPattern = kept.findIndex((entry) => {
      const branch = branchOf(entry);
      return branch !== undefined && isPattern(branch);
    });
    at = firstPattern === -1 ? lastBranch + 1 : firstPattern;
  }
  return [...kept.slice(0, at), link, ...kept.slice(at)];
}

/** The list without the link at `position` (from 1, as parseLinks counts). */
export function withoutLink(list: readonly unknown[], position: number): unknown[] {
  return list.filter((_, index) => index !== position - 1);
}

/**
 * The list with `branch` added to the `except` of the link at `position`: the pattern stays for
 * every other branch, and this one is no longer linked (nor reported as linked).
 */
export function withException(list: readonly unknown[], position: number, branch: string): unknown[] {
  return list.map((entry, index) => {
    if (index !== position - 1 || typeof entry !== 'object' || entry === null) return entry;
    const written = entry as { readonly except?: unknown };
    const except: unknown[] = Array.isArray(written.except)
      ? (written.except as unknown[]).filter((item) => item !== branch)
      : [];
    return { ...written, except: [...except, branch] };
  });
}
