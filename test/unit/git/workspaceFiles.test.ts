import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BranchWatcher } from '../../../src/git/branchWatcher';
import { repoName } from '../../../src/git/repoName';
import { withinMs } from '../../support/bounded';

/**
 * A workspace is someone else's: its `.git/HEAD` and config may be a FIFO, a link to a device or
 * huge. A plain readFile of a FIFO holds one of libuv's four threads until a writer comes, and four
 * such folders of a multi-root workspace stall every extension of the host: each file read, each
 * DNS lookup. The branch watcher reads through the file system port, which must give up at once.
 */
describe('git/BranchWatcher: files a workspace controls', function () {
  if (process.platform === 'win32') return;
  let dir: string;
  let fifos: string[];
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tt-workspace-files-'));
    fifos = [];
  });
  afterEach(async () => {
    // Should a reader still wait on a FIFO (the fault this guards against), a writer that comes and
    // goes lets it go, so one failure does not leave the pool's threads stuck for the tests after it.
    for (const fifo of fifos) closeSync(openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK));
    await rm(dir, { recursive: true, force: true });
  });

  /** A folder whose `.git` is a directory holding `HEAD` (and `config`) as made by `plant`. */
  async function repositoryWith(name: string, plant: (gitDir: string) => Promise<void>): Promise<string> {
    const root = join(dir, name);
    await mkdir(join(root, '.git'), { recursive: true });
    await plant(join(root, '.git'));
    return root;
  }

  const fifoAt = (path: string): Promise<void> => {
    execFileSync('mkfifo', [path]);
    fifos.push(path);
    return Promise.resolve();
  };

  it('watches four folders whose HEAD is a FIFO and one whose HEAD links to /dev/zero, and an unrelated read still runs at once', async () => {
    const folders = await Promise.all([
      ...[1, 2, 3, 4].map((n) => repositoryWith(`fifo-${n}`, (gitDir) => fifoAt(join(gitDir, 'HEAD')))),
      repositoryWith('zero', (gitDir) => symlink('/dev/zero', join(gitDir, 'HEAD'))),
    ]);
    const unrelated = join(dir, 'unrelated.txt');
    await writeFile(unrelated, 'another extension reads this\n');
    const watcher = new BranchWatcher({ onSwitch: () => assert.fail('nothing switched') });
    try {
      const watching = watcher.setFolders(folders);
      assert.equal(
        await withinMs(readFile(unrelated, 'utf8'), 2_000, 'an unrelated readFile beside four FIFO HEADs'),
        'another extension reads this\n',
      );
      await withinMs(watching, 2_000, 'the branch watcher starting on them');
      assert.equal(
        watcher.repositories.length,
        5,
        'each is still watched, and reports once its HEAD is a branch again',
      );
    } finally {
      watcher.dispose();
    }
  });

  it('names a repository whose config is a FIFO or links to /dev/zero by its folder, without waiting', async () => {
    const throughFifo = await repositoryWith('fifo-config', (gitDir) => fifoAt(join(gitDir, 'config')));
    const throughZero = await repositoryWith('zero-config', (gitDir) => symlink('/dev/zero', join(gitDir, 'config')));
    const names = await withinMs(
      Promise.all(
        [throughFifo, throughZero].map((root) => repoName({ root, gitDir: join(root, '.git') }, 'remoteUrl')),
      ),
      2_000,
      'reading git config',
    );
    assert.deepEqual(names, ['fifo-config', 'zero-config']);
  });
});
