/**
 * Reading settings from environment variables that have several names (PROTOCOL.md §8). The one
 * implementation of "first one set wins": the client reads its token and port with it, and the
 * extension its token fallback, so both agree on which variable counts.
 */

export type Environment = Readonly<Record<string, string | undefined>>;

export interface SetVariable {
  readonly name: string;
  readonly value: string;
}

/**
 * The first of `names` that is set in `env`, with its value; undefined when none is. A variable
 * set to the empty string counts as unset: `CLESSIRA_TOKEN= code .` means "not this one", and an
 * empty token or port is never meant.
 */
export function firstSetVariable(env: Environment, names: readonly string[]): SetVariable | undefined {
  for (const name of names) {
    const value = env[name];
    if (value !== undefined && value !== '') return { name, value };
  }
  return undefined;
}
