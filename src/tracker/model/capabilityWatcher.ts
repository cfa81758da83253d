/**
 * Follows the capability file of the app's VS Code integration: it appears when the user turns
 * the integration on, changes when the app restarts (new pid, socket, maybe token), disappears
 * when the app quits, and goes stale when the app crashes, which no file event reports. So the
 * folders the file may be in are watched, and a change there is read at once; the file is also
 * read again every CAPABILITY_CHECK_INTERVAL_MS (for a folder that cannot be watched, say one the
 * app has not made yet), and at once when the socket stops answering (a crash). Watching spares
 * what a look every 2 s would cost: a fifth of the extension's idle CPU (docs/PERFORMANCE.md).
 * A watch follows the folder it was given: once that folder is removed it goes quiet (on Linux,
 * Node reports only a 'rename' of the folder's own name, which the names filter drops), and one
 * made again in its place is another folder. So each look also asks the folder's identity, and
 * watches anew the folder that replaced it, or, while it is missing, its nearest ancestor there
 * for the name that leads to it. While no folder of the paths is there (the app's default places
 * on a machine without the app) and each is so watched, the timer does not look: the file cannot
 * appear before its folder, and the ancestor's event is the look. Nor while the file is ready and
 * every folder is watched: the app rewrites it when it restarts (an event), removes it when it quits
 * (an event), and a crash leaves a socket that refuses, which the session's next poll sees and
 * answers with check(). A look costs a dozen file system calls, a third of an unused window's CPU.
 * A file macOS refused for privacy (the user declined VS Code's access to another app's data) is
 * not read again, by timer or watch, until asked (check(): Check Connection, a setting): reading
 * again changes nothing until the user allows it in System Settings. A refusal remembered from an
 * earlier start (./privacyRefusal.ts) is the first reading, and the file is not read until asked:
 * each read may put macOS's question to the user again.
 * Timers, the folder watch and the folder's identity are injected: tests drive it without waiting.
 */
import { basename, dirname } from 'node:path';
import { isMacPrivacyRefusal, type CapabilityReading } from '../../client/capabilityReader';
import type { FolderWatch } from '../../platform/fileSystemPort';
import { boundedTimers, type Timers } from '../../platform/timers';

export const CAPABILITY_CHECK_INTERVAL_MS = 10_000;

export interface CapabilityWatcherOptions {
  /** Reads the file (or searches the default places); never rejects. */
  readonly read: () => Promise<CapabilityReading>;
  /** Called when what is read differs from the last reading (and for the first one). */
  readonly onChange: (reading: CapabilityReading) => void;
  readonly intervalMs?: number;
  readonly timers?: Timers;
  /**
   * The paths `read` looks at (the setting's, or the default places); asked after every read, as a setting may change
   * them.
   */
  readonly paths?: () => readonly string[];
  /** Watches their folders; without it (or where it throws) only the timer looks. */
  readonly watchFolder?: FolderWatch;
  /**
   * Which folder is at a path now (`folderIdentity` of src/platform/fileSystemPort.ts), undefined
   * when none is. Without it a watch is trusted until it fails, and a folder removed and made again
   * is not watched again.
   */
  readonly folderIdentity?: (folder: string) => Promise<string | undefined>;
  /**
   * macOS's privacy consent refusing the file, remembered from an earlier start: the first reading,
   * taken without reading the file (and not reported), held until check(). Any other reading is
   * ignored: the file is read as usual.
   */
  readonly remembered?: CapabilityReading | undefined;
}

/** A folder to watch: the names in it, and which folder it is ('' when nobody asks). */
interface WantedFolder {
  readonly names: Set<string>;
  readonly identity: string;
}

interface ArmedWatch {
  /** The names watched in the folder, as one key: a new set of names needs a new watch. */
  readonly names: string;
  /** The folder the watch follows: another one at the same path needs a new watch. */
  readonly identity: string;
  readonly watch: { close(): void };
}

export class CapabilityWatcher {
  private last: CapabilityReading | undefined;
  private checking: Promise<CapabilityReading> | undefined;
  private again = false;
  private timer: unknown;
  private disposed = false;
  /** Told to stop looking (stop()) until the next check. */
  private stopped = false;
  /** The Mac's privacy consent refused the file: no timer, no watch, until the next check(). */
  private held = false;
  /** The paths read when the refusal came (pathsKey): a setting that changes them is a new question. */
  private heldPaths = '';
  private readonly timers: Timers;
  /** By folder. */
  private readonly watches = new Map<string, ArmedWatch>();
  /** Folders found missing or replaced: once watched again, the file is read once more. */
  private readonly lost = new Set<string>();
  /** No folder of the paths is there, and an ancestor of each is watched: the timer need not look. */
  private waitingForFolders = false;
  /** Every folder of the paths (or, while missing, its ancestor) is watched. */
  private allWatched = false;

  constructor(private readonly options: CapabilityWatcherOptions) {
    this.timers = boundedTimers(options.timers);
    if (options.remembered !== undefined && isMacPrivacyRefusal(options.remembered)) {
      this.last = options.remembered;
      this.hold();
    }
  }

  /** The latest reading; the first call reads the file. */
  current(): Promise<CapabilityReading> {
    return this.last ? Promise.resolve(this.last) : this.check();
  }

  /**
   * Reads the file now and reports a change. Checks never overlap: one asked for during a check
   * runs right after it, so a change made meanwhile is not missed.
   */
  check(): Promise<CapabilityReading> {
    this.stopped = false;
    this.held = false;
    if (this.checking) {
      this.again = true;
      return this.checking;
    }
    this.cancelTimer();
    this.checking = this.run().finally(() => {
      this.checking = undefined;
      this.schedule();
    });
    return this.checking;
  }

  /**
   * A setting changed: check(), unless the file is held for macOS's privacy refusal and the paths to
   * read are those it refused. Each read may put macOS's question to the user again, and changing
   * the status bar's format is no answer to it.
   */
  settingsChanged(): Promise<CapabilityReading> {
    if (this.held && this.last !== undefined && this.pathsKey() === this.heldPaths) return Promise.resolve(this.last);
    return this.check();
  }

  private hold(): void {
    this.held = true;
    this.heldPaths = this.pathsKey();
  }

  private pathsKey(): string {
    return JSON.stringify(this.options.paths?.() ?? []);
  }

  /**
   * Stops looking until the next check(): no timer, no watch, and what was read is forgotten, so
   * the next current() reads the file again. A check under way reports nothing more.
   */
  stop(): void {
    this.stopped = true;
    this.last = undefined;
    this.cancelTimer();
    for (const folder of [...this.watches.keys()]) this.unwatch(folder);
  }

  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
    for (const folder of [...this.watches.keys()]) this.unwatch(folder);
  }

  private async run(): Promise<CapabilityReading> {
    let reading: CapabilityReading;
    do {
      this.again = false;
      reading = await this.options.read();
      if (this.disposed || this.stopped) return reading;
      if (!this.last || !sameReading(this.last, reading)) {
        this.last = reading;
        this.options.onChange(reading);
      }
      if (isMacPrivacyRefusal(reading)) {
        this.hold();
        for (const folder of [...this.watches.keys()]) this.unwatch(folder);
        return reading;
      }
      // A folder watched anew after it was lost: what was written before the watch began is read now.
      if (await this.armWatches()) this.again = true;
    } while (this.askedAgain());
    return reading;
  }

  /** A check was asked for while this one read the file. */
  private askedAgain(): boolean {
    return this.again && !this.disposed;
  }

  /**
   * Watches the folders of the current paths, each once, and lets go of the others. A folder that
   * cannot be watched now is tried again after the next read, so one the app creates later is
   * watched from then on. True when a folder that was lost is watched again.
   */
  private async armWatches(): Promise<boolean> {
    this.waitingForFolders = false;
    this.allWatched = false;
    const { paths, watchFolder } = this.options;
    if (paths === undefined || watchFolder === undefined) return false;
    const { wanted, noneThere } = await this.wantedFolders(paths());
    // Disposed or stopped meanwhile: nothing may be watched any more.
    if (this.disposed || this.stopped) return false;
    for (const [folder, armed] of [...this.watches]) {
      const want = wanted.get(folder);
      if (want !== undefined && want.identity !== armed.identity) this.lost.add(folder);
      if (want === undefined || keyOf(want.names) !== armed.names || want.identity !== armed.identity)
        this.unwatch(folder);
    }
    let found = false;
    for (const [folder, want] of wanted) {
      if (this.watches.has(folder)) continue;
      try {
        const watch = watchFolder(
          folder,
          want.names,
          () => this.lookAgain(),
          () => this.unwatchAndCheck(folder),
        );
        this.watches.set(folder, { names: keyOf(want.names), identity: want.identity, watch });
        found = this.lost.delete(folder) || found;
      } catch {
        // Not there yet, or no watches left: the timer looks, and the next read tries again.
      }
    }
    const everyWatched = [...wanted.keys()].every((folder) => this.watches.has(folder));
    this.waitingForFolders = noneThere && everyWatched;
    this.allWatched = wanted.size > 0 && everyWatched;
    return found;
  }

  /**
   * Each path's folder with the names in it; while a folder is missing (with folderIdentity only),
   * its nearest ancestor there instead, for the name that leads to it, so that one made (again) is
   * seen at once. `noneThere`: no path's folder is there, and each has such an ancestor.
   */
  private async wantedFolders(
    paths: readonly string[],
  ): Promise<{ readonly wanted: Map<string, WantedFolder>; readonly noneThere: boolean }> {
    const wanted = new Map<string, WantedFolder>();
    for (const path of paths) {
      const names = wanted.get(dirname(path))?.names ?? new Set<string>();
      names.add(basename(path));
      wanted.set(dirname(path), { names, identity: '' });
    }
    const identify = this.options.folderIdentity;
    if (identify === undefined) return { wanted, noneThere: false };
    const folders = [...wanted.keys()];
    const identities = await Promise.all(folders.map((folder) => identify(folder)));
    let noneThere = true;
    for (const [index, folder] of folders.entries()) {
      const identity = identities[index];
      if (identity !== undefined) {
        wanted.set(folder, { names: wanted.get(folder)?.names ?? new Set(), identity });
        noneThere = false;
        continue;
      }
      wanted.delete(folder);
      this.lost.add(folder);
      let child = folder;
      let parent = dirname(folder);
      let parentIdentity: string | undefined;
      while (parent !== child) {
        parentIdentity = wanted.get(parent)?.identity ?? (await identify(parent));
        if (parentIdentity !== undefined) break;
        child = parent;
        parent = dirname(parent);
      }
      if (parentIdentity === undefined) {
        noneThere = false;
        continue;
      }
      const names = wanted.get(parent)?.names ?? new Set<string>();
      names.add(basename(child));
      wanted.set(parent, { names, identity: parentIdentity });
      // The folder may have come back before the parent's watch began: one more look once it has.
      if (!this.watches.has(parent)) this.lost.add(parent);
    }
    return { wanted, noneThere };
  }

  /**
   * A watch that failed (its folder was removed, say): dropped, and the read that follows arms it
   * again if it can. The folder counts as lost: one made again, and the file written in it, before
   * that read armed the new watch are seen by one more read once the watch has begun.
   */
  private unwatchAndCheck(folder: string): void {
    this.unwatch(folder);
    this.lost.add(folder);
    if (!this.disposed) this.lookAgain();
  }

  /** A look of its own (a timer, a file event): none while the file is refused for privacy. */
  private lookAgain(): void {
    if (!this.held) void this.check();
  }

  private unwatch(folder: string): void {
    const armed = this.watches.get(folder);
    this.watches.delete(folder);
    armed?.watch.close();
  }

  private schedule(): void {
    if (this.disposed || this.stopped || this.held) return;
    this.cancelTimer();
    if (this.waitingForFolders && this.last?.kind === 'absent') return;
    if (this.allWatched && this.last?.kind === 'ready') return;
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.lookAgain();
    }, this.options.intervalMs ?? CAPABILITY_CHECK_INTERVAL_MS);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }
}

function keyOf(names: ReadonlySet<string>): string {
  return [...names].sort().join('\n');
}

/** Same kind, file and content: nothing for the extension to do. */
export function sameReading(a: CapabilityReading, b: CapabilityReading): boolean {
  if (a.kind !== b.kind || a.path !== b.path) return false;
  if ((a.kind === 'ready' || a.kind === 'stale') && (b.kind === 'ready' || b.kind === 'stale')) {
    const [x, y] = [a.capability, b.capability];
    return x.socketPath === y.socketPath && x.token === y.token && x.pid === y.pid;
  }
  if ('message' in a && 'message' in b) return a.message === b.message;
  return true;
}
