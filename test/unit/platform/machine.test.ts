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
import { appSpecificId, isThisMachine, machineIdIn, thisMachine, useMachinePort } from '../../../src/platform/machine';
import { deadPid } from '../../support/pids';

const ID = 'a'.repeat(32);

describe('platform/machine: locks on a Mac whose host name follows the network', () => {
  let folder: string;
  let lock: string;
  let hostName: string;
  let restore: () => void;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tt-machine-'));
    lock = join(folder, 'queue.lock');
    hostName = 'MacBook-Pro.local';
    restore = useMachinePort({ hostname: () => hostName, readId: () => Promise.resolve(ID) });
  });
  afterEach(async () => {
    restore();
    await rm(folder, { recursive: true, force: true });
  });

  it('records the machine id beside the host name', async () => {
    await withShortLock(lock, async () => {
      const record = JSON.parse(await readFile(lock, 'utf8')) as { host: string; machine: string };
      assert.equal(record.machine, ID);
      assert.equal(record.host, 'MacBook-Pro.local');
    });
  });

  it("takes over at once a lock a crashed window left before the host name changed (the queue's)", async () => {
    await writeFile(lock, JSON.stringify({ pid: await deadPid(), host: hostName, machine: ID, token: 'crashed' }));
    hostName = 'dhcp-10-0-0-17.corp.example.com';
    const started = Date.now();
    const result = await withShortLock(lock, () => Promise.resolve('mine'), { staleMs: 60_000, timeoutMs: 300 });
    assert.equal(result, 'mine');
    assert.ok(Date.now() - started < 300, 'not waited out');
  });

  it("takes over the server's data-file lock a killed server left before the host name changed", async () => {
    const path = join(folder, 'data.json.lock');
    await writeFile(path, JSON.stringify({ pid: await deadPid(), host: hostName, machine: ID, token: 'killed' }));
    hostName = 'Johns-MacBook-Pro.fritz.box';
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

  it("reads an older version's record (a host name, no id) as this machine's when it names the host name now", async () => {
    const here = await thisMachine();
    assert.equal(isThisMachine(here, { host: 'MacBook-Pro.local' }), true);
    assert.equal(isThisMachine(here, { host: 'another.local' }), false);
    assert.equal(isThisMachine(here, {}), true);
    hostName = 'elsewhere.local';
    assert.equal((await thisMachine()).hostname, 'elsewhere.local', 'the host name is asked each time');
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
