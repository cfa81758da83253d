/**
 * What the launcher hands a suite inside the extension host: one environment variable, TT_SUITE,
 * holding JSON (written by test/extension/host/suite.mjs for code-server, test/extension/electron.mjs
 * for desktop VS Code): which host runs the suite, where its result goes, and the suite's own
 * parameters (the reload suite's state folder and app port, the soak's minutes, seed and faults).
 * One variable rather than one per value, so a new parameter is a key, not another name to keep
 * in step on both sides.
 */
export interface SuiteLaunch {
  /** The host the launcher started, so each suite runs the facts that hold there. */
  readonly host: 'code-server' | 'electron' | undefined;
  /** Where runner.ts writes the verdict the launcher reads. */
  readonly resultFile: string | undefined;
  readonly params: Readonly<Record<string, string | number | undefined>>;
}

export const SUITE_VARIABLE = 'TT_SUITE';

/** Reads TT_SUITE; a suite started some other way (the "Extension Tests" launch) gets no parameters. */
export function suiteLaunch(): SuiteLaunch {
  const text = process.env[SUITE_VARIABLE];
  if (text === undefined || text === '') return { host: undefined, resultFile: undefined, params: {} };
  const parsed = JSON.parse(text) as Partial<SuiteLaunch>;
  return { host: parsed.host, resultFile: parsed.resultFile, params: parsed.params ?? {} };
}

/** A parameter the suite cannot run without; the error names the way to start it. */
export function requiredParam(name: string, suite: string): string {
  const value = suiteLaunch().params[name];
  if (value === undefined || value === '')
    throw new Error(`the ${suite} suite has no "${name}": run it with \`npm test -- --suite ${suite}\``);
  return String(value);
}
