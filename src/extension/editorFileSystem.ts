import * as vscode from 'vscode';
import { posix } from 'node:path';
import { MAX_TEXT_BYTES, type Closable, type FileSystemPort } from '../platform/fileSystemPort';
import { every } from '../platform/timers';

/**
 * The file-system port (src/platform/fileSystemPort.ts) through VS Code's file system, for
 * workspace folders on another machine (Remote SSH, WSL, containers): the extension runs beside
 * the user's time tracker, and VS Code carries the reads and change events from the remote side.
 * Paths are the URIs' paths, which are always POSIX.
 */
export function editorFileSystem(base: vscode.Uri): FileSystemPort {
  const uri = (path: string): vscode.Uri => base.with({ path, query: '', fragment: '' });
  const decoder = new TextDecoder();
  return {
    path: posix,
    readText: async (path) => {
      try {
        // The remote side reads the file whole: only a regular file within the port's cap is asked for.
        const info = await vscode.workspace.fs.stat(uri(path));
        if ((info.type & vscode.FileType.File) === 0 || info.size > MAX_TEXT_BYTES) return undefined;
        return decoder.decode(await vscode.workspace.fs.readFile(uri(path)));
      } catch {
        return undefined;
      }
    },
    kind: async (path) => {
      try {
        const info = await vscode.workspace.fs.stat(uri(path));
        return info.type & vscode.FileType.Directory ? 'directory' : 'file';
      } catch {
        return undefined;
      }
    },
    watchDirectory: (directory, names, onChange) => {
      const watcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(uri(directory), `{${[...names].join(',')}}`),
      );
      const subscriptions: vscode.Disposable[] = [
        watcher,
        watcher.onDidChange(onChange),
        watcher.onDidCreate(onChange),
        watcher.onDidDelete(onChange),
      ];
      return {
        close: () => {
          for (const subscription of subscriptions) subscription.dispose();
        },
      };
    },
    pollFile: (path, intervalMs, onChange): Closable => {
      let last: number | undefined;
      const timer = every(() => {
        void vscode.workspace.fs.stat(uri(path)).then(
          (info) => {
            if (last !== undefined && info.mtime !== last) onChange();
            last = info.mtime;
          },
          () => undefined,
        );
      }, intervalMs);
      return { close: () => clearInterval(timer) };
    },
  };
}
