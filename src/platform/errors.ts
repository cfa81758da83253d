/**
 * What every layer says about an error it did not make: its message, and the system's code for
 * it. `catch (error)` hands over `unknown`, so "the message of an error" takes a few lines;
 * these are the one way to say it, so that every layer says it alike.
 */

/** The error's own sentence, or the thrown value as text when it is no Error. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The message without its final full stop, to be set inside a sentence of the caller's. */
export function errorPhrase(error: unknown): string {
  return errorMessage(error).replace(/\.$/, '');
}

/** The system's code of a failed call (`ENOENT`, `EACCES`…), or undefined for any other error. */
export function errnoCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code } = error as { code?: unknown };
  return typeof code === 'string' ? code : undefined;
}
