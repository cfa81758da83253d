import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AnswerLostError,
  ConnectionError,
  HttpError,
  NotFoundError,
  ValidationError,
} from '../../../../src/client/errors';
import type { EntryRequest } from '../../../../src/protocol/types';
import {
  EntryQueue,
  outcomeOfError,
  type EntryQueueOptions,
  type SendOutcome,
} from '../../../../src/tracker/queue/entryQueue';
import { recordingWrites } from '../../../support/storeFiles';
import { deadPid, lockRecord } from '../../../support/pids';

const entry = (name: string): EntryRequest => ({ name, durationMinutes: 15, createIfMissing: true });
const FILE = 'queued-entries.json';

/**
 * Runs `scenario` and fails if any promise rejected with nobody to handle it meanwhile (Log Time
 * offline with a corrupt queue file can leave two). Waits one turn of the event loop after,
 * since Node reports them once the microtasks have run.
 */
async function withoutUnhandledRejections(scenario: () => Promise<void>): Promise<void> {
  const unhandled: unknown[] = [];
  const listener = (reason: unknown): void => {
    unhandled.push(reason);
  };
  process.on('unhandledRejection', listener);
  try {
    await scenario();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('unhandledRejection', listener);
  }
  assert.deepEqual(unhandled, [], 'unhandled rejections');
}

/** A sender that delivers everything and notes the names it sent. */
const deliverAll =
  (sent: string[]) =>
  (request: EntryRequest): Promise<SendOutcome> => {
    sent.push(request.name ?? '');
    return Promise.resolve({ kind: 'delivered' });
  };

describe('tracker/EntryQueue', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tt-queue-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('writes logged time durably: every write of the queue is synced (the ledger is not)', async () => {
    const { files, asked } = recordingWrites();
    const queue = new EntryQueue(folder, { files });
    await queue.add(entry('A'));
    await queue.flush(deliverAll([]));
    assert.ok(asked.length >= 2);
    assert.ok(asked.every((options) => options?.durable !== false));
  });

  it('is on disk before add resolves, and a new instance (a reloaded window) sees it', async () => {
    await new EntryQueue(folder).add(entry('A'));
    const saved = JSON.parse(await readFile(join(folder, 'queued-entries.json'), 'utf8')) as {
      entries: { request: EntryRequest }[];
    };
    assert.deepEqual(
      saved.entries.map((item) => item.request),
      [entry('A')],
    );
    assert.deepEqual(
      (await new EntryQueue(folder).list()).map((item) => item.status),
      ['waiting'],
    );
  });

  it('holds whole minutes only: a fraction is refused before anything is written', async () => {
    const queue = new EntryQueue(folder);
    await assert.rejects(
      queue.add({ name: 'A', durationMinutes: 1.5 }),
      /Only whole minutes can be queued, not 1\.5\./,
    );
    assert.deepEqual(await queue.list(), []);
  });

  it('delivers in order, and stops at the first entry that surely was not sent', async () => {
    const queue = new EntryQueue(folder);
    for (const name of ['A', 'B', 'C']) await queue.add(entry(name));
    const sent: string[] = [];
    const result = await queue.flush((request) => {
      sent.push(request.name ?? '');
      return Promise.resolve<SendOutcome>(
        request.name === 'B' ? { kind: 'notSent', reason: 'refused' } : { kind: 'delivered' },
      );
    });
    assert.deepEqual(sent, ['A', 'B']);
    assert.equal(result.delivered, 1);
    assert.deepEqual(
      (await queue.list()).map((item) => [item.request.name, item.status]),
      [
        ['B', 'waiting'],
        ['C', 'waiting'],
      ],
    );
    const rest = await queue.flush(deliverAll(sent));
    assert.deepEqual(sent, ['A', 'B', 'B', 'C']);
    assert.equal(rest.remaining, 0);
  });

  it('keeps refused entries with the reason, goes on with the next, and never re-sends an unknown one', async () => {
    const queue = new EntryQueue(folder);
    for (const name of ['Bad', 'Good', 'Lost', 'Later']) await queue.add(entry(name));
    const outcomes: Record<string, SendOutcome> = {
      Bad: { kind: 'refused', reason: 'No activity is named "Bad".' },
      Good: { kind: 'delivered' },
      Lost: { kind: 'unknown', reason: 'answer lost' },
    };
    const sent: string[] = [];
    const result = await queue.flush((request) => {
      sent.push(request.name ?? '');
      return Promise.resolve(outcomes[request.name ?? ''] ?? { kind: 'delivered' });
    });
    assert.deepEqual(sent, ['Bad', 'Good', 'Lost'], 'an unknown fate stops the flush: the connection is suspect');
    assert.deepEqual(
      result.newlyRefused.map((item) => item.reason),
      ['No activity is named "Bad".'],
    );
    assert.deepEqual(
      result.newlyUnknown.map((item) => item.request.name),
      ['Lost'],
    );
    await queue.flush(deliverAll(sent));
    assert.deepEqual(sent.slice(3), ['Later'], 'refused and unknown entries wait for the user');
    assert.deepEqual(
      (await queue.list()).map((item) => [item.request.name, item.status]),
      [
        ['Bad', 'refused'],
        ['Lost', 'unknown'],
      ],
    );
    const lost = (await queue.list())[1]!;
    await queue.retry(lost.id);
    await queue.flush(deliverAll([]));
    await queue.discard((await queue.list())[0]!.id);
    assert.deepEqual(await queue.list(), []);
  });

  it('never lets two windows send the same entry', async () => {
    const windows = [new EntryQueue(folder), new EntryQueue(folder)];
    for (let i = 0; i < 12; i++) await windows[0]!.add(entry(`E${i}`));
    const sent: string[] = [];
    const send = async (request: EntryRequest): Promise<SendOutcome> => {
      sent.push(request.name ?? '');
      await new Promise((resolve) => setImmediate(resolve));
      return { kind: 'delivered' };
    };
    await Promise.all(windows.map((queue) => queue.flush(send)));
    assert.equal(sent.length, 12);
    assert.equal(new Set(sent).size, 12);
    assert.deepEqual(
      sent,
      [...sent].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))),
      'in order',
    );
  });

  it('marks an entry a crashed window left mid-send as unknown, never as waiting', async () => {
    const crashed = new EntryQueue(folder);
    await crashed.add(entry('A'));
    // The entry is marked `sending` on disk before send is called: once it is, the crash can come.
    let sendCalled!: () => void;
    const sending = new Promise<void>((resolve) => (sendCalled = resolve));
    void crashed.flush(() => {
      sendCalled();
      return new Promise<SendOutcome>(() => undefined);
    });
    await sending;
    const other = new EntryQueue(folder);
    assert.equal((await other.list())[0]?.status, 'sending');
    assert.equal(await other.recover(() => true), 0, 'a live sender keeps its entry');
    assert.equal(await other.recover(() => false), 1);
    assert.equal((await other.list())[0]?.status, 'unknown');
  });

  describe('with a queue file it cannot read', () => {
    const at = Date.parse('2026-11-23T10:15:00.000Z');
    const keptName = `${FILE}.corrupt-2026-11-23T10-15-00-000Z`;
    const corrupt: Record<string, string> = {
      empty: '',
      'cut short by a crash': '{\n  "version": 1,\n  "entries": [\n    {\n      "id": "3f1c',
      'not JSON': 'queued: 15 minutes',
      null: 'null',
      'a list': '[]',
      'without entries': '{"version":1}',
      'with entries that are no list': '{"version":1,"entries":"A, B"}',
      'with an entry of another shape':
        '{"version":1,"entries":[{"id":"x","request":{"durationMinutes":"15"},"queuedAt":"2026-11-23T10:00:00.000Z","status":"waiting"}]}',
    };
    const reporting = (reports: string[][]): EntryQueueOptions => ({
      now: () => at,
      onCorrupt: (keptAs, problem) => reports.push([keptAs, problem]),
    });

    for (const [kind, text] of Object.entries(corrupt)) {
      it(`moves it aside (${kind}), says where once, and still queues the entry at hand`, () =>
        withoutUnhandledRejections(async () => {
          await writeFile(join(folder, FILE), text);
          const reports: string[][] = [];
          const queue = new EntryQueue(folder, reporting(reports));
          await queue.add(entry('A'));
          assert.deepEqual(
            reports.map(([keptAs]) => keptAs),
            [join(folder, keptName)],
          );
          assert.equal(await readFile(join(folder, keptName), 'utf8'), text, 'kept byte for byte');
          assert.deepEqual(
            (await new EntryQueue(folder).list()).map((item) => [item.request.name, item.status]),
            [['A', 'waiting']],
          );
          assert.equal(reports.length, 1);
        }));
    }

    it('lets every operation go on from an empty queue: list, flush, recover, retry, discard', () =>
      withoutUnhandledRejections(async () => {
        const reports: string[][] = [];
        const queue = new EntryQueue(folder, reporting(reports));
        const operations: Record<string, () => Promise<unknown>> = {
          list: () => queue.list(),
          flush: () => queue.flush(deliverAll([])),
          recover: () => queue.recover(() => false),
          retry: () => queue.retry('x'),
          discard: () => queue.discard('x'),
        };
        for (const [name, run] of Object.entries(operations)) {
          await writeFile(join(folder, FILE), `null ${name}`);
          await assert.doesNotReject(run(), name);
          assert.deepEqual(await queue.list(), [], name);
        }
        assert.equal(reports.length, 5);
        assert.match(reports[0]?.[1] ?? '', /^is not JSON/);
        const kept = (await readdir(folder)).filter((name) => name.includes('.corrupt-')).sort();
        assert.deepEqual(
          kept,
          [keptName, `${keptName}-2`, `${keptName}-3`, `${keptName}-4`, `${keptName}-5`],
          'the same stamp never overwrites a kept file',
        );
        for (const [index, name] of Object.keys(operations).entries()) {
          assert.equal(await readFile(join(folder, kept[index]!), 'utf8'), `null ${name}`);
        }
      }));

    it('moves it aside once when many windows find it at once, and none loses its entry', () =>
      withoutUnhandledRejections(async () => {
        await writeFile(join(folder, FILE), '');
        const reports: string[][] = [];
        const windows = Array.from(
          { length: 5 },
          () => new EntryQueue(folder, { ...reporting(reports), lock: { retryMs: 1 } }),
        );
        await Promise.all(windows.map((queue, index) => queue.add(entry(`W${index}`))));
        assert.equal(reports.length, 1);
        assert.deepEqual((await windows[0]!.list()).map((item) => item.request.name).sort(), [
          'W0',
          'W1',
          'W2',
          'W3',
          'W4',
        ]);
      }));

    it('takes no file for corrupt that it can read: missing, an empty queue, one with entries', async () => {
      const reports: string[][] = [];
      const queue = new EntryQueue(folder, reporting(reports));
      assert.deepEqual(await queue.list(), []);
      await writeFile(join(folder, FILE), '{"version":1,"entries":[]}\n');
      assert.deepEqual(await queue.list(), []);
      await queue.add(entry('A'));
      await queue.add({ activityID: 'a1', durationMinutes: 5, note: 'n' });
      assert.equal((await new EntryQueue(folder, reporting(reports)).list()).length, 2);
      assert.deepEqual(reports, []);
      assert.deepEqual(
        (await readdir(folder)).filter((name) => name !== `${FILE}.lock`),
        [FILE],
        'no temp or kept file left',
      );
    });
  });

  it("loses no entry when 20 windows add at once, over 10 rounds each starting from a dead window's lock", async function () {
    this.timeout(60_000);
    const dead = await deadPid();
    const windows = Array.from(
      { length: 20 },
      () => new EntryQueue(folder, { lock: { staleMs: 10_000, retryMs: 1, timeoutMs: 20_000 } }),
    );
    const lock = join(folder, `${FILE}.lock`);
    for (let round = 0; round < 10; round++) {
      await writeFile(lock, await lockRecord(dead, `round-${round}`));
      const old = (Date.now() - 60_000) / 1000;
      await utimes(lock, old, old);
      await Promise.all(windows.map((queue, index) => queue.add(entry(`R${round}W${index}`))));
      assert.equal((await windows[0]!.list()).length, (round + 1) * 20, `entries lost in round ${round + 1}`);
    }
  });

  it('counts each client error as PROTOCOL.md §7 says', () => {
    assert.equal(outcomeOfError(new ConnectionError('refused', false)).kind, 'notSent');
    assert.equal(outcomeOfError(new ConnectionError('reset', true)).kind, 'unknown');
    assert.equal(outcomeOfError(new AnswerLostError('lost')).kind, 'unknown');
    assert.equal(outcomeOfError(new ValidationError('bad', 400)).kind, 'refused');
    assert.equal(outcomeOfError(new NotFoundError('gone')).kind, 'refused');
    assert.equal(outcomeOfError(new HttpError(423, 'locked', '')).kind, 'blocked');
    assert.equal(outcomeOfError(new HttpError(500, 'boom', '')).kind, 'unknown');
  });
});
