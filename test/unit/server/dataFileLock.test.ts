import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataFileLock, DataFileLockError } from '../../../src/server/dataFileLock';
import { deadPid } from '../../support/pids';

const record = (pid: number, nonce = 'f'.repeat(32)): string => `${JSON.stringify({ pid, nonce })}\n`;

describe('server/dataFileLock', () => {
  let dir: string;
  let data: string;
  let held: DataFileLock[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tt-lock-'));
    data = join(dir, 'data.json');
    held = [];
  });

  afterEach(async () => {
    await Promise.all(held.map((lock) => lock.release()));
    await rm(dir, { recursive: true, force: true });
  });

  const acquire = async (): Promise<DataFileLock> => {
    const lock = await DataFileLock.acquire(data);
    held.push(lock);
    return lock;
  };

  it('writes this pid into FILE.lock, refuses a second taker naming it, and is free again once released', async () => {
    const first = await acquire();
    assert.equal((JSON.parse(await readFile(`${data}.lock`, 'utf8')) as { pid: number }).pid, process.pid);
    await assert.rejects(DataFileLock.acquire(data), (error: unknown) => {
      assert.ok(error instanceof DataFileLockError);
      assert.equal(error.holderPid, process.pid);
      assert.equal(error.message, `The data file ${data} is in use by another server (pid ${process.pid}); stop that server or pick another data file.`);
      return true;
    });
    await first.release();
    assert.deepEqual(await readdir(dir), [], 'the lock is gone, and no draft or claim is left');
    await acquire();
  });

  it('takes over a lock whose holder no longer runs, and one of this pid left by an earlier process', async () => {
    for (const pid of [await deadPid(), process.pid]) {
      await writeFile(`${data}.lock`, record(pid));
      const lock = await acquire();
      const written = JSON.parse(await readFile(`${data}.lock`, 'utf8')) as { pid: number; nonce: string };
      assert.equal(written.pid, process.pid);
      assert.notEqual(written.nonce, 'f'.repeat(32));
      await lock.release();
    }
  });

  it('lets exactly one of many concurrent takers have a stale lock, in every round', async function () {
    this.timeout(20_000);
    const stale = await deadPid();
    for (let round = 0; round < 20; round++) {
      await writeFile(`${data}.lock`, record(stale, round.toString(16).padStart(32, '0')));
      const outcomes = await Promise.allSettled(Array.from({ length: 12 }, () => DataFileLock.acquire(data)));
      const winners = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
      held.push(...winners);
      assert.equal(winners.length, 1, `round ${round}: ${winners.length} takers hold the lock at once`);
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') assert.ok(outcome.reason instanceof DataFileLockError && outcome.reason.holderPid === process.pid, String(outcome.reason));
      }
      await winners[0]?.release();
      held = [];
      assert.deepEqual(await readdir(dir), [], `round ${round}: nothing left behind`);
    }
  });

  it('takes over past a claim a killed taker left, and cleans such claims up', async () => {
    const dead = await deadPid();
    const staleNonce = 'a'.repeat(32);
    await writeFile(`${data}.lock`, record(dead, staleNonce));
    // A taker that claimed the stale lock and was killed before removing it.
    await writeFile(`${data}.lock.takeover-${staleNonce}`, record(dead, 'b'.repeat(32)));
    const lock = await acquire();
    assert.deepEqual(await readdir(dir), ['data.json.lock']);
    await lock.release();
  });

  it('never removes a lock it did not take: a replaced lock stays on release', async () => {
    const lock = await acquire();
    const other = record(process.pid + 1, 'c'.repeat(32));
    await writeFile(`${data}.lock`, other);
    await lock.release();
    assert.equal(await readFile(`${data}.lock`, 'utf8'), other);
  });

  it('refuses a lock file it did not write, with one sentence, and leaves it', async () => {
    await writeFile(`${data}.lock`, 'locked by hand');
    await assert.rejects(DataFileLock.acquire(data), {
      name: 'DataFileLockError',
      message: `${data}.lock is not a lock this server wrote; remove it if no server uses the data file.`,
    });
    assert.equal(await readFile(`${data}.lock`, 'utf8'), 'locked by hand');
  });

  it('removes the temporary files of a killed writer, and only those', async () => {
    const lock = await acquire();
    const dead = record(await deadPid());
    const running = record(process.ppid, 'e'.repeat(32));
    const litter: [string, string][] = [
      ['.data.json.4242.tmp', '{"version": 1, "activi'],
      [`.data.json.${process.pid}.tmp`, '{'],
      [`data.json.lock.${'d'.repeat(32)}.tmp`, dead],
      [`data.json.lock.takeover-${'d'.repeat(32)}`, dead],
    ];
    const kept: [string, string][] = [
      ['.other.json.4242.tmp', '{'],
      ['.data.json.tmp', '{'],
      ['data.json.bak', '{'],
      // A taker that still runs may still need its claim.
      [`data.json.lock.takeover-${'e'.repeat(32)}`, running],
    ];
    for (const [name, text] of [...litter, ...kept]) await writeFile(join(dir, name), text);
    const removed = await lock.removeLeftovers(data);
    assert.deepEqual(removed.sort(), litter.map(([name]) => join(dir, name)).sort());
    assert.deepEqual((await readdir(dir)).sort(), [...kept.map(([name]) => name), 'data.json.lock'].sort());
  });
});
