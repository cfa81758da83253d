/**
 * The one typed reader of the extension's settings (`timeTracker.*`). The defaults live in
 * package.json only: VS Code hands them over (`inspect(key).defaultValue`), and a value the
 * schema would refuse (a hand-edited settings.json) falls back to that default instead of failing.
 */
import * as vscode from 'vscode';
import type { RepoNameMode } from '../git/repoName';
import { MAX_PORT, MIN_PORT } from '../protocol/constants';
import { isHeaderPrefix, type HeaderPrefix } from '../protocol/headers';

export const SECTION = 'timeTracker';

/**
 * package.json's `minimum` of timeTracker.pollIntervalSeconds: VS Code only marks a smaller value
 * in the settings editor, neither enforces it nor tells an extension the schema's bounds, so the
 * number is repeated here. (The port's bounds are the protocol's, read from its constants.)
 */
const MIN_POLL_INTERVAL_SECONDS = 2;
/** package.json's bounds of timeTracker.statusBar.maxNameLength, repeated for the same reason. */
const NAME_LENGTH_BOUNDS = { min: 10, max: 200 } as const;

export interface Settings {
  readonly port: number;
  readonly pollIntervalSeconds: number;
  readonly showTodayTotal: boolean;
  /** The most characters of the running activity's name the status bar item shows. */
  readonly maxNameLength: number;
  /** The status bar's text while the app says what runs (statusText.ts parses it; an unknown token falls back to the default). */
  readonly statusFormat: string;
  /** The icon and the state only: no name and no time in the status bar item, for screen sharing. */
  readonly privateStatusBar: boolean;
  /** Where the item stands; VS Code cannot move an item, so a change re-creates it (statusBar.ts). */
  readonly statusBarAlignment: 'left' | 'right';
  readonly statusBarPriority: number;
  /** `auto` finds the app's prefix by itself (one extra failed sign-in at most). */
  readonly headerPrefix: HeaderPrefix | 'auto';
  /** Path of the app's VS Code integration file; empty for the app's default places. */
  readonly capabilityFile: string;
  readonly git: {
    /** `true`: reported unless a link decided the branch (issue 25); `always`: reported even then. */
    readonly reportBranchChanges: boolean | 'always';
    readonly ignoreBranches: readonly string[];
    readonly repoName: RepoNameMode;
  };
  /** Issue 24: the time-by-branch ledger, kept on this machine only. */
  readonly branchTime: {
    readonly enabled: boolean;
    readonly keepDays: number;
  };
  /** The ticket key in a branch name, for Copy Summary (a regular expression; checked where it is used). */
  readonly ticketPattern: string;
  /** Issue 25: folders and branches linked to activities, the workspace's first, then the user's (checked in src/tracker/links). */
  readonly links: {
    readonly enabled: boolean;
    readonly sources: readonly LinkSource[];
  };
  /** timeTracker.remote.allowWorkspaceHost, from the user's own settings alone: talk to the app from a remote machine's host. */
  readonly allowWorkspaceHost: boolean;
}

/** One settings file's `timeTracker.links`, as written there. */
export interface LinkSource {
  readonly scope: 'workspace' | 'user';
  readonly value: unknown;
}

/** Takes a setting's value as the extension uses it, or undefined for one the schema would refuse. */
type Reader<T> = (value: unknown) => T | undefined;

const port: Reader<number> = (value) => (typeof value === 'number' && Number.isInteger(value) && value >= MIN_PORT && value <= MAX_PORT ? value : undefined);
const interval: Reader<number> = (value) => (typeof value === 'number' && Number.isFinite(value) ? Math.max(MIN_POLL_INTERVAL_SECONDS, value) : undefined);
const nameLength: Reader<number> = (value) =>
  typeof value === 'number' && Number.isFinite(value) ? Math.min(NAME_LENGTH_BOUNDS.max, Math.max(NAME_LENGTH_BOUNDS.min, Math.floor(value))) : undefined;
const flag: Reader<boolean> = (value) => (typeof value === 'boolean' ? value : undefined);
const headerPrefix: Reader<HeaderPrefix | 'auto'> = (value) => (typeof value === 'string' && (value === 'auto' || isHeaderPrefix(value)) ? value : undefined);
const path: Reader<string> = (value) => (typeof value === 'string' ? value.trim() : undefined);
const globs: Reader<string[]> = (value) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined);
const days: Reader<number> = (value) => (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= 3660 ? value : undefined);
const text: Reader<string> = (value) => (typeof value === 'string' ? value : undefined);
const reporting: Reader<boolean | 'always'> = (value) => (typeof value === 'boolean' || value === 'always' ? value : undefined);
const alignment: Reader<'left' | 'right'> = (value) => (value === 'left' || value === 'right' ? value : undefined);
const priority: Reader<number> = (value) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const repoName: Reader<RepoNameMode> = (value) => (value === 'folderName' || value === 'remoteUrl' ? value : undefined);

export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration(SECTION);
  const read = <T>(key: string, reader: Reader<T>): T => setting(config, key, reader);
  return {
    port: read('port', port),
    pollIntervalSeconds: read('pollIntervalSeconds', interval),
    showTodayTotal: read('statusBar.showTodayTotal', flag),
    maxNameLength: read('statusBar.maxNameLength', nameLength),
    statusFormat: read('statusBar.format', text),
    privateStatusBar: read('statusBar.private', flag),
    statusBarAlignment: read('statusBar.alignment', alignment),
    statusBarPriority: read('statusBar.priority', priority),
    headerPrefix: read('headerPrefix', headerPrefix),
    capabilityFile: read('capabilityFile', path),
    git: {
      reportBranchChanges: read('git.reportBranchChanges', reporting),
      ignoreBranches: read('git.ignoreBranches', globs),
      repoName: read('git.repoName', repoName),
    },
    branchTime: { enabled: read('branchTime.enabled', flag), keepDays: read('branchTime.keepDays', days) },
    ticketPattern: read('ticketPattern', text),
    links: { enabled: read('linksEnabled', flag), sources: linkSources(config) },
    // Whether the remote machine is the user's is the user's word: a workspace's value is never read.
    allowWorkspaceHost: config.inspect('remote.allowWorkspaceHost')?.globalValue === true,
  };
}

/**
 * Each file's list, the workspace's before the user's: a team's links and a person's both apply
 * (VS Code's merged value would hide the user's list behind the workspace's). Checked where used.
 */
function linkSources(config: vscode.WorkspaceConfiguration): LinkSource[] {
  const set = config.inspect('links');
  return [
    ...(set?.workspaceValue === undefined ? [] : [{ scope: 'workspace' as const, value: set.workspaceValue }]),
    ...(set?.globalValue === undefined ? [] : [{ scope: 'user' as const, value: set.globalValue }]),
  ];
}

/** The value set, if `reader` takes it; else package.json's default, as VS Code gives it. */
function setting<T>(config: vscode.WorkspaceConfiguration, key: string, reader: Reader<T>): T {
  const value = reader(config.get(key)) ?? reader(config.inspect(key)?.defaultValue);
  // Only a package.json without this setting's default, or with one its own schema refuses.
  if (value === undefined) throw new Error(`package.json has no valid default for ${SECTION}.${key}.`);
  return value;
}
