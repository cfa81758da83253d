/**
 * The settings a workspace may turn off for itself, never on. Recording less is always the
 * narrower choice, so a workspace's `false` is read whether VS Code trusts the workspace or not: a
 * repository whose time must not be recorded (a client's, a private one) says so in its own
 * settings. Its `true` is not read at all: whether the feature is on is the user's choice (their
 * settings, else the default). package.json gives these a `window` scope, so VS Code offers them
 * in workspace settings; a unit test holds the two lists equal.
 */

/** Their names after `timeTracker.`. */
export const TURNED_OFF_BY_WORKSPACE = ['branchTime.enabled'] as const;

export type TurnedOffByWorkspace = (typeof TURNED_OFF_BY_WORKSPACE)[number];

/**
 * On when the user's value (else the default) is on and no workspace value is `false`; `workspace`
 * holds what the workspace's and the folder's settings say, as written there (anything but `false`
 * turns nothing off).
 */
export function onUnlessWorkspaceTurnsOff(user: boolean, workspace: readonly unknown[]): boolean {
  return user && !workspace.includes(false);
}
