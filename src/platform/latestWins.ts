/**
 * For settings that are read asynchronously and then applied (the token from SecretStorage):
 * calls can overlap, and reads can finish out of order, so only the latest call's value applies.
 * Otherwise a slow read begun before a change would put the old value back after it.
 */
export function latestWins<T>(read: () => Promise<T>, apply: (value: T) => Promise<void> | void): () => Promise<void> {
  let generation = 0;
  let latest: Promise<void> = Promise.resolve();
  return () => {
    const mine = ++generation;
    latest = (async () => {
      const value = await read();
      // Overtaken: a caller waiting on this call waits for the one that applies instead.
      if (mine !== generation) return await latest;
      await apply(value);
    })();
    return latest;
  };
}
