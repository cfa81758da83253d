import assert from 'node:assert/strict';
import { mkdir, mkdtemp, open, readFile, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isAtomicWriteTemporary, writeFileAtomic } from '../../../src/platform/atomicWrite';

describe('platform/atomicWrite: whole or not at all', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tt-write-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('replaces the file with the new text and leaves no temporary file', async () => {
    const path = join(dir, 'queue.json');
    await writeFile(path, 'old');
    await writeFileAtomic(path, 'new ✓');
    assert.equal(await readFile(path, 'utf8'), 'new ✓');
    assert.deepEqual(await readdir(dir), ['queue.json']);
  });

  it('gives the file exactly the mode asked for (0600 by default), whatever the umask', async function () {
    if (process.platform === 'win32') this.skip();
    const previous = process.umask(0o000);
    try {
      await writeFileAtomic(join(dir, 'a'), 'x');
      await writeFileAtomic(join(dir, 'b'), 'x', { mode: 0o640 });
    } finally {
      process.umask(previous);
    }
    assert.equal((await stat(join(dir, 'a'))).mode & 0o777, 0o600);
    assert.equal((await stat(join(dir, 'b'))).mode & 0o777, 0o640);
  });

  it('leaves the old file and no temporary file when the rename fails, and says why', async () => {
    // A folder of that name with something in it: the rename over it fails (EISDIR or ENOTEMPTY).
    const path = join(dir, 'data.json');
    await mkdir(path);
    await writeFile(join(path, 'inside'), 'kept');
    await assert.rejects(writeFileAtomic(path, 'new'), (error: unknown) =>
      ['EISDIR', 'ENOTEMPTY', 'EEXIST', 'EPERM'].includes((error as NodeJS.ErrnoException).code ?? ''),
    );
    assert.deepEqual(await readdir(dir), ['data.json'], 'no temporary file is left');
    assert.equal(await readFile(join(path, 'inside'), 'utf8'), 'kept');
  });

  it('fails without writing anything when the folder is missing', async () => {
    await assert.rejects(writeFileAtomic(join(dir, 'missing', 'data.json'), 'x'), { code: 'ENOENT' });
    assert.deepEqual(await readdir(dir), []);
  });

  it('never writes through a link planted where a temporary file of an older version would be', async function () {
    if (process.platform === 'win32') this.skip();
    const victim = join(dir, 'victim');
    await writeFile(victim, 'untouched');
    // The queue's old temporary name was predictable: `<file>.<pid>.tmp`.
    await symlink(victim, join(dir, `queue.json.${process.pid}.tmp`));
    await symlink(victim, join(dir, `.queue.json.${process.pid}.tmp`));
    await writeFileAtomic(join(dir, 'queue.json'), 'entries');
    assert.equal(await readFile(victim, 'utf8'), 'untouched');
    assert.equal(await readFile(join(dir, 'queue.json'), 'utf8'), 'entries');
  });

  it("tells its own temporary files (and an older version's) from other files", () => {
    assert.ok(isAtomicWriteTemporary('.data.json.4242.0a1b2c3d.tmp', 'data.json'));
    assert.ok(isAtomicWriteTemporary('.data.json.4242.tmp', 'data.json'));
    for (const name of [
      '.data.json.tmp',
      '.other.json.4242.tmp',
      'data.json.4242.tmp',
      '.data.json.4242.tmp.bak',
      '.dataXjson.4242.tmp',
    ]) {
      assert.ok(!isAtomicWriteTemporary(name, 'data.json'), name);
    }
  });
});

describe('platform/atomicWrite: synced unless the caller may lose the last write', () => {
  let dir: string;
  let syncs: number;
  let restore: () => void;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tt-sync-'));
    // Every sync goes through a FileHandle (F_FULLFSYNC on macOS): counted on its prototype.
    const handle = await open(dir, 'r');
    const prototype = Object.getPrototypeOf(handle) as { sync: () => Promise<void> };
    await handle.close();
    const sync = prototype.sync;
    syncs = 0;
    prototype.sync = function (this: unknown) {
      syncs++;
      return sync.call(this);
    };
    restore = () => (prototype.sync = sync);
  });
  afterEach(async () => {
    restore();
    await rm(dir, { recursive: true, force: true });
  });

  it('syncs the file and its folder by default, and neither with durable: false', async () => {
    await writeFileAtomic(join(dir, 'queue.json'), 'kept');
    assert.equal(syncs, 2);
    syncs = 0;
    await writeFileAtomic(join(dir, 'branch-time.json'), 'summary', { durable: false });
    assert.equal(syncs, 0);
    assert.equal(await readFile(join(dir, 'branch-time.json'), 'utf8'), 'summary');
  });
});
