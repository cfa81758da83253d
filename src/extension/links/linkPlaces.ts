/**
 * Where a window works, as links match it: the workspace folders a repository belongs to, and a
 * folder's path (`/`-separated; for a remote folder its path there), and the folder a command acts on.
 */
import * as vscode from 'vscode';
import { isInside } from '../../platform/pathKey';

/** The workspace folders a repository belongs to (either holds the other); its own root when none does. */
export function foldersOf(root: string): string[] {
  const repository = slashes(root);
  const folders = (vscode.workspace.workspaceFolders ?? [])
    .map((folder) => pathOf(folder.uri))
    .filter((folder) => isInside(folder, repository) || isInside(repository, folder));
  return folders.length === 0 ? [repository] : folders;
}

/** A folder's path as links match it: `/`-separated, for a remote folder its path there. */
export function pathOf(uri: vscode.Uri): string {
  return uri.scheme === 'file' ? slashes(uri.fsPath) : uri.path;
}

export function slashes(path: string): string {
  return path.replace(/\\/g, '/');
}

/**
 * The folder this window works in: the active editor's, else the only one; several: the user picks (undefined: none, or
 * left).
 */
export async function folderHere(): Promise<vscode.WorkspaceFolder | undefined> {
  const file = vscode.window.activeTextEditor?.document.uri;
  const active = file === undefined ? undefined : vscode.workspace.getWorkspaceFolder(file);
  if (active !== undefined) return active;
  const folders = vscode.workspace.workspaceFolders ?? [];
  return folders.length <= 1
    ? folders[0]
    : vscode.window.showWorkspaceFolderPick({ placeHolder: vscode.l10n.t('Which folder?') });
}
