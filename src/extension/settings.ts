/**
 * The one typed reader of the extension's settings (`timeTracker.*`). The defaults live in
 * package.json only: VS Code hands them over (`inspect(key).defaultValue`), and a value the
 * schema would refuse (a hand-edited settings.json) falls back to that default instead of failing;
 * a number beyond the schema's bounds is held at the nearer one (tracker/settings/settingBounds.ts).
 */
import * as vscode from 'vscode';
import type { RepoNameMode } from '../git/repoName';
import { MAX_PORT, MIN_PORT } from '../protocol/constants';
import { isHeaderPrefix, type HeaderPrefix } from '../protocol/headers';
import { boundedNumber, roundToOf, SETTING_BOUNDS, type Bounds, type RoundTo } from '../tracker/settings/settingBounds';
import { NARROWED_BY_UNTRUSTED_WORKSPACE as NARROWED } from '../tracker/settings/untrustedWorkspace';
import { onUnlessWorkspaceTurnsOff, type TurnedOffByWorkspace } from '../tracker/settings/workspaceTurnsOff';

export const SECTION = 'timeTracker';

export interface Settings {
  readonly port: number;
  readonly pollIntervalSeconds: number;
  readonly showTodayTotal: boolean;
  /** The most characters of the running activity's name the status bar item shows. */
  readonly maxNameLength: number;
  /**
   * The status bar's text while the app says what runs (statusText.ts parses it; an unknown token falls back to the
   * default).
   */
  readonly statusFormat: string;
  /** The icon and the state only: no name and no time in the status bar item, for screen sharing. */
  readonly privateStatusBar: boolean;
  /** Where the item stands; VS Code cannot move an item, so a change re-creates it (statusBar.ts). */
  readonly statusBarAlignment: 'left' | 'right';
  readonly statusBarPriority: number;
  /** After how many hours a running session turns the item the warning colour, with Stop first (longSession.ts). */
  readonly longSessionHours: number;
  /** `auto` finds the app's prefix by itself (one extra failed sign-in at most). */
  readonly headerPrefix: HeaderPrefix | 'auto';
  /** Path of the app's VS Code integration file; empty for the app's default places. */
  readonly capabilityFile: string;
  readonly git: {
    /** `true`: reported unless a link decided the branch; `always`: reported even then. */
    readonly reportBranchChanges: boolean | 'always';
    /** The user's own value is `always`: reported even while the app's own extension reports them. */
    readonly reportBesideAppExtension: boolean;
    readonly ignoreBranches: readonly string[];
    readonly repoName: RepoNameMode;
  };
  /** The time-by-branch ledger, kept on this machine only. */
  readonly branchTime: {
    /** The user's choice, unless the workspace turned it off for itself (workspaceTurnsOff.ts). */
    readonly enabled: boolean;
    readonly keepDays: number;
    /** Per ticket and day, in Copy Week by Ticket and its CSV (tracker/branchTime/ticketWeek.ts). */
    readonly roundTo: RoundTo;
  };
  /** The ticket key prefixes that count (none: every key); checked where used (tracker/branchTime/ticketKeys.ts). */
  readonly ticketPrefixes: readonly string[];
  /**
   * Folders and branches linked to activities, the workspace's first, then the user's (checked in src/tracker/links).
   */
  readonly links: {
    readonly enabled: boolean;
    readonly sources: readonly LinkSource[];
  };
  /**
   * timeTracker.remote.allowWorkspaceHost, from the user's own settings alone: talk to the app from a remote machine's
   * host.
   */
  readonly allowWorkspaceHost: boolean;
}

/** One settings file's `timeTracker.links`, as written there. */
export interface LinkSource {
  readonly scope: 'workspace' | 'user';
  readonly value: unknown;
}

/** Takes a setting's value as the extension uses it, or undefined for one the schema would refuse. */
type Reader<T> = (value: unknown) => T | undefined;

const port: Reader<number> = (value) =>
  typeof value === 'number' && Number.isInteger(value) && value >= MIN_PORT && value <= MAX_PORT ? value : undefined;
const bounded =
  (bounds: Bounds): Reader<number> =>
  (value) =>
    boundedNumber(value, bounds);
const flag: Reader<boolean> = (value) => (typeof value === 'boolean' ? value : undefined);
const headerPrefix: Reader<HeaderPrefix | 'auto'> = (value) =>
  typeof value === 'string' && (value === 'auto' || isHeaderPrefix(value)) ? value : undefined;
const path: Reader<string> = (value) => (typeof value === 'string' ? value.trim() : undefined);
const strings: Reader<string[]> = (value) =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;
const text: Reader<string> = (value) => (typeof value === 'string' ? value : undefined);
const reporting: Reader<boolean | 'always'> = (value) =>
  typeof value === 'boolean' || value === 'always' ? value : undefined;
const alignment: Reader<'left' | 'right'> = (value) => (value === 'left' || value === 'right' ? value : undefined);
const repoName: Reader<RepoNameMode> = (value) => (value === 'folderName' || value === 'remoteUrl' ? value : undefined);

/**
 * The settings as the extension uses them. In a workspace VS Code does not trust, a restricted
 * setting's workspace value is read only as far as it narrows the user's (untrustedWorkspace.ts).
 */
export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration(SECTION);
  const trusted = vscode.workspace.isTrusted;
  const read = <T>(key: string, reader: Reader<T>): T => setting(config, key, reader);
  const restricted = <T>(
    key: keyof typeof NARROWED,
    reader: Reader<T>,
    narrow: (user: T, workspace: T | undefined) => T,
  ): T => (trusted ? read(key, reader) : untrustedSetting(config, key, reader, narrow));
  return {
    port: read('port', port),
    pollIntervalSeconds: read('pollIntervalSeconds', bounded(SETTING_BOUNDS.pollIntervalSeconds)),
    showTodayTotal: read('statusBar.showTodayTotal', flag),
    maxNameLength: read('statusBar.maxNameLength', bounded(SETTING_BOUNDS['statusBar.maxNameLength'])),
    statusFormat: read('statusBar.format', text),
    privateStatusBar: read('statusBar.private', flag),
    statusBarAlignment: read('statusBar.alignment', alignment),
    statusBarPriority: read('statusBar.priority', bounded(SETTING_BOUNDS['statusBar.priority'])),
    longSessionHours: read('statusBar.longSessionHours', bounded(SETTING_BOUNDS['statusBar.longSessionHours'])),
    headerPrefix: read('headerPrefix', headerPrefix),
    capabilityFile: read('capabilityFile', path),
    git: {
      reportBranchChanges: restricted('git.reportBranchChanges', reporting, NARROWED['git.reportBranchChanges']),
      // Two reports a switch is the person's choice: a repository's value is never read for it.
      reportBesideAppExtension: config.inspect('git.reportBranchChanges')?.globalValue === 'always',
      ignoreBranches: restricted('git.ignoreBranches', strings, NARROWED['git.ignoreBranches']),
      repoName: restricted('git.repoName', repoName, NARROWED['git.repoName']),
    },
    branchTime: {
      enabled: turnedOffByWorkspace(config, 'branchTime.enabled'),
      keepDays: read('branchTime.keepDays', bounded(SETTING_BOUNDS['branchTime.keepDays'])),
      roundTo: read('branchTime.roundTo', roundToOf),
    },
    ticketPrefixes: read('ticketPrefixes', strings),
    links: { enabled: read('linksEnabled', flag), sources: linkSources(config, trusted) },
    // Whether the remote machine is the user's is the user's word: a workspace's value is never read.
    allowWorkspaceHost: config.inspect('remote.allowWorkspaceHost')?.globalValue === true,
  };
}

/**
 * Each file's list, the workspace's before the user's: a team's links and a person's both apply
 * (VS Code's merged value would hide the user's list behind the workspace's). Checked where used.
 * An untrusted workspace's links are not read at all: they would start and create activities.
 */
function linkSources(config: vscode.WorkspaceConfiguration, trusted: boolean): LinkSource[] {
  const set = config.inspect('links');
  return [
    ...(set?.workspaceValue === undefined || !trusted
      ? []
      : [{ scope: 'workspace' as const, value: set.workspaceValue }]),
    ...(set?.globalValue === undefined ? [] : [{ scope: 'user' as const, value: set.globalValue }]),
  ];
}

/**
 * The user's value (else the default), unless the workspace's or the folder's settings say
 * `false`: trusted or not, since recording less always narrows. VS Code's merged value would let
 * a workspace's `true` override the user's `false`.
 */
function turnedOffByWorkspace(config: vscode.WorkspaceConfiguration, key: TurnedOffByWorkspace): boolean {
  const set = config.inspect(key);
  return onUnlessWorkspaceTurnsOff(flag(set?.globalValue) ?? packageDefault(config, key, flag), [
    set?.workspaceValue,
    set?.workspaceFolderValue,
  ]);
}

/** The value set, if `reader` takes it; else package.json's default, as VS Code gives it. */
function setting<T>(config: vscode.WorkspaceConfiguration, key: string, reader: Reader<T>): T {
  return reader(config.get(key)) ?? packageDefault(config, key, reader);
}

/** The user's value (else the default), narrowed by the workspace's as `narrow` allows. */
function untrustedSetting<T>(
  config: vscode.WorkspaceConfiguration,
  key: string,
  reader: Reader<T>,
  narrow: (user: T, workspace: T | undefined) => T,
): T {
  const set = config.inspect(key);
  return narrow(
    reader(set?.globalValue) ?? packageDefault(config, key, reader),
    reader(set?.workspaceFolderValue ?? set?.workspaceValue),
  );
}

function packageDefault<T>(config: vscode.WorkspaceConfiguration, key: string, reader: Reader<T>): T {
  const value = reader(config.inspect(key)?.defaultValue);
  // Only a package.json without this setting's default, or with one its own schema refuses.
  if (value === undefined) throw new Error(`package.json has no valid default for ${SECTION}.${key}.`);
  return value;
}
