import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimFor, removeLockIfStill, withFileLock, type FileLockOptions } from '../../../../src/tracker/queue/fileLock';
import { deadPid } from '../../../support/pids';

/** A lock file as a window writes it, by `pid` on this machine; `ageMs` back-dates it. */
async function leaveLock(path: string, pid: number, ageMs = 0): Promise<string> {
  const text = JSON.stringify({ pid, host: hostname(), token: `left-by-${pid}` });
  await writeFile(path, text);
  if (ageMs > 0) {
    const then = (Date.now() - ageMs) / 1000;
    await utimes(path, then, then);
  }
  return text;
}

describe('tracker/withFileLock', () => {
  let folder: string;
  let lock: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tt-lock-'));
    lock = join(folder, 'queue.lock');
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  // The race this guards against (issue 12) let two takers in on 25 of 200 rounds: 60 rounds miss
  // it with a chance of 0.875^60, about 3 in 10,000, at under a third of the time of 200.
  it('lets one taker in at a time: 20 takers over 60 rounds, each round starting from a dead window\'s lock', async function () {
    this.timeout(60_000);
    const dead = await deadPid();
    // Back-dated too, so that a lock judged by its age alone is just as stale.
    const options: FileLockOptions = { staleMs: 10_000, retryMs: 1, timeoutMs: 20_000 };
    const ROUNDS = 60;
    let inside = 0;
    let most = 0;
    let entered = 0;
    const critical = async (): Promise<void> => {
      inside++;
      entered++;
      most = Math.max(most, inside);
      // Other takers' file operations go on meanwhile, as they do while the queue is written.
      await new Promise((resolve) => setImmediate(resolve));
      inside--;
    };
    for (let round = 0; round < ROUNDS; round++) {
      await leaveLock(lock, dead, 60_000);
      await Promise.all(Array.from({ length: 20 }, () => withFileLock(lock, critical, options)));
      assert.equal(most, 1, `two takers were inside at once in round ${round + 1}`);
    }
    assert.equal(entered, ROUNDS * 20);
    assert.deepEqual(await readdir(folder), [], 'no lock or claim is left behind');
  });

  it('never takes over a live lock, however many wait for it', async () => {
    let release = (): void => undefined;
    const holding = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holderInside = false;
    const holder = withFileLock(lock, async () => {
      holderInside = true;
      await holding;
      holderInside = false;
    });
    while (!holderInside) await new Promise((resolve) => setImmediate(resolve));
    const held = await readFile(lock, 'utf8');
    const waiters = await Promise.allSettled(
      Array.from({ length: 20 }, () => withFileLock(lock, () => Promise.resolve('got in'), { staleMs: 60_000, retryMs: 1, timeoutMs: 150 })),
    );
    for (const waiter of waiters) {
      assert.equal(waiter.status, 'rejected');
      assert.match(String(waiter.reason), /Another window holds .*queue\.lock; try again in a moment\./);
    }
    assert.equal(await readFile(lock, 'utf8'), held, 'the holder\'s lock file is untouched');
    release();
    await holder;
    assert.equal(await withFileLock(lock, () => Promise.resolve('after')), 'after');
  });

  it('respects a lock another live process on this machine holds, but takes over one whose process is gone at once', async () => {
    const live = await leaveLock(lock, process.pid);
    await assert.rejects(withFileLock(lock, () => Promise.resolve(), { staleMs: 60_000, retryMs: 1, timeoutMs: 100 }), /Another window holds/);
    assert.equal(await readFile(lock, 'utf8'), live);
    await rm(lock);
    await leaveLock(lock, await deadPid());
    const started = Date.now();
    assert.equal(await withFileLock(lock, () => Promise.resolve('mine'), { staleMs: 60_000, timeoutMs: 2_000 }), 'mine');
    assert.ok(Date.now() - started < 30_000, 'no waiting for staleMs (60 s) when the owner is gone');
  });

  it('takes over any lock once it is older than staleMs: a reused pid, another machine, an older version\'s file', async () => {
    const options: FileLockOptions = { staleMs: 5_000, retryMs: 1, timeoutMs: 2_000 };
    await leaveLock(lock, process.pid, 10_000);
    assert.equal(await withFileLock(lock, () => Promise.resolve(1), options), 1);
    await writeFile(lock, JSON.stringify({ pid: process.pid, host: 'another-machine', token: 't' }));
    await assert.rejects(withFileLock(lock, () => Promise.resolve(), { ...options, timeoutMs: 50 }), /Another window holds/);
    const old = (Date.now() - 10_000) / 1000;
    await utimes(lock, old, old);
    assert.equal(await withFileLock(lock, () => Promise.resolve(2), options), 2);
    await writeFile(lock, `${process.pid} 2026-11-22T10:00:00.000Z\n`);
    await assert.rejects(withFileLock(lock, () => Promise.resolve(), { ...options, timeoutMs: 50 }), /Another window holds/);
    await utimes(lock, old, old);
    assert.equal(await withFileLock(lock, () => Promise.resolve(3), options), 3);
    assert.deepEqual(await readdir(folder), []);
  });

  it('never removes a lock it did not take: one that replaced its own while it was inside stays', async () => {
    const theirs = JSON.stringify({ pid: process.pid, host: hostname(), token: 'the-window-that-took-over' });
    await withFileLock(lock, async () => {
      // As if this holder had stalled past staleMs and another window had taken the lock over.
      await rm(lock);
      await writeFile(lock, theirs);
    });
    assert.equal(await readFile(lock, 'utf8'), theirs);
  });

  it('removes a lock only while it is still the very file it judged, and only under its claim', async () => {
    const dead = await leaveLock(lock, await deadPid());
    assert.equal(await removeLockIfStill(lock, dead), 'removed');
    // Judged dead, but another window took it over and made its own before this one held the claim.
    const live = await leaveLock(lock, process.pid);
    assert.equal(await removeLockIfStill(lock, dead), 'gone');
    assert.equal(await readFile(lock, 'utf8'), live);
    // Another window holds the claim on it: that one decides, this one removes nothing.
    await writeFile(claimFor(lock, live), JSON.stringify({ pid: process.pid, host: hostname(), token: 'their-claim' }));
    assert.equal(await removeLockIfStill(lock, live), 'busy');
    assert.equal(await readFile(lock, 'utf8'), live);
  });

  it('clears a claim a window left when it died while taking over a lock', async () => {
    const dead = await deadPid();
    const left = await leaveLock(lock, dead, 60_000);
    await writeFile(claimFor(lock, left), JSON.stringify({ pid: dead, host: hostname(), token: 'claim-left-behind' }));
    assert.equal(await withFileLock(lock, () => Promise.resolve('in'), { retryMs: 1, timeoutMs: 2_000 }), 'in');
  });
});
