import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { keepAside } from '../../../src/platform/keepAside';

describe('platform/keepAside: an unreadable file kept, never overwritten', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tt-aside-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const at = Date.UTC(2026, 10, 25, 10, 42, 7, 123);

  it('renames the file beside itself, named by the time, with what it held', async () => {
    const file = join(dir, 'queue.json');
    await writeFile(file, '{cut sho');
    const keptAs = await keepAside(file, at);
    assert.equal(keptAs, `${file}.corrupt-2026-11-25T10-42-07-123Z`);
    assert.equal(await readFile(keptAs, 'utf8'), '{cut sho');
    assert.deepEqual(await readdir(dir), ['queue.json.corrupt-2026-11-25T10-42-07-123Z']);
  });

  it('adds a number when that name is taken, and leaves the file kept before as it was', async () => {
    const file = join(dir, 'branch-time.json');
    await writeFile(file, 'first');
    const first = await keepAside(file, at);
    await writeFile(file, 'second');
    const second = await keepAside(file, at);
    assert.equal(second, `${first}-2`);
    assert.equal(await readFile(first, 'utf8'), 'first');
    assert.equal(await readFile(second, 'utf8'), 'second');
  });
});
