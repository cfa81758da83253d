import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FileLockError,
  lockForProcessLife,
  removeLockLeftovers,
  withShortLock,
  type FileLock,
  type ShortLockOptions,
} from '../../../src/platform/fileLock';
import { claimPathFor } from '../../../src/platform/lockRecords';
import { deadPid, lockRecord } from '../../support/pids';

/** A lock file as a window writes it, by `pid` on this machine; `ageMs` back-dates it. Returns its token. */
async function leaveLock(path: string, pid: number, ageMs = 0): Promise<string> {
  const token = `left-by-${pid}`;
  await writeFile(path, await lockRecord(pid, token));
  if (ageMs > 0) {
    const then = (Date.now() - ageMs) / 1000;
    await utimes(path, then, then);
  }
  return token;
}

function isCode(code: FileLockError['code']): (error: unknown) => boolean {
  return (error: unknown) => error instanceof FileLockError && error.code === code;
}

describe("platform/fileLock: held for the process's life (the server's data file)", () => {
  let dir: string;
  let lock: string;
  let held: FileLock[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tt-lock-'));
    lock = join(dir, 'data.json.lock');
    held = [];
  });

  afterEach(async () => {
    await Promise.all(held.map((taken) => taken.release()));
    await rm(dir, { recursive: true, force: true });
  });

  const acquire = async (): Promise<FileLock> => {
    const taken = await lockForProcessLife(lock);
    held.push(taken);
    return taken;
  };

  it('writes this pid into the lock, refuses a second taker at once naming it, and is free again once released', async () => {
    const first = await acquire();
    assert.equal((JSON.parse(await readFile(lock, 'utf8')) as { pid: number }).pid, process.pid);
    const started = Date.now();
    await assert.rejects(lockForProcessLife(lock), (error: unknown) => {
      assert.ok(error instanceof FileLockError);
      assert.equal(error.code, 'LOCK_HELD');
      assert.equal(error.holder?.pid, process.pid);
      return true;
    });
    assert.ok(Date.now() - started < 1_000, 'failed fast');
    await first.release();
    assert.deepEqual(await readdir(dir), [], 'the lock is gone, and no draft or claim is left');
    await acquire();
  });

  it('takes over a lock whose holder no longer runs, and one of this pid left by an earlier process', async () => {
    for (const pid of [await deadPid(), process.pid]) {
      await writeFile(lock, await lockRecord(pid, 'f'.repeat(32)));
      const taken = await acquire();
      const written = JSON.parse(await readFile(lock, 'utf8')) as { pid: number; token: string };
      assert.equal(written.pid, process.pid);
      assert.notEqual(written.token, 'f'.repeat(32));
      await taken.release();
    }
  });

  it('lets exactly one of many concurrent takers have a stale lock, in every round', async function () {
    this.timeout(20_000);
    const stale = await deadPid();
    for (let round = 0; round < 20; round++) {
      await writeFile(lock, await lockRecord(stale, round.toString(16).padStart(32, '0')));
      const outcomes = await Promise.allSettled(Array.from({ length: 12 }, () => lockForProcessLife(lock)));
      const winners = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
      held.push(...winners);
      assert.equal(winners.length, 1, `round ${round}: ${winners.length} takers hold the lock at once`);
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') {
          const reason: unknown = outcome.reason;
          assert.ok(
            reason instanceof FileLockError && reason.code === 'LOCK_HELD' && reason.holder?.pid === process.pid,
            String(reason),
          );
        }
      }
      await winners[0]?.release();
      held = [];
      assert.deepEqual(await readdir(dir), [], `round ${round}: nothing left behind`);
    }
  });

  it('takes over past a claim a killed taker left, and cleans such claims up', async () => {
    const dead = await deadPid();
    const staleNonce = 'a'.repeat(32);
    await writeFile(lock, await lockRecord(dead, staleNonce));
    // A taker that claimed the stale lock and was killed before removing it.
    await writeFile(claimPathFor(lock, staleNonce), await lockRecord(dead, 'b'.repeat(32)));
    const taken = await acquire();
    assert.deepEqual(await readdir(dir), ['data.json.lock']);
    await taken.release();
  });

  it('never removes a lock it did not take: a replaced lock stays on release', async () => {
    const taken = await acquire();
    const other = await lockRecord(process.ppid, 'c'.repeat(32));
    await writeFile(lock, other);
    await taken.release();
    assert.equal(await readFile(lock, 'utf8'), other);
  });

  it('refuses a lock file it did not write, and leaves it', async () => {
    await writeFile(lock, 'locked by hand');
    await assert.rejects(lockForProcessLife(lock), isCode('LOCK_NOT_RECOGNISED'));
    assert.equal(await readFile(lock, 'utf8'), 'locked by hand');
  });

  it('removes the drafts and claims of killed takers, and only those', async () => {
    const dead = await lockRecord(await deadPid(), 'f'.repeat(32));
    const running = await lockRecord(process.ppid, 'e'.repeat(32));
    const litter: [string, string][] = [
      [`data.json.lock.${'d'.repeat(32)}.tmp`, dead],
      [claimPathFor('data.json.lock', 'd'.repeat(32)), dead],
    ];
    const kept: [string, string][] = [
      ['data.json.lock.bak', dead],
      [`data.json.lock.${'e'.repeat(32)}.tmp`, running],
      // A taker that still runs may still need its claim.
      [claimPathFor('data.json.lock', 'e'.repeat(32)), running],
    ];
    for (const [name, text] of [...litter, ...kept]) await writeFile(join(dir, name), text);
    const removed = await removeLockLeftovers(lock);
    assert.deepEqual(removed.sort(), litter.map(([name]) => join(dir, name)).sort());
    assert.deepEqual((await readdir(dir)).sort(), kept.map(([name]) => name).sort());
  });
});

describe('platform/fileLock: short, waiting a bounded time (the offline queue)', () => {
  let folder: string;
  let lock: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tt-lock-'));
    lock = join(folder, 'queue.lock');
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  // The race this guards against let two takers in on 25 of 200 rounds: 60 rounds miss
  // it with a chance of 0.875^60, about 3 in 10,000, at under a third of the time of 200.
  it("lets one taker in at a time: 20 takers over 60 rounds, each round starting from a dead window's lock", async function () {
    this.timeout(60_000);
    const dead = await deadPid();
    // Back-dated too, so that a lock judged by its age alone is just as stale.
    const options: ShortLockOptions = { staleMs: 10_000, retryMs: 1, timeoutMs: 20_000 };
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
      await Promise.all(Array.from({ length: 20 }, () => withShortLock(lock, critical, options)));
      assert.equal(most, 1, `two takers were inside at once in round ${round + 1}`);
    }
    assert.equal(entered, ROUNDS * 20);
    assert.deepEqual(await readdir(folder), [], 'no lock, draft or claim is left behind');
  });

  it('never takes over a live lock, however many wait for it', async () => {
    let release = (): void => undefined;
    const holding = new Promise<void>((resolve) => {
      release = resolve;
    });
    let holderInside = false;
    const holder = withShortLock(lock, async () => {
      holderInside = true;
      await holding;
      holderInside = false;
    });
    while (!holderInside) await new Promise((resolve) => setImmediate(resolve));
    const heldText = await readFile(lock, 'utf8');
    const waiters = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        withShortLock(lock, () => Promise.resolve('got in'), { staleMs: 60_000, retryMs: 1, timeoutMs: 150 }),
      ),
    );
    for (const waiter of waiters) {
      assert.equal(waiter.status, 'rejected');
      assert.ok(isCode('LOCK_HELD')(waiter.reason), String(waiter.reason));
    }
    assert.equal(await readFile(lock, 'utf8'), heldText, "the holder's lock file is untouched");
    release();
    await holder;
    assert.equal(await withShortLock(lock, () => Promise.resolve('after')), 'after');
  });

  it('respects a lock another live process on this machine holds, but takes over one whose process is gone at once', async () => {
    await leaveLock(lock, process.ppid);
    const live = await readFile(lock, 'utf8');
    await assert.rejects(
      withShortLock(lock, () => Promise.resolve(), { staleMs: 60_000, retryMs: 1, timeoutMs: 100 }),
      isCode('LOCK_HELD'),
    );
    assert.equal(await readFile(lock, 'utf8'), live);
    await rm(lock);
    await leaveLock(lock, await deadPid());
    const started = Date.now();
    assert.equal(
      await withShortLock(lock, () => Promise.resolve('mine'), { staleMs: 60_000, timeoutMs: 2_000 }),
      'mine',
    );
    assert.ok(Date.now() - started < 30_000, 'no waiting for staleMs (60 s) when the owner is gone');
  });

  it('takes over any lock once it is older than staleMs: a live pid, another machine, a file that is no record', async () => {
    const options: ShortLockOptions = { staleMs: 5_000, retryMs: 1, timeoutMs: 2_000 };
    await leaveLock(lock, process.ppid, 10_000);
    assert.equal(await withShortLock(lock, () => Promise.resolve(1), options), 1);
    await writeFile(lock, await lockRecord(process.pid, 't', 'another-machine'));
    await assert.rejects(
      withShortLock(lock, () => Promise.resolve(), { ...options, timeoutMs: 50 }),
      isCode('LOCK_HELD'),
    );
    const old = (Date.now() - 10_000) / 1000;
    await utimes(lock, old, old);
    assert.equal(await withShortLock(lock, () => Promise.resolve(2), options), 2);
    await writeFile(lock, `${process.pid} 2026-11-22T10:00:00.000Z\n`);
    await assert.rejects(
      withShortLock(lock, () => Promise.resolve(), { ...options, timeoutMs: 50 }),
      isCode('LOCK_HELD'),
    );
    await utimes(lock, old, old);
    assert.equal(await withShortLock(lock, () => Promise.resolve(3), options), 3);
    assert.deepEqual(await readdir(folder), []);
  });

  it('never removes a lock it did not take: one that replaced its own while it was inside stays', async () => {
    const theirs = await lockRecord(process.ppid, 'the-window-that-took-over');
    await withShortLock(lock, async () => {
      // As if this holder had stalled past staleMs and another window had taken the lock over.
      await rm(lock);
      await writeFile(lock, theirs);
    });
    assert.equal(await readFile(lock, 'utf8'), theirs);
  });

  it('removes a stale lock only under its claim: one another live window holds leaves it to that window', async () => {
    const dead = await leaveLock(lock, await deadPid());
    const deadText = await readFile(lock, 'utf8');
    await writeFile(claimPathFor(lock, dead), await lockRecord(process.ppid, 'their-claim'));
    await assert.rejects(
      withShortLock(lock, () => Promise.resolve(), { staleMs: 60_000, retryMs: 5, timeoutMs: 50 }),
      isCode('LOCK_CONTENDED'),
    );
    assert.equal(await readFile(lock, 'utf8'), deadText);
  });

  it('clears a claim a window left when it died while taking over a lock', async () => {
    const dead = await deadPid();
    const left = await leaveLock(lock, dead, 60_000);
    await writeFile(claimPathFor(lock, left), await lockRecord(dead, 'claim-left-behind'));
    assert.equal(await withShortLock(lock, () => Promise.resolve('in'), { retryMs: 1, timeoutMs: 2_000 }), 'in');
  });

  it("judges a FIFO or a link at the lock's path as no lock (by age), never waiting on it", async function () {
    if (process.platform === 'win32') this.skip();
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [lock]);
    const started = Date.now();
    await assert.rejects(
      withShortLock(lock, () => Promise.resolve(), { staleMs: 60_000, retryMs: 1, timeoutMs: 100 }),
      isCode('LOCK_HELD'),
    );
    assert.ok(Date.now() - started < 2_000, 'the FIFO was not waited on');
    const old = (Date.now() - 120_000) / 1000;
    await utimes(lock, old, old);
    assert.equal(
      await withShortLock(lock, () => Promise.resolve('past the FIFO'), { staleMs: 60_000, retryMs: 1 }),
      'past the FIFO',
    );
    assert.deepEqual(await readdir(folder), []);
  });
});
