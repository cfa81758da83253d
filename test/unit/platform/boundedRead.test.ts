import assert from 'node:assert/strict';
import { constants } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileReadError, readBoundedFile, readBoundedText } from '../../../src/platform/boundedRead';
import { errnoCode } from '../../../src/platform/errors';
import { nodeFileSystem } from '../../../src/platform/fileSystemPort';

const isReadError = (code: FileReadError['code']) => (error: unknown) =>
  error instanceof FileReadError && error.code === code;

describe('platform/boundedRead: a file someone else controls', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tt-read-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('reads a regular file whole, as UTF-8, with the stats of that very file', async () => {
    const path = join(dir, 'HEAD');
    await writeFile(path, 'ref: refs/heads/main\nüñï\n');
    const { text, stats } = await readBoundedFile(path, { maxBytes: 64 });
    assert.equal(text, 'ref: refs/heads/main\nüñï\n');
    assert.equal(stats.size, Buffer.byteLength(text));
    assert.ok(stats.isFile());
  });

  it('refuses a FIFO at once instead of waiting for a writer, and so does the port every watcher reads through', async function () {
    if (process.platform === 'win32') this.skip();
    const fifo = join(dir, 'HEAD');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    await assert.rejects(readBoundedText(fifo, { maxBytes: 64 }), isReadError('NOT_A_REGULAR_FILE'));
    assert.equal(await nodeFileSystem.readText(fifo), undefined);
    assert.ok(Date.now() - started < 1_000, 'nothing waited on the FIFO');
  });

  it('refuses a device and a folder', async function () {
    if (process.platform === 'win32') this.skip();
    await assert.rejects(readBoundedText('/dev/zero', { maxBytes: 64 }), isReadError('NOT_A_REGULAR_FILE'));
    await assert.rejects(readBoundedText(dir, { maxBytes: 64 }), isReadError('NOT_A_REGULAR_FILE'));
  });

  it('refuses a file over the cap without reading it, and says its size', async () => {
    const path = join(dir, 'config');
    await writeFile(path, 'x'.repeat(70_000));
    await assert.rejects(readBoundedText(path, { maxBytes: 65_536 }), (error: unknown) => {
      assert.ok(error instanceof FileReadError);
      assert.equal(error.code, 'FILE_TOO_LARGE');
      assert.equal(error.size, 70_000);
      return true;
    });
    assert.equal(await nodeFileSystem.readText(path), undefined, 'the port caps at 64 KiB');
    await writeFile(path, 'x'.repeat(65_536));
    assert.equal((await readBoundedText(path, { maxBytes: 65_536 })).length, 65_536, 'exactly the cap is read');
  });

  it('holds what the file holds, not the cap: a small file reads under the largest cap a Buffer allows', async () => {
    // The branch ledger reads its file once a minute under a cap of megabytes; a buffer of the
    // cap's size, zeroed, was most of the ledger's CPU (docs/PERFORMANCE.md). A cap no Buffer can
    // hold shows that the buffer follows the file.
    const path = join(dir, 'ledger.json');
    await writeFile(path, '{"rows":[]}');
    assert.equal(await readBoundedText(path, { maxBytes: constants.MAX_LENGTH }), '{"rows":[]}');
  });

  it('reads a file that says it is empty and is not (/proc), growing the buffer, and still stops at the cap', async function () {
    if (process.platform !== 'linux') this.skip();
    const status = await readBoundedText('/proc/self/status', { maxBytes: 1 << 20 });
    assert.match(status, /^Name:/);
    assert.ok(status.length > 256, `read ${status.length} characters`);
    await assert.rejects(readBoundedText('/proc/self/status', { maxBytes: 100 }), isReadError('FILE_TOO_LARGE'));
  });

  it('follows a link to a regular file, refuses one to a FIFO or a device, and with noFollow refuses any link', async function () {
    if (process.platform === 'win32') this.skip();
    const target = join(dir, 'real');
    await writeFile(target, 'ref: refs/heads/feature\n');
    const link = join(dir, 'HEAD');
    await symlink(target, link);
    assert.equal(await readBoundedText(link, { maxBytes: 64 }), 'ref: refs/heads/feature\n');
    await assert.rejects(
      readBoundedText(link, { maxBytes: 64, noFollow: true }),
      (error: unknown) => errnoCode(error) === 'ELOOP',
    );
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const toFifo = join(dir, 'to-fifo');
    await symlink(fifo, toFifo);
    await assert.rejects(readBoundedText(toFifo, { maxBytes: 64 }), isReadError('NOT_A_REGULAR_FILE'));
    const toZero = join(dir, 'to-zero');
    await symlink('/dev/zero', toZero);
    await assert.rejects(readBoundedText(toZero, { maxBytes: 64 }), isReadError('NOT_A_REGULAR_FILE'));
    assert.equal(await readFile(target, 'utf8'), 'ref: refs/heads/feature\n', 'the target is untouched');
  });

  it("passes the system's own failures on as they are", async () => {
    await assert.rejects(
      readBoundedText(join(dir, 'missing'), { maxBytes: 64 }),
      (error: unknown) => errnoCode(error) === 'ENOENT',
    );
  });
});
