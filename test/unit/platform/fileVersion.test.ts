import assert from 'node:assert/strict';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../../../src/platform/atomicWrite';
import { fileVersion } from '../../../src/platform/fileSystemPort';

describe('platform/fileVersion: which version of a file is there, without reading it', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tt-version-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('is undefined where no file is, and stays the same while nobody writes', async () => {
    const file = join(folder, 'ledger.json');
    assert.equal(await fileVersion(file), undefined);
    await writeFileAtomic(file, '{}');
    const first = await fileVersion(file);
    assert.ok(first);
    assert.equal(await fileVersion(file), first);
  });

  it('changes with every atomic write, even of the same bytes', async () => {
    const file = join(folder, 'ledger.json');
    await writeFileAtomic(file, '{"rows":[]}');
    const before = await fileVersion(file);
    await writeFileAtomic(file, '{"rows":[]}');
    assert.notEqual(await fileVersion(file), before);
  });

  it('is the link itself where a symbolic link stands, not what it points to', async function () {
    if (process.platform === 'win32') this.skip();
    const target = join(folder, 'elsewhere.json');
    await writeFile(target, '{}');
    const link = join(folder, 'ledger.json');
    await symlink(target, link);
    assert.notEqual(await fileVersion(link), await fileVersion(target));
  });
});
