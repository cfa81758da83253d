/** Reading package.json's texts: the unit tests check its %keys%, the German suite what VS Code shows for them. */

/** Every string value in the manifest, with its path (`['contributes', 'commands', '0', 'title']`). */
export function manifestStrings(
  value: unknown,
  path: readonly string[] = [],
): { path: readonly string[]; value: string }[] {
  if (typeof value === 'string') return [{ path, value }];
  if (Array.isArray(value)) return value.flatMap((item, index) => manifestStrings(item, [...path, String(index)]));
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, item]) => manifestStrings(item, [...path, key]));
  return [];
}

/** The `%key%` references of the manifest, each with its path. */
export function manifestKeys(manifest: unknown): { path: readonly string[]; key: string }[] {
  return manifestStrings(manifest).flatMap(({ path, value }) => {
    const key = /^%(.+)%$/.exec(value)?.[1];
    return key === undefined ? [] : [{ path, key }];
  });
}

/** What lies at `path` inside `value`, or undefined. */
export function valueAt(value: unknown, path: readonly string[]): unknown {
  return path.reduce<unknown>(
    (node, step) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[step] : undefined),
    value,
  );
}
