/**
 * Locks on a Mac whose host name changed with the network: the machine is told by its stable id,
 * so a lock a crashed window or server left before the change is taken over at once.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileLockError, lockForProcessLife, withShortLock } from '../../../src/platform/fileLock';
import { appSpecificId, machineIdIn, thisMachine } from '../../../src/platform/machine';
import { deadPid } from '../../support/pids';

describe('platform/machine: locks on a Mac whose host name follows the network', () => {
  let folder: string;
  let lock: string;
  let id: string;
  /** The host name the Mac had before it changed networks: not this machine's now. */
  const hostName = 'MacBook-Pro.fritz.box';

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tt-machine-'));
    lock = join(folder, 'queue.lock');
    id = (await thisMachine()).id;
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('records the machine id beside the host name', async () => {
    await withShortLock(lock, async () => {
      const record = JSON.parse(await readFile(lock, 'utf8')) as { host: string; machine: string };
      assert.equal(record.machine, id);
      assert.equal(record.host, hostname());
    });
  });

  it("takes over at once a lock a crashed window left before the host name changed (the queue's)", async () => {
    await writeFile(lock, JSON.stringify({ pid: await deadPid(), host: hostName, machine: id, token: 'crashed' }));
    const started = Date.now();
    const result = await withShortLock(lock, () => Promise.resolve('mine'), { staleMs: 60_000, timeoutMs: 300 });
    assert.equal(result, 'mine');
    assert.ok(Date.now() - started < 300, 'not waited out');
  });

  it("takes over the server's data-file lock a killed server left before the host name changed", async () => {
    const path = join(folder, 'data.json.lock');
    await writeFile(path, JSON.stringify({ pid: await deadPid(), host: hostName, machine: id, token: 'killed' }));
    const taken = await lockForProcessLife(path);
    await taken.release();
  });

  it("still waits for a lock of another machine's id, naming its host", async () => {
    const other = 'b'.repeat(32);
    await writeFile(lock, JSON.stringify({ pid: await deadPid(), host: 'studio.local', machine: other, token: 'x' }));
    await assert.rejects(
      withShortLock(lock, () => Promise.resolve(), { staleMs: 60_000, retryMs: 5, timeoutMs: 100 }),
      (error: unknown) =>
        error instanceof FileLockError && error.code === 'LOCK_HELD' && /studio\.local/.test(error.message),
    );
  });

  it('makes the id once and keeps it, the same for every process that asks', async () => {
    const path = join(folder, 'state', 'machine-id');
    const ids = await Promise.all([machineIdIn(path), machineIdIn(path), machineIdIn(path)]);
    assert.match(ids[0], /^[0-9a-f]{32}$/);
    assert.deepEqual(new Set(ids).size, 1);
    assert.equal(await machineIdIn(path), ids[0]);
  });

  it('does not wait on a FIFO where the id file should be, and falls back to the host name', async () => {
    const path = join(folder, 'state', 'machine-id');
    await mkdir(join(folder, 'state'));
    execFileSync('mkfifo', [path]);
    assert.equal(await machineIdIn(path), `host:${hostname()}`);
  });

  it("derives the id from the system's machine id one way, never showing it as it is", () => {
    const systemId = '0123456789abcdef0123456789abcdef';
    const id = appSpecificId(systemId);
    assert.match(id, /^[0-9a-f]{32}$/);
    assert.notEqual(id, systemId);
    assert.equal(appSpecificId(systemId), id, 'the same on every call');
  });
});
