import * as vscode from 'vscode';
import { DEFAULT_PORT, MAX_PORT, MIN_PORT } from '../protocol/constants';
import type { RepoNameMode } from '../git/repoName';
import { isHeaderPrefix, type HeaderPrefix } from '../protocol/headers';

export const SECTION = 'timeTracker';

export interface Settings {
  readonly port: number;
  readonly pollIntervalSeconds: number;
  readonly showTodayTotal: boolean;
  /** `auto` finds the app's prefix by itself (one extra failed sign-in at most). */
  readonly headerPrefix: HeaderPrefix | 'auto';
  /** Path of the app's VS Code integration file; empty for the app's default places. */
  readonly capabilityFile: string;
  readonly git: {
    readonly reportBranchChanges: boolean;
    readonly ignoreBranches: readonly string[];
    readonly repoName: RepoNameMode;
  };
}

/**
 * The one typed reader of the extension's settings. Defaults live in package.json; a value the
 * schema would refuse (hand-edited settings.json) falls back to the default instead of failing.
 */
export function readSettings(): Settings {
  const config = vscode.workspace.getConfiguration(SECTION);
  const port = config.get<number>('port', DEFAULT_PORT);
  const interval = config.get<number>('pollIntervalSeconds', 10);
  const prefix = config.get<string>('headerPrefix', 'auto');
  const capabilityFile = config.get<unknown>('capabilityFile', '');
  const ignoreBranches = config.get<unknown>('git.ignoreBranches', []);
  return {
    port: Number.isInteger(port) && port >= MIN_PORT && port <= MAX_PORT ? port : DEFAULT_PORT,
    pollIntervalSeconds: Number.isFinite(interval) ? Math.max(2, interval) : 10,
    showTodayTotal: config.get<boolean>('statusBar.showTodayTotal', true),
    headerPrefix: isHeaderPrefix(prefix) ? prefix : 'auto',
    capabilityFile: typeof capabilityFile === 'string' ? capabilityFile.trim() : '',
    git: {
      reportBranchChanges: config.get<boolean>('git.reportBranchChanges', true),
      ignoreBranches: Array.isArray(ignoreBranches) ? ignoreBranches.filter((item): item is string => typeof item === 'string') : [],
      repoName: config.get<string>('git.repoName', 'folderName') === 'remoteUrl' ? 'remoteUrl' : 'folderName',
    },
  };
}
