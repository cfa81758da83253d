/**
 * An entry reaches the app at most once, even when the write that records a send
 * fails. The queue sends to the real reference server in-process; its lock, read and write go
 * through a port (src/platform/storeFiles.ts) that fails at the moment that matters: right after the app took
 * an entry, the lock held by another window past the timeout, the disk full, or the rename refused.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../../../src/client';
import { withShortLock } from '../../../../src/platform/fileLock';
import type { EntryRequest } from '../../../../src/protocol/types';
import { EntryQueue, outcomeOfError, type SendOutcome } from '../../../../src/tracker/queue/entryQueue';
import type { QueuedEntry } from '../../../../src/tracker/queue/queueFormat';
import { platformStoreFiles, type StoreFiles } from '../../../../src/platform/storeFiles';
import { loggedEntries, startServer, TEST_TOKEN, type StartedServer } from '../../../support/server';

const entry = (name: string): EntryRequest => ({ name, durationMinutes: 15, createIfMissing: true });
const LOCK_TIMEOUT_MS = 100;

type Fault = 'the lock held past the timeout' | 'ENOSPC on the write' | 'EPERM on the rename';
const FAULTS: readonly Fault[] = ['the lock held past the timeout', 'ENOSPC on the write', 'EPERM on the rename'];

function systemError(code: string, syscall: string, path: string): Error {
  const text = code === 'ENOSPC' ? 'no space left on device' : 'operation not permitted';
  return Object.assign(new Error(`${code}: ${text}, ${syscall} '${path}'`), { code, syscall, path });
}

/**
 * The platform's file operations, of which the next `times` lock-and-write rounds fail with
 * `fault` once armed: the lock really held by another holder until the queue gave up waiting,
 * or the write refused as the system refuses it.
 */
class FaultyFiles implements StoreFiles {
  private failures = 0;
  private fault: Fault = 'ENOSPC on the write';

  arm(fault: Fault, times = 1): void {
    this.fault = fault;
    this.failures = times;
  }

  heal(): void {
    this.failures = 0;
  }

  readText: StoreFiles['readText'] = (path, options) => platformStoreFiles.readText(path, options);
  version: StoreFiles['version'] = (path) => platformStoreFiles.version(path);

  async withLock<T>(path: string, work: () => Promise<T>, options?: Parameters<StoreFiles['withLock']>[2]): Promise<T> {
    if (this.failures === 0 || this.fault !== 'the lock held past the timeout')
      return platformStoreFiles.withLock(path, work, options);
    this.failures--;
    // Another window takes the lock and keeps it until this one stopped waiting for it.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let taken!: () => void;
    const holding = new Promise<void>((resolve) => (taken = resolve));
    const other = withShortLock(path, async () => {
      taken();
      await released;
    });
    await holding;
    try {
      return await platformStoreFiles.withLock(path, work, options);
    } finally {
      release();
      await other;
    }
  }

  writeAtomic: StoreFiles['writeAtomic'] = async (path, text) => {
    if (this.failures > 0 && this.fault !== 'the lock held past the timeout') {
      this.failures--;
      throw this.fault === 'ENOSPC on the write'
        ? systemError('ENOSPC', 'write', `${path}.tmp`)
        : systemError('EPERM', 'rename', `${path}.tmp`);
    }
    await platformStoreFiles.writeAtomic(path, text);
  };
}

describe('tracker/EntryQueue: at most once when a write fails after a delivery', () => {
  let folder: string;
  let started: StartedServer;
  let client: ServiceClient;
  let files: FaultyFiles;
  /** Armed by a test: what fails right after the app took the next entry. */
  let afterDelivery: (() => void) | undefined;

  const posts = (): number =>
    started.server.controls.debugView().filter((record) => record.method === 'POST' && record.path === '/entries')
      .length;
  const send = async (request: EntryRequest): Promise<SendOutcome> => {
    let outcome: SendOutcome;
    try {
      await client.logEntry(request);
      outcome = { kind: 'delivered' };
    } catch (error) {
      outcome = outcomeOfError(error);
    }
    afterDelivery?.();
    afterDelivery = undefined;
    return outcome;
  };
  const newQueue = (): EntryQueue =>
    new EntryQueue(folder, {
      files,
      lock: { timeoutMs: LOCK_TIMEOUT_MS, retryMs: 5 },
      settle: { attempts: 3, retryMs: 0 },
    });
  const shown = async (queue: EntryQueue): Promise<[string | undefined, QueuedEntry['status']][]> =>
    (await queue.list()).map((item) => [item.request.name, item.status]);

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tt-queue-once-'));
    started = await startServer();
    client = new ServiceClient({ token: TEST_TOKEN, port: started.port, clock: started.clock });
    files = new FaultyFiles();
    afterDelivery = undefined;
  });
  afterEach(async () => {
    await client.close();
    await started.server.close();
    await rm(folder, { recursive: true, force: true });
  });

  for (const fault of FAULTS) {
    it(`sends a queue of one exactly once when the removal fails once (${fault}), and the next entry still goes`, async () => {
      const queue = newQueue();
      await queue.add(entry('A'));
      afterDelivery = () => files.arm(fault);
      let failure: unknown;
      const first = await queue.flush(send).catch((error: unknown) => void (failure = error));
      const afterFirst = await shown(queue);
      // The 5-minute backstop, or the next answer from the app.
      await queue.flush(send).catch(() => undefined);
      assert.equal(posts(), 1, 'the next flush of the same window sent it again');
      assert.equal(failure, undefined, 'the removal was not tried again');
      assert.equal(first?.delivered, 1);
      assert.deepEqual(afterFirst, [], 'removed on the second try: the app has it');
      await queue.add(entry('B'));
      await queue.flush(send);
      assert.deepEqual(loggedEntries(started.server), [
        ['A', 15],
        ['B', 15],
      ]);
      assert.equal(posts(), 2);
    });
  }

  it('while the removal keeps failing, shows the entry as delivered, sends nothing else, and removes it at the next write', async () => {
    const queue = newQueue();
    await queue.add(entry('A'));
    await queue.add(entry('B'));
    afterDelivery = () => files.arm('ENOSPC on the write', Number.POSITIVE_INFINITY);
    const result = await queue.flush(send);
    assert.equal(posts(), 1, 'B waits until the removal of A is written');
    assert.match(result.unrecorded ?? '', /ENOSPC/);
    const seen = await queue.list();
    assert.deepEqual(
      seen.map((item) => [item.request.name, item.status]),
      [
        ['A', 'delivered'],
        ['B', 'waiting'],
      ],
      'never silently gone',
    );
    assert.match(seen[0]?.reason ?? '', /ENOSPC/, 'says why it is still there');
    assert.deepEqual(
      await shown(new EntryQueue(folder)),
      [
        ['A', 'sending'],
        ['B', 'waiting'],
      ],
      'the file as another window reads it',
    );
    await assert.rejects(queue.flush(send), /ENOSPC/, 'the disk is still full');
    assert.equal(posts(), 1);
    files.heal();
    const later = await queue.flush(send);
    assert.equal(later.remaining, 0);
    assert.deepEqual(loggedEntries(started.server), [
      ['A', 15],
      ['B', 15],
    ]);
    assert.equal(posts(), 2, 'A is not sent again');
  });

  it('never re-sends an entry an earlier flush of this window left `sending`: it waits for the user as "may have arrived"', async () => {
    const queue = newQueue();
    await queue.add(entry('A'));
    // The write that marks A `sending` lands, yet reports a failure (a network drive): the flush stops there.
    let landedButFailed = true;
    files.writeAtomic = async (path, text) => {
      await platformStoreFiles.writeAtomic(path, text);
      if (!landedButFailed) return;
      landedButFailed = false;
      throw systemError('EIO', 'fsync', path);
    };
    await assert.rejects(queue.flush(send), /EIO/);
    assert.deepEqual(await shown(queue), [['A', 'sending']]);
    await queue.add(entry('B'));
    const next = await queue.flush(send);
    assert.deepEqual(loggedEntries(started.server), [['B', 15]], 'only the entry this flush marked itself');
    assert.deepEqual(
      next.newlyUnknown.map((item) => item.request.name),
      ['A'],
      'the user is told',
    );
    assert.deepEqual(await shown(queue), [['A', 'unknown']]);
    // "Send Anyway": the user decided.
    await queue.retry((await queue.list())[0]!.id);
    await queue.flush(send);
    assert.deepEqual(loggedEntries(started.server), [
      ['B', 15],
      ['A', 15],
    ]);
    assert.equal(posts(), 2);
  });
});
