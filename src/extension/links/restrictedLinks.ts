/**
 * How many links an untrusted workspace's settings hold. VS Code hides a restricted setting's
 * workspace value from an untrusted window altogether (inspect() too), so the user would hear "no
 * links" about a folder that has them: the files are read, each bounded, only to count them
 * (src/tracker/links/linksWaiting.ts); nothing here is parsed as a link or acts.
 */
import * as vscode from 'vscode';
import { readBoundedText } from '../../platform/boundedRead';
import { linksCount } from '../../tracker/links/linksWaiting';

/** A settings file larger than this is not counted: a folder's settings are a few kilobytes. */
const MAX_SETTINGS_BYTES = 1024 * 1024;

/** The links of each folder's .vscode/settings.json and of the workspace file, counted. */
export async function restrictedLinkCount(): Promise<number> {
  const files = [
    ...(vscode.workspace.workspaceFolders ?? []).map((folder) =>
      vscode.Uri.joinPath(folder.uri, '.vscode', 'settings.json'),
    ),
    ...(vscode.workspace.workspaceFile === undefined ? [] : [vscode.workspace.workspaceFile]),
  ].filter((uri) => uri.scheme === 'file');
  const counts = await Promise.all(
    files.map((uri) => readBoundedText(uri.fsPath, { maxBytes: MAX_SETTINGS_BYTES }).then(linksCount, () => 0)),
  );
  return counts.reduce((sum, count) => sum + count, 0);
}
