import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { basename, join, posix } from 'node:path';
import { BranchWatcher } from '../../../src/git/branchWatcher';
import { nodeFileSystem, type Closable, type FileSystemPort } from '../../../src/platform/fileSystemPort';
import type { HeadState } from '../../../src/git/headState';
import { repoName } from '../../../src/git/repoName';
import { findRepository } from '../../../src/git/repositories';
import {
  Arrivals,
  ChangeQueue,
  git,
  gitAsync,
  gitMayFail,
  makeRepository,
  removeRepositories,
} from '../../support/git';

/**
 * Real git in temporary repositories. "No report" is proven without sleeping: after the step that
 * must stay quiet, a real switch follows, and the next report must be that switch, with the
 * branch before it as previousBranch.
 */
describe('git/BranchWatcher with real git', function () {
  this.timeout(20_000);
  let watcher: BranchWatcher;
  let queue: ChangeQueue;
  let reads: Arrivals<{ head: HeadState; busy: boolean }>;

  beforeEach(() => {
    queue = new ChangeQueue();
    reads = new Arrivals();
    watcher = new BranchWatcher({
      onSwitch: queue.push,
      onRead: (_repository, head, busy) => reads.push({ head, busy }),
    });
  });
  afterEach(() => watcher.dispose());
  after(removeRepositories);

  const expectSwitch = async (branch: string, previousBranch: string | undefined, root?: string): Promise<void> => {
    const change = await queue.next(`${previousBranch ?? '?'} → ${branch}`);
    assert.deepEqual({ branch: change.branch, previousBranch: change.previousBranch }, { branch, previousBranch });
    if (root !== undefined) assert.equal(change.repository.root, root);
  };

  it('reports checkout, checkout -b and switch, and nothing at start', async () => {
    const root = await makeRepository('shop', ['feature']);
    await watcher.setFolders([root]);
    git(root, 'checkout', '-q', 'feature');
    await expectSwitch('feature', 'main', root);
    git(root, 'checkout', '-q', '-b', 'fix/login');
    await expectSwitch('fix/login', 'feature');
    git(root, 'switch', '-q', 'main');
    await expectSwitch('main', 'fix/login');
    assert.equal(queue.all.length, 0, 'one report per switch');
  });

  it('finds the repository from a folder inside it, once for several folders', async () => {
    const root = await makeRepository('mono', ['b']);
    await writeFile(join(root, 'sub-file'), '');
    git(root, 'add', '.');
    git(root, 'commit', '-q', '-m', 'two');
    const inner = join(root, 'packages');
    await import('node:fs/promises').then((fs) => fs.mkdir(inner));
    await watcher.setFolders([root, inner]);
    assert.equal(watcher.repositories.length, 1);
    git(root, 'checkout', '-q', 'b');
    await expectSwitch('b', 'main', root);
  });

  it('watches a worktree, whose .git is a file, on its own', async () => {
    const root = await makeRepository('app', ['other']);
    const worktree = join(root, '..', 'app-wt');
    git(root, 'worktree', 'add', '-q', '-b', 'wt-branch', worktree);
    const found = await findRepository(worktree);
    assert.match(found?.gitDir ?? '', /worktrees/);
    await watcher.setFolders([worktree]);
    git(worktree, 'checkout', '-q', '-b', 'wt-feature');
    await expectSwitch('wt-feature', 'wt-branch', worktree);
    git(root, 'checkout', '-q', 'other');
    git(worktree, 'checkout', '-q', 'wt-branch');
    await expectSwitch('wt-branch', 'wt-feature', worktree);
  });

  it('stays quiet during a rebase with a conflict, and reports the next real switch', async () => {
    const root = await makeRepository('rebase');
    git(root, 'checkout', '-q', '-b', 'feature');
    await writeFile(join(root, 'file.txt'), 'feature\n');
    git(root, 'commit', '-q', '-am', 'feature change');
    git(root, 'checkout', '-q', 'main');
    await writeFile(join(root, 'file.txt'), 'main\n');
    git(root, 'commit', '-q', '-am', 'main change');
    git(root, 'checkout', '-q', 'feature');
    await watcher.setFolders([root]);
    gitMayFail(root, 'rebase', 'main');
    assert.match(git(root, 'status'), /rebase/i, 'the rebase stopped on the conflict');
    await reads.first((read) => read.busy && read.head.kind === 'detached', 'the watcher to see the rebase under way');
    await writeFile(join(root, 'file.txt'), 'resolved\n');
    git(root, 'add', 'file.txt');
    await gitAsync(root, '-c', 'core.editor=true', 'rebase', '--continue');
    await reads.first((read) => !read.busy && read.head.kind === 'branch', 'the watcher to see the rebase done');
    git(root, 'checkout', '-q', 'main');
    await expectSwitch('main', 'feature');
  });

  it('stays quiet during a bisect and on a detached HEAD', async () => {
    const root = await makeRepository('bisect', ['next']);
    for (const n of [2, 3, 4]) {
      await writeFile(join(root, 'file.txt'), `${n}\n`);
      git(root, 'commit', '-q', '-am', `commit ${n}`);
    }
    await watcher.setFolders([root]);
    git(root, 'bisect', 'start');
    git(root, 'bisect', 'bad');
    git(root, 'bisect', 'good', 'HEAD~3');
    await reads.first((read) => read.busy && read.head.kind === 'detached', 'the watcher to see the bisect');
    git(root, 'bisect', 'reset');
    await reads.first((read) => !read.busy && read.head.kind === 'branch', 'the watcher to see the bisect reset');
    git(root, 'checkout', '-q', '--detach', 'HEAD~1');
    await reads.first((read) => !read.busy && read.head.kind === 'detached', 'the watcher to see the detached HEAD');
    git(root, 'checkout', '-q', 'next');
    await expectSwitch('next', 'main');
  });

  it('lets the last of rapid switches win and never loses the final report', async () => {
    const root = await makeRepository('rapid', ['a', 'b', 'c']);
    await watcher.setFolders([root]);
    // Not awaited one by one: the checkouts run while the watcher reads, as in a real burst.
    await gitAsync(root, 'checkout', '-q', 'a');
    await gitAsync(root, 'checkout', '-q', 'b');
    await gitAsync(root, 'checkout', '-q', 'c');
    let change = await queue.next('a report ending on c');
    while (change.branch !== 'c') change = await queue.next('a report ending on c');
    git(root, 'checkout', '-q', 'a');
    await expectSwitch('a', 'c');
  });

  describe('HEAD written in another case (git checkout feature/Login on feature/login)', () => {
    // Reads come only when asked, one per recheck, so each read awaited is the one after the write.
    const unwatched = async (config: string[]): Promise<string> => {
      watcher.dispose();
      watcher = new BranchWatcher({
        onSwitch: queue.push,
        onRead: (_repository, head, busy) => reads.push({ head, busy }),
        fileSystem: { ...nodeFileSystem, watchDirectory: () => ({ close: () => undefined }) },
      });
      const root = await makeRepository('apfs', ['feature/login', 'next']);
      if (config.length > 0) git(root, 'config', ...config);
      git(root, 'checkout', '-q', 'feature/login');
      await watcher.setFolders([root]);
      // What git writes on APFS, where the ref file matches in any case; Linux's git would refuse.
      await writeFile(join(root, '.git', 'HEAD'), 'ref: refs/heads/feature/Login\n');
      watcher.recheck();
      return root;
    };

    it('is the same branch, shown as first seen, where the repository ignores case', async () => {
      const root = await unwatched(['core.ignorecase', 'true']);
      const read = await reads.first(() => true, 'the read of HEAD in another case');
      assert.deepEqual(read.head, { kind: 'branch', branch: 'feature/login' });
      git(root, 'checkout', '-q', 'next');
      watcher.recheck();
      await expectSwitch('next', 'feature/login', root);
    });

    it('is a switch where the repository does not ignore case', async () => {
      const root = await unwatched([]);
      await expectSwitch('feature/Login', 'feature/login', root);
    });
  });

  it('survives a repository deleted while watched, and keeps watching the others', async () => {
    const doomed = await makeRepository('doomed', ['x']);
    const kept = await makeRepository('kept', ['y']);
    await watcher.setFolders([doomed, kept]);
    await rm(doomed, { recursive: true, force: true });
    git(kept, 'checkout', '-q', 'y');
    await expectSwitch('y', 'main', kept);
  });

  it('picks up folders added and removed, and stops when disposed', async () => {
    const first = await makeRepository('first', ['f']);
    const second = await makeRepository('second', ['s']);
    await watcher.setFolders([first]);
    await watcher.setFolders([first, second]);
    assert.deepEqual(watcher.repositories.map((repository) => basename(repository.root)).sort(), ['first', 'second']);
    await watcher.setFolders([second]);
    git(first, 'checkout', '-q', 'f');
    git(second, 'checkout', '-q', 's');
    await expectSwitch('s', 'main', second);
    watcher.dispose();
    git(second, 'checkout', '-q', 'main');
    assert.equal(watcher.repositories.length, 0);
  });

  /** Node's fs, with each folder watch's error callback kept, to end a watch as FSEvents does. */
  const endableWatches = (): { fileSystem: FileSystemPort; endAll(): void } => {
    const open: { watch: Closable; onError: () => void }[] = [];
    return {
      fileSystem: {
        ...nodeFileSystem,
        watchDirectory: (directory, names, onChange, onError) => {
          const watch = nodeFileSystem.watchDirectory(directory, names, onChange, onError);
          open.push({ watch, onError });
          return watch;
        },
      },
      endAll: () => {
        // Node closes the watch before it emits 'error'.
        for (const { watch, onError } of open.splice(0)) {
          watch.close();
          onError();
        }
      },
    };
  };

  it('watches again when the system ends a watch while HEAD is there, and reports the switch made meanwhile', async () => {
    watcher.dispose();
    const watches = endableWatches();
    watcher = new BranchWatcher({ onSwitch: queue.push, fileSystem: watches.fileSystem });
    const root = await makeRepository('fsevents', ['lost', 'next']);
    await watcher.setFolders([root]);
    git(root, 'checkout', '-q', 'lost');
    await expectSwitch('lost', 'main', root);
    watches.endAll();
    git(root, 'checkout', '-q', 'next');
    await expectSwitch('next', 'lost');
    git(root, 'checkout', '-q', 'main');
    await expectSwitch('main', 'next');
  });

  it('reads HEAD again when asked (the window gains focus), for a switch whose event was lost', async () => {
    watcher.dispose();
    // The stream restarted from "now": the watch still runs, but the checkout's events are lost.
    watcher = new BranchWatcher({
      onSwitch: queue.push,
      fileSystem: { ...nodeFileSystem, watchDirectory: () => ({ close: () => undefined }) },
    });
    const root = await makeRepository('refocused', ['quiet']);
    await watcher.setFolders([root]);
    git(root, 'checkout', '-q', 'quiet');
    watcher.recheck();
    await expectSwitch('quiet', 'main', root);
  });

  it('polls HEAD instead once watches keep ending with an error, never re-arming without end', async () => {
    watcher.dispose();
    let armed = 0;
    const polled = new Arrivals<string>();
    watcher = new BranchWatcher({
      onSwitch: queue.push,
      fileSystem: {
        ...nodeFileSystem,
        watchDirectory: (_directory, _names, _onChange, onError) => {
          armed++;
          setImmediate(onError);
          return { close: () => undefined };
        },
        pollFile: (path) => {
          polled.push(path);
          return { close: () => undefined };
        },
      },
    });
    const root = await makeRepository('failing-watch', []);
    await watcher.setFolders([root]);
    assert.match(await polled.first(() => true, 'polling'), /HEAD$/);
    assert.equal(armed, 4, 'the first watch and three more');
  });

  it('falls back to polling HEAD and still reports', async () => {
    watcher.dispose();
    // As when inotify has no watches left: the watch throws, and HEAD is polled (here every 50 ms).
    const noWatches = Object.assign(new Error('no watches left'), { code: 'ENOSPC' });
    watcher = new BranchWatcher({
      onSwitch: queue.push,
      fileSystem: {
        ...nodeFileSystem,
        watchDirectory: () => {
          throw noWatches;
        },
        pollFile: (path, _intervalMs, onChange) => nodeFileSystem.pollFile(path, 50, onChange),
      },
    });
    const root = await makeRepository('polled', ['p']);
    await watcher.setFolders([root]);
    git(root, 'checkout', '-q', 'p');
    await expectSwitch('p', 'main', root);
  });
});

describe('git/repositories and repoName with real git', () => {
  after(removeRepositories);
  it('treats a submodule as its own repository only when its folder is opened', async () => {
    const library = await makeRepository('library');
    const app = await makeRepository('app');
    git(app, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', library, 'vendor/library');
    const fromRoot = await findRepository(app);
    const fromSubmodule = await findRepository(join(app, 'vendor', 'library'));
    assert.equal(fromRoot?.root, app);
    assert.equal(fromSubmodule?.root, join(app, 'vendor', 'library'));
    assert.match(fromSubmodule.gitDir, /\.git\/modules\/vendor\/library$/);
  });

  it('names the repository by folder, or by origin without credentials', async () => {
    const root = await makeRepository('named');
    const repository = (await findRepository(root))!;
    assert.equal(await repoName(repository, 'remoteUrl'), 'named', 'no origin: the folder name');
    git(root, 'remote', 'add', 'origin', 'https://someone:ghp_secret123@example.invalid/acme/named.git');
    assert.equal(await repoName(repository, 'folderName'), 'named');
    const url = await repoName(repository, 'remoteUrl');
    assert.equal(url, 'https://example.invalid/acme/named.git');
    assert.equal(url.includes('ghp_secret123'), false);
  });
});

describe('git/BranchWatcher on a file system that ignores case', () => {
  /** A Mac's folders in memory: every path compares NFC and case-folded, as APFS does. */
  const macFiles = (texts: Record<string, string>, folders: readonly string[]): FileSystemPort => {
    const key = (path: string): string => path.normalize('NFC').toLowerCase();
    const files = new Map(Object.entries(texts).map(([path, text]) => [key(path), text]));
    const directories = new Set(folders.map(key));
    return {
      ...nodeFileSystem,
      path: posix,
      readText: (path) => Promise.resolve(files.get(key(path))),
      kind: (path) =>
        Promise.resolve(directories.has(key(path)) ? 'directory' : files.has(key(path)) ? 'file' : undefined),
      watchDirectory: () => ({ close: () => undefined }),
    };
  };
  const fileSystem = macFiles({ '/Users/ana/Code/MyApp/.git/HEAD': 'ref: refs/heads/main\n' }, [
    '/Users/ana/Code/MyApp/.git',
  ]);
  const folders = ['/Users/ana/Code/MyApp', '/users/ana/code/myapp/src'];

  it('watches one repository opened under two spellings once on a Mac, by the first', async () => {
    const watcher = new BranchWatcher({ onSwitch: () => undefined, fileSystem, platform: 'darwin' });
    await watcher.setFolders(folders);
    assert.deepEqual(
      watcher.repositories.map((repository) => repository.root),
      ['/Users/ana/Code/MyApp'],
    );
    watcher.dispose();
  });

  it('tells the two spellings apart where the file system does (Linux)', async () => {
    const watcher = new BranchWatcher({ onSwitch: () => undefined, fileSystem, platform: 'linux' });
    await watcher.setFolders(folders);
    assert.equal(watcher.repositories.length, 2);
    watcher.dispose();
  });
});
