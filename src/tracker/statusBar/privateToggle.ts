/**
 * Toggle Private Status Bar: whether the status bar hides names and times is the person's choice
 * for every window, so the switch reads and writes the user's settings alone. A value a
 * repository's settings hold (written there by an older version, or by the repository) is not
 * used, and the user hears so once they switch, since that file still says otherwise.
 */
import * as l10n from '@vscode/l10n';

/** timeTracker.statusBar.private as VS Code's `inspect` gives it. */
export interface PrivateSettingValues {
  readonly defaultValue?: unknown;
  readonly globalValue?: unknown;
  readonly workspaceValue?: unknown;
  readonly workspaceFolderValue?: unknown;
}

export interface PrivateToggle {
  /** The user's new value (written to the user settings, never the workspace's). */
  readonly value: boolean;
  /** What to tell the user, when a repository's settings hold a value of their own; undefined otherwise. */
  readonly message: string | undefined;
}

export function privateToggle(values: PrivateSettingValues | undefined): PrivateToggle {
  const user = values?.globalValue ?? values?.defaultValue;
  const value = user !== true;
  const repositorySets = values?.workspaceValue !== undefined || values?.workspaceFolderValue !== undefined;
  if (!repositorySets) return { value, message: undefined };
  const now = value
    ? l10n.t('The status bar is private now (your user settings).')
    : l10n.t('The status bar shows activity and time again (your user settings).');
  return {
    value,
    message: `${now} ${l10n.t("This repository's settings also set timeTracker.statusBar.private; their value is not used.")}`,
  };
}
