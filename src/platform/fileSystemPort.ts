/**
 * The few file operations the parts that follow files need: the branch watcher (HEAD, git's
 * config) and the session (the app's capability file). On the machine the files are on, Node's fs
 * does them; when the extension runs on the user's machine and the workspace is remote (SSH, WSL,
 * containers), the extension supplies VS Code's remote file system instead. Every file read here
 * belongs to someone else, so it is read bounded (boundedRead.ts).
 */
import { watch, watchFile, unwatchFile } from 'node:fs';
import { lstat, stat } from 'node:fs/promises';
import * as nodePath from 'node:path';
import { readBoundedText } from './boundedRead';
import { pathKey } from './pathKey';

export interface Closable {
  close(): void;
}

/** The most `readText` reads: HEAD, a `.git` file and git's config are far smaller. */
export const MAX_TEXT_BYTES = 64 * 1024;

/**
 * Calls `onChange` when an entry named in `names` changes directly inside `directory`.
 * Throws when the system cannot watch (no such folder, no inotify watches left): the caller
 * polls instead.
 */
export type FolderWatch = (
  directory: string,
  names: ReadonlySet<string>,
  onChange: () => void,
  onError: () => void,
) => Closable;

export interface FileSystemPort {
  /** The path functions that fit the file system's paths (VS Code's URI paths are always POSIX). */
  readonly path: Pick<typeof nodePath.posix, 'join' | 'dirname' | 'resolve' | 'isAbsolute' | 'basename'>;
  /** The file's text, or undefined when it cannot be read, is no regular file or is over MAX_TEXT_BYTES. */
  readText(path: string): Promise<string | undefined>;
  kind(path: string): Promise<'file' | 'directory' | undefined>;
  watchDirectory: FolderWatch;
  /** The fallback: look at one file every `intervalMs`. */
  pollFile(path: string, intervalMs: number, onChange: () => void): Closable;
}

/**
 * Which folder is at `folder` now, as device and inode; undefined when there is no folder there. A
 * watch follows the folder it was given, not the path: one removed and made again is another.
 */
export async function folderIdentity(folder: string): Promise<string | undefined> {
  const info = await stat(folder).catch(() => undefined);
  return info?.isDirectory() ? `${info.dev}:${info.ino}` : undefined;
}

/**
 * Which version of a file is at a path, without reading it, or undefined when none is (or it
 * cannot be asked): the link itself, not what it points to, and its inode, size and change times
 * to the nanosecond. An atomic write puts a new inode there, so a store that remembers the version
 * it read or wrote last can skip reading the same bytes again.
 */
export async function fileVersion(path: string): Promise<string | undefined> {
  const info = await lstat(path, { bigint: true }).catch(() => undefined);
  return info === undefined ? undefined : `${info.dev}:${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/** Node's `fs.watch` as far as a folder watch uses it; tests put a Mac's in its place. */
export type WatchFunction = (
  directory: string,
  options: { readonly persistent: false },
  listener: (event: string, filename: string | null) => void,
) => Closable & { on(event: 'error', listener: () => void): unknown };

/** A folder watch over `watchFunction`, its names compared as `platform`'s file system does. */
export function folderWatchOn(platform: NodeJS.Platform, watchFunction: WatchFunction): FolderWatch {
  return (directory, names, onChange, onError) => {
    const keys = new Set([...names].map((name) => pathKey(name, platform)));
    const watcher = watchFunction(directory, { persistent: false }, (_event, filename) => {
      if (filename === null || keys.has(pathKey(filename, platform))) onChange();
    });
    watcher.on('error', onError);
    return watcher;
  };
}

export const nodeFileSystem: FileSystemPort = {
  path: nodePath,
  readText: (path) => readBoundedText(path, { maxBytes: MAX_TEXT_BYTES }).catch(() => undefined),
  kind: async (path) => {
    const info = await stat(path).catch(() => undefined);
    return info?.isDirectory() ? 'directory' : info?.isFile() ? 'file' : undefined;
  },
  watchDirectory: folderWatchOn(process.platform, watch),
  pollFile: (path, intervalMs, onChange) => {
    watchFile(path, { persistent: false, interval: intervalMs }, onChange);
    return { close: () => unwatchFile(path) };
  },
};
