/**
 * Watches the git directory of every repository of the workspace and reports real branch
 * switches, one report per switch, none for noise. The directory is watched, not HEAD itself:
 * git replaces HEAD by rename, and a watch on the file goes stale after the first checkout.
 * On macOS every folder watch of the extension host shares one FSEvents stream, restarted from
 * "now" whenever any extension starts or closes a watch; a failed restart ends every watch with an
 * error (Node closes the watch first). So a watch that ends while HEAD is there is made again and
 * HEAD read once more, and `recheck()` (the window gaining focus) reads HEAD for an event lost in
 * such a restart, without a timer.
 */
import { nodeFileSystem, type Closable, type FileSystemPort } from '../platform/fileSystemPort';
import { pathKey } from '../platform/pathKey';
import { asSeen, BUSY_MARKERS, decideSwitch, parseHead, type HeadState } from './headState';
import { findRepository, type Repository } from './repositories';
import { errnoCode } from '../platform/errors';
import { later } from '../platform/timers';

export interface BranchChange {
  readonly repository: Repository;
  readonly branch: string;
  readonly previousBranch: string | undefined;
}

export interface BranchWatcherOptions {
  /** A real switch, once; `onRead` hears of it too, with the read that saw it. */
  readonly onSwitch?: (change: BranchChange) => void;
  readonly log?: (message: string) => void;
  /** Node's fs by default; VS Code's remote file system for a workspace on another machine. */
  readonly fileSystem?: FileSystemPort;
  /**
   * Whose file system the paths are compared as (pathKey): on a Mac, `~/code/myapp` and
   * `~/Code/MyApp/src` are one repository, watched once. This machine's unless a test says otherwise.
   */
  readonly platform?: NodeJS.Platform;
  /** After every read of HEAD, with the switch it saw, if any: what follows the branch, not only its switches. */
  readonly onRead?: (repository: Repository, head: HeadState, busy: boolean, switched?: BranchChange) => void;
}

const WATCHED_NAMES = new Set<string>(['HEAD', ...BUSY_MARKERS]);
/**
 * A checkout touches HEAD, the index and the logs in a burst; events inside this window are read
 * once. Short enough that the report still follows the checkout at once.
 */
const DEBOUNCE_MS = 30;
/** How often HEAD is looked at where the system has no watches left (fs.watchFile polling). */
const POLL_INTERVAL_MS = 1_000;
/** Watches ended in a row, with no event between, before HEAD is polled instead: an error each time is no watch. */
const MAX_REARMS = 3;

class RepositoryWatcher {
  private watcher: Closable | undefined;
  private readonly fs: FileSystemPort;
  private timer: NodeJS.Timeout | undefined;
  private lastBranch: string | undefined;
  private checking: Promise<void> | undefined;
  private checkAgain = false;
  private disposed = false;
  /** Watches made again since the last event. */
  private rearms = 0;

  constructor(
    readonly repository: Repository,
    private readonly options: BranchWatcherOptions,
    private readonly onGone: (watcher: RepositoryWatcher) => void,
  ) {
    this.fs = options.fileSystem ?? nodeFileSystem;
  }

  /** Reads the branch it is on now (never reported) and starts watching. */
  async start(): Promise<void> {
    const head = parseHead(await this.fs.readText(this.fs.path.join(this.repository.gitDir, 'HEAD')));
    if (head.kind === 'branch') this.lastBranch = head.branch;
    if (!this.disposed) this.startWatching();
  }

  private startWatching(): void {
    try {
      this.watcher = this.fs.watchDirectory(
        this.repository.gitDir,
        WATCHED_NAMES,
        () => {
          this.rearms = 0;
          this.schedule();
        },
        () => void this.watchEnded(),
      );
    } catch (error) {
      this.options.log?.(
        `Watching ${this.repository.gitDir} failed (${errnoCode(error) ?? String(error)}); polling it instead.`,
      );
      this.startPolling();
    }
  }

  /** The watch ended with an error: gone with the repository, or made again (see the top of the file). */
  private async watchEnded(): Promise<void> {
    await this.checkGone();
    if (this.disposed) return;
    this.watcher?.close();
    this.rearms++;
    if (this.rearms > MAX_REARMS) {
      this.options.log?.(`Watching ${this.repository.gitDir} kept failing; polling it instead.`);
      this.startPolling();
    } else {
      this.options.log?.(`The watch of ${this.repository.gitDir} ended with an error; watching it again.`);
      this.startWatching();
    }
    // A switch made while no watch ran is seen now.
    this.schedule();
  }

  /** Reads HEAD again, for a switch whose event was lost. */
  recheck(): void {
    this.schedule();
  }

  /** When inotify watches run out (ENOSPC, EMFILE), stat HEAD periodically instead. */
  private startPolling(): void {
    this.watcher = this.fs.pollFile(this.fs.path.join(this.repository.gitDir, 'HEAD'), POLL_INTERVAL_MS, () =>
      this.schedule(),
    );
  }

  private schedule(): void {
    if (this.disposed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = later(() => {
      this.timer = undefined;
      void this.check();
    }, DEBOUNCE_MS);
  }

  /** One read at a time; a change during a read gets one more read after it. */
  private async check(): Promise<void> {
    if (this.checking) {
      this.checkAgain = true;
      return this.checking;
    }
    this.checking = (async () => {
      do {
        this.checkAgain = false;
        await this.readOnce();
      } while (this.takeCheckAgain());
    })();
    try {
      await this.checking;
    } finally {
      this.checking = undefined;
    }
  }

  private takeCheckAgain(): boolean {
    return this.checkAgain && !this.disposed;
  }

  private async readOnce(): Promise<void> {
    const gitDir = this.repository.gitDir;
    const [head, ...markers] = await Promise.all([
      this.fs.readText(this.fs.path.join(gitDir, 'HEAD')).then((content) => this.asLastBranch(parseHead(content))),
      ...BUSY_MARKERS.map(async (marker) => (await this.fs.kind(this.fs.path.join(gitDir, marker))) !== undefined),
    ]);
    if (this.disposed) return;
    const busy = markers.some(Boolean);
    const change = head.kind === 'unreadable' ? undefined : decideSwitch(this.lastBranch, head, busy);
    if (change) this.lastBranch = change.branch;
    const switched = change && { repository: this.repository, ...change };
    this.options.onRead?.(this.repository, head, busy, switched);
    if (switched) this.options.onSwitch?.(switched);
    if (head.kind === 'unreadable') return void this.checkGone();
  }

  /**
   * Where the repository ignores case, HEAD written in another case (`git checkout feature/Login` on
   * `feature/login`) names the same branch: it reads as the name first seen, so no switch is
   * reported and the time stays on one branch.
   */
  private asLastBranch(head: HeadState): HeadState {
    if (head.kind !== 'branch') return head;
    return { kind: 'branch', branch: asSeen(head.branch, this.lastBranch, this.repository.ignoresCase) };
  }

  /** The branch last read (the name first seen), kept through a detached HEAD; undefined before one was read. */
  get branch(): string | undefined {
    return this.lastBranch;
  }

  private async checkGone(): Promise<void> {
    const exists = (await this.fs.kind(this.fs.path.join(this.repository.gitDir, 'HEAD'))) !== undefined;
    if (exists || this.disposed) return;
    this.options.log?.(`The repository ${this.repository.root} is gone; no longer watching it.`);
    this.dispose();
    this.onGone(this);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.watcher?.close();
  }
}

/** Every repository of a set of folders (multi-root), each watched once. */
export class BranchWatcher {
  /** By the git directory's pathKey. */
  private readonly watchers = new Map<string, RepositoryWatcher>();
  private generation = 0;

  constructor(private readonly options: BranchWatcherOptions) {}

  get repositories(): readonly Repository[] {
    return [...this.watchers.values()].map((watcher) => watcher.repository);
  }

  /** The branch each repository was last read on, as first seen (see RepositoryWatcher.branch). */
  branchOf(repository: Repository): string | undefined {
    return this.watchers.get(this.keyOf(repository))?.branch;
  }

  /** Watches the repositories of these folders and stops watching the others. */
  async setFolders(folders: readonly string[]): Promise<void> {
    const generation = ++this.generation;
    const found = await Promise.all(folders.map((folder) => findRepository(folder, this.options.fileSystem)));
    if (generation !== this.generation) return; // a newer call superseded this one
    const wanted = new Map<string, Repository>();
    // One repository opened under two spellings keeps the first.
    for (const repository of found)
      if (repository && !wanted.has(this.keyOf(repository))) wanted.set(this.keyOf(repository), repository);
    for (const [key, watcher] of this.watchers) {
      if (wanted.has(key)) continue;
      watcher.dispose();
      this.watchers.delete(key);
    }
    const started: Promise<void>[] = [];
    for (const [key, repository] of wanted) {
      if (this.watchers.has(key)) continue;
      const watcher = new RepositoryWatcher(repository, this.options, () => this.watchers.delete(key));
      this.watchers.set(key, watcher);
      started.push(watcher.start());
      this.options.log?.(
        `Watching branches of ${(this.options.fileSystem ?? nodeFileSystem).path.basename(repository.root)} (${repository.root}).`,
      );
    }
    await Promise.all(started);
  }

  private keyOf(repository: Repository): string {
    return pathKey(repository.gitDir, this.options.platform);
  }

  /** Reads every repository's HEAD again (the window gained focus): a switch whose event was lost is reported. */
  recheck(): void {
    for (const watcher of this.watchers.values()) watcher.recheck();
  }

  dispose(): void {
    this.generation++;
    for (const watcher of this.watchers.values()) watcher.dispose();
    this.watchers.clear();
  }
}
