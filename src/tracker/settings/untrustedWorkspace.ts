/**
 * What a workspace's own value of a restricted setting may do while VS Code does not trust the
 * workspace (Restricted Mode): only narrow what the user's settings make the extension do. A value
 * that would send, start, create or reveal more than the user's own is not read; one that does
 * less is, since a repository may well ask for less. Trusted, a workspace's value applies as VS
 * Code merges it. package.json lists the same keys in `restrictedConfigurations` (a unit test
 * holds them equal), so VS Code itself may already hide those values from an untrusted window:
 * this is the rule where it does not.
 */

/** Branch reports: never, unless a link decided the branch, or always. */
export type Reporting = boolean | 'always';
/** What a branch report names as the repository: the folder's name, or the remote's URL (which tells more). */
export type RepoNaming = 'folderName' | 'remoteUrl';

/** From less to more sent. */
const REPORTING_ORDER: readonly Reporting[] = [false, true, 'always'];

/**
 * Per restricted setting that a workspace may narrow (its name after `timeTracker.`), the value an
 * untrusted window uses, from the user's (their settings, else the default) and the workspace's
 * (undefined: not set there, or not a value the schema takes).
 */
export const NARROWED_BY_UNTRUSTED_WORKSPACE = {
  /** A workspace may report less (`false`), never more. */
  'git.reportBranchChanges': (user: Reporting, workspace: Reporting | undefined): Reporting =>
    workspace !== undefined && REPORTING_ORDER.indexOf(workspace) < REPORTING_ORDER.indexOf(user) ? workspace : user,
  /** A workspace's patterns are added to the user's: more branches ignored is fewer reports. */
  'git.ignoreBranches': (user: readonly string[], workspace: readonly string[] | undefined): readonly string[] => [
    ...user,
    ...(workspace ?? []),
  ],
  /** A workspace may name the repository by its folder, never by the remote's URL. */
  'git.repoName': (user: RepoNaming, workspace: RepoNaming | undefined): RepoNaming =>
    workspace === 'folderName' ? workspace : user,
};

/**
 * The settings a workspace sets only to narrow until trusted, as package.json's
 * `restrictedConfigurations` names them (without `timeTracker.`). A workspace's links start and
 * create activities in the user's app: untrusted, not one of them is read (they narrow nothing).
 */
export const RESTRICTED_SETTINGS: readonly string[] = ['links', ...Object.keys(NARROWED_BY_UNTRUSTED_WORKSPACE)];

/**
 * Whether `key` (a setting's name after `timeTracker.`, or a section of them: `git`) holds a restricted setting: what
 * granting trust changes.
 */
export function touchesRestricted(key: string): boolean {
  return RESTRICTED_SETTINGS.some((setting) => setting === key || setting.startsWith(`${key}.`));
}
