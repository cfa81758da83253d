import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EntryRequest } from '../../../../src/protocol/types';
import { EntryQueue } from '../../../../src/tracker/queue/entryQueue';
import { withinMs } from '../../../support/bounded';

const FILE = 'queued-entries.json';
const entry = (name: string): EntryRequest => ({ name, durationMinutes: 15, createIfMissing: true });

/**
 * The queue's folder is shared by every window and writable by any process of this user: its file
 * and its lock may be FIFOs (a plain read waits for a writer forever, on one of libuv's four
 * threads), and a link may wait where a predictable temporary file would be written through.
 */
describe('tracker/EntryQueue: a shared folder someone else can write', function () {
  if (process.platform === 'win32') return;
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tt-queue-shared-'));
  });
  afterEach(async () => {
    // A reader still waiting on a FIFO (the fault guarded against) is let go, so the tests after run.
    for (const name of await readdir(folder)) {
      const path = join(folder, name);
      if (name.startsWith(FILE) && !name.endsWith('.tmp')) {
        try {
          closeSync(openSync(path, constants.O_RDWR | constants.O_NONBLOCK));
        } catch {
          // Not a FIFO, or gone: nobody waits on it.
        }
      }
    }
    await rm(folder, { recursive: true, force: true });
  });

  it('moves a queue file that is a FIFO aside at once, and queues the entry', async () => {
    execFileSync('mkfifo', [join(folder, FILE)]);
    const problems: string[] = [];
    const queue = new EntryQueue(folder, { onCorrupt: (_keptAs, problem) => problems.push(problem) });
    await withinMs(queue.add(entry('A')), 3_000, 'queueing beside a FIFO queue file');
    assert.deepEqual(problems, ['is not a regular file']);
    assert.deepEqual(
      (await queue.list()).map((item) => item.request.name),
      ['A'],
    );
  });

  it("takes an old FIFO at the lock's path for a left-over lock, without waiting on it", async () => {
    const lock = join(folder, `${FILE}.lock`);
    execFileSync('mkfifo', [lock]);
    const old = (Date.now() - 10 * 60_000) / 1000;
    await utimes(lock, old, old);
    const queue = new EntryQueue(folder, { lock: { retryMs: 1 } });
    await withinMs(queue.add(entry('A')), 3_000, 'queueing beside a FIFO lock');
    assert.deepEqual(
      (await queue.list()).map((item) => item.request.name),
      ['A'],
    );
  });

  it('never writes through a link planted where an older version put its temporary file', async () => {
    const victim = join(folder, 'victim');
    await writeFile(victim, 'untouched');
    // The queue's temporary file used to be `<file>.<pid>.tmp`, opened with 'w'.
    await symlink(victim, join(folder, `${FILE}.${process.pid}.tmp`));
    const queue = new EntryQueue(folder);
    await queue.add(entry('A'));
    assert.equal(await readFile(victim, 'utf8'), 'untouched');
    assert.deepEqual(
      (await queue.list()).map((item) => item.request.name),
      ['A'],
    );
  });
});
