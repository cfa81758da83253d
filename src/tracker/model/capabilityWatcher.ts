/**
 * Follows the capability file of the app's VS Code integration: it appears when the user turns
 * the integration on, changes when the app restarts (new pid, socket, maybe token), disappears
 * when the app quits, and goes stale when the app crashes, which no file event reports. So the
 * folders the file may be in are watched, and a change there is read at once; the file is also
 * read again every CAPABILITY_CHECK_INTERVAL_MS (for a folder that cannot be watched, say one the
 * app has not made yet), and at once when the socket stops answering (a crash). The look used to
 * run every 2 s without watches: a fifth of the extension's idle CPU (docs/PERFORMANCE.md).
 * Timers and the folder watch are injected: tests drive it without waiting.
 */
import { basename, dirname } from 'node:path';
import type { CapabilityReading } from '../../client/capabilityReader';
import type { FolderWatch } from '../../platform/fileSystemPort';
import { realTimers, type Timers } from './poller';

export const CAPABILITY_CHECK_INTERVAL_MS = 10_000;

export interface CapabilityWatcherOptions {
  /** Reads the file (or searches the default places); never rejects. */
  readonly read: () => Promise<CapabilityReading>;
  /** Called when what is read differs from the last reading (and for the first one). */
  readonly onChange: (reading: CapabilityReading) => void;
  readonly intervalMs?: number;
  readonly timers?: Timers;
  /** The paths `read` looks at (the setting's, or the default places); asked after every read, as a setting may change them. */
  readonly paths?: () => readonly string[];
  /** Watches their folders; without it (or where it throws) only the timer looks. */
  readonly watchFolder?: FolderWatch;
}

interface ArmedWatch {
  /** The names watched in the folder, as one key: a new set of names needs a new watch. */
  readonly names: string;
  readonly watch: { close(): void };
}

export class CapabilityWatcher {
  private last: CapabilityReading | undefined;
  private checking: Promise<CapabilityReading> | undefined;
  private again = false;
  private timer: unknown;
  private disposed = false;
  private readonly timers: Timers;
  /** By folder. */
  private readonly watches = new Map<string, ArmedWatch>();

  constructor(private readonly options: CapabilityWatcherOptions) {
    this.timers = options.timers ?? realTimers;
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
    if (this.checking) {
      this.again = true;
      return this.checking;
    }
    this.cancelTimer();
    this.checking = this.run().finally(() => {
      this.checking = undefined;
      this.armWatches();
      this.schedule();
    });
    return this.checking;
  }

  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
    for (const folder of [...this.watches.keys()]) this.unwatch(folder);
  }

  /** Number of folders watched now. */
  get watchedFolders(): number {
    return this.watches.size;
  }

  private async run(): Promise<CapabilityReading> {
    let reading: CapabilityReading;
    do {
      this.again = false;
      reading = await this.options.read();
      if (this.disposed) return reading;
      if (!this.last || !sameReading(this.last, reading)) {
        this.last = reading;
        this.options.onChange(reading);
      }
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
   * watched from then on.
   */
  private armWatches(): void {
    const { paths, watchFolder } = this.options;
    if (this.disposed || paths === undefined || watchFolder === undefined) return;
    const wanted = new Map<string, Set<string>>();
    for (const path of paths()) {
      const folder = dirname(path);
      const names = wanted.get(folder) ?? new Set<string>();
      names.add(basename(path));
      wanted.set(folder, names);
    }
    for (const [folder, armed] of [...this.watches]) {
      const names = wanted.get(folder);
      if (names === undefined || keyOf(names) !== armed.names) this.unwatch(folder);
    }
    for (const [folder, names] of wanted) {
      if (this.watches.has(folder)) continue;
      try {
        const watch = watchFolder(folder, names, () => void this.check(), () => this.unwatchAndCheck(folder));
        this.watches.set(folder, { names: keyOf(names), watch });
      } catch {
        // Not there yet, or no watches left: the timer looks, and the next read tries again.
      }
    }
  }

  /** A watch that failed (its folder was removed, say): dropped, and the read that follows arms it again if it can. */
  private unwatchAndCheck(folder: string): void {
    this.unwatch(folder);
    if (!this.disposed) void this.check();
  }

  private unwatch(folder: string): void {
    const armed = this.watches.get(folder);
    this.watches.delete(folder);
    armed?.watch.close();
  }

  private schedule(): void {
    if (this.disposed) return;
    this.cancelTimer();
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      void this.check();
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
