/**
 * The few file operations the branch watcher needs. On the machine the repository is on, Node's
 * fs does them; when the extension runs on the user's machine and the workspace is remote (SSH,
 * WSL, containers), the extension supplies VS Code's remote file system instead.
 */
import { watch, watchFile, unwatchFile } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import * as nodePath from 'node:path';

export interface Closable {
  close(): void;
}

/** The path functions that fit the file system's paths (VS Code's URI paths are always POSIX). */
export type PathApi = Pick<typeof nodePath.posix, 'join' | 'dirname' | 'resolve' | 'isAbsolute' | 'basename'>;

export interface GitFileSystem {
  readonly path: PathApi;
  /** The file's text, or undefined when it cannot be read. */
  readText(path: string): Promise<string | undefined>;
  kind(path: string): Promise<'file' | 'directory' | undefined>;
  /**
   * Calls `onChange` when an entry named in `names` changes directly inside `directory`.
   * Throws when the system cannot watch (out of inotify watches): the caller polls instead.
   */
  watchDirectory(directory: string, names: ReadonlySet<string>, onChange: () => void, onError: () => void): Closable;
  /** The fallback: look at one file every `intervalMs`. */
  pollFile(path: string, intervalMs: number, onChange: () => void): Closable;
}

export const nodeFileSystem: GitFileSystem = {
  path: nodePath,
  readText: (path) => readFile(path, 'utf8').catch(() => undefined),
  kind: async (path) => {
    const info = await stat(path).catch(() => undefined);
    return info?.isDirectory() ? 'directory' : info?.isFile() ? 'file' : undefined;
  },
  watchDirectory: (directory, names, onChange, onError) => {
    const watcher = watch(directory, { persistent: false }, (_event, filename) => {
      if (filename === null || names.has(filename)) onChange();
    });
    watcher.on('error', onError);
    return watcher;
  },
  pollFile: (path, intervalMs, onChange) => {
    watchFile(path, { persistent: false, interval: intervalMs }, onChange);
    return { close: () => unwatchFile(path) };
  },
};
