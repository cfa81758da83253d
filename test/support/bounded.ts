/**
 * A wait with an end: what must never hang (a read beside a FIFO, a queue beside a stuck lock) is
 * awaited for at most a bound, so a regression fails with a sentence instead of stalling mocha.
 */

/** Resolves as `promise` does, or rejects once `ms` have passed, naming `what` took too long. */
export async function withinMs<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms.`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
