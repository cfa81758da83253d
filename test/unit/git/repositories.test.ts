/**
 * Whether a repository ignores case is read from its own config when it is found: git writes
 * `core.ignorecase = true` on a file system that ignores case (APFS, HFS+), and a worktree shares
 * the config of its common dir. Real git, with the setting written as git on a Mac would.
 */
import assert from 'node:assert/strict';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { findRepository } from '../../../src/git/repositories';
import { git, gitMayFail, makeRepository, removeRepositories } from '../../support/git';

describe('git/repositories: a repository found says whether it ignores case', function () {
  this.timeout(20_000);
  after(removeRepositories);

  it('ignores case where its config says core.ignorecase, from a folder inside it too', async () => {
    const root = await makeRepository('apfs');
    git(root, 'config', 'core.ignorecase', 'true');
    const inner = join(root, 'src');
    await mkdir(inner);
    for (const folder of [root, inner]) {
      const found = await findRepository(folder);
      assert.deepEqual(found, { root, gitDir: join(root, '.git'), ignoresCase: true });
    }
  });

  it('does not where the config says false or nothing', async () => {
    const root = await makeRepository('ext4');
    // git init sets it on a file system that ignores case (a Mac's); unset, it is not said.
    gitMayFail(root, 'config', '--unset-all', 'core.ignorecase');
    assert.equal((await findRepository(root))?.ignoresCase, false, 'not set');
    git(root, 'config', 'core.ignorecase', 'false');
    assert.equal((await findRepository(root))?.ignoresCase, false, 'set to false');
  });

  it("reads a worktree's from the common dir's config", async () => {
    const root = await makeRepository('shared', ['other']);
    git(root, 'config', 'core.ignorecase', 'true');
    const worktree = join(root, '..', 'shared-wt');
    git(root, 'worktree', 'add', '-q', worktree, 'other');
    const found = await findRepository(worktree);
    assert.match(found?.gitDir ?? '', /worktrees/);
    assert.equal(found?.ignoresCase, true);
    git(root, 'config', 'core.ignorecase', 'false');
    assert.equal((await findRepository(worktree))?.ignoresCase, false);
  });

  it('does not where the config is missing or no file to read', async () => {
    const root = await makeRepository('broken');
    git(root, 'config', 'core.ignorecase', 'true');
    const config = join(root, '.git', 'config');
    await rm(config);
    assert.deepEqual(await findRepository(root), { root, gitDir: join(root, '.git'), ignoresCase: false });
    await mkdir(config);
    assert.equal((await findRepository(root))?.ignoresCase, false, 'a folder where the config should be');
  });
});
