import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../../../../src/platform/atomicWrite';
import { readBoundedText } from '../../../../src/platform/boundedRead';
import { fileVersion } from '../../../../src/platform/fileSystemPort';
import type { WorkPlace } from '../../../../src/tracker/branchTime/attribution';
import { BranchLedger } from '../../../../src/tracker/branchTime/branchLedger';
import { claimFocus, creditSpans, dayOf, type LedgerBook } from '../../../../src/tracker/branchTime/ledgerBook';
import {
  LEDGER_FILE,
  LedgerStore,
  MAX_LEDGER_BYTES,
  type LedgerStoreOptions,
} from '../../../../src/tracker/branchTime/ledgerStore';
import { platformStoreFiles, type StoreFiles } from '../../../../src/platform/storeFiles';
import { recordingWrites } from '../../../support/storeFiles';
import { dev, HOUR, SECOND, span, T0, total, tracking } from './ledgerFixtures';

const place = (branch: string, root = '/repos/api'): WorkPlace => ({ root, repository: 'api', branch });

describe('tracker/branchTime/LedgerStore', () => {
  let folder: string;
  let now: number;
  const corrupt: string[] = [];
  const store = (options: Partial<LedgerStoreOptions> = {}): LedgerStore =>
    new LedgerStore(folder, {
      now: () => now,
      keepDays: () => 90,
      onCorrupt: (keptAs, problem) => corrupt.push(`${keptAs.slice(folder.length + 1)}: ${problem}`),
      ...options,
    });

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tt-ledger-'));
    now = T0;
    corrupt.length = 0;
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('keeps what was credited for the next window (a reload) to read', async () => {
    await store().update((book) => creditSpans(claimFocus(book, 'A', T0), 'A', [span('main', T0, T0 + 90 * SECOND)]));
    assert.equal(total(await store().read(), 'main'), 90 * SECOND);
  });

  it('moves a corrupt file aside, names it once, and goes on from an empty ledger', async () => {
    await writeFile(join(folder, LEDGER_FILE), '{"version": 1, "rows": [');
    const ledger = store();
    assert.deepEqual((await ledger.read()).rows, []);
    await ledger.update((book) => creditSpans(book, 'A', [span('main', T0, T0 + 10 * SECOND)]));
    assert.deepEqual(corrupt, [
      `${LEDGER_FILE}.corrupt-${new Date(T0).toISOString().replace(/[:.]/g, '-')}: is not JSON`,
    ]);
    assert.equal(total(await ledger.read()), 10 * SECOND);
    const names = await readdir(folder);
    assert.ok(names.some((name) => name.startsWith(`${LEDGER_FILE}.corrupt-`)));
    assert.equal(
      await readFile(
        join(
          folder,
          names.find((name) => name.includes('corrupt'))!,
        ),
        'utf8',
      ),
      '{"version": 1, "rows": [',
    );
  });

  it('refuses a FIFO where the file should be, without waiting on it, and moves it aside', async function () {
    if (process.platform === 'win32') this.skip();
    execFileSync('mkfifo', [join(folder, LEDGER_FILE)]);
    assert.deepEqual((await store().read()).rows, []);
    assert.match(corrupt.join('\n'), /: is not a regular file$/);
  });

  it('refuses a symbolic link where the file should be, and leaves what it points to alone', async function () {
    if (process.platform === 'win32') this.skip();
    const elsewhere = join(folder, 'elsewhere.json');
    await writeFile(elsewhere, 'not mine');
    await symlink(elsewhere, join(folder, LEDGER_FILE));
    await store().update((book) => creditSpans(book, 'A', [span('main', T0, T0 + 5 * SECOND)]));
    assert.match(corrupt.join('\n'), /: is a symbolic link$/);
    assert.equal(await readFile(elsewhere, 'utf8'), 'not mine');
    assert.equal(total(await store().read()), 5 * SECOND);
  });

  it('loses no credit when two writers race (one lock, read-change-write inside it)', async () => {
    const [a, b] = [store(), store()];
    await a.update((book) => claimFocus(book, 'A', T0));
    await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 === 0 ? a : b).update((book) =>
          creditSpans(book, 'A', [span(`b${index % 4}`, T0 + index * 10 * SECOND, T0 + (index + 1) * 10 * SECOND)]),
        ),
      ),
    );
    assert.equal(total(await a.read()), 200 * SECOND);
  });

  describe('a history larger than the file may be', () => {
    /** `days` days up to T0, ten branches a day: about 2.9 KB a day in the file. */
    const history = (days: number): LedgerBook => ({
      version: 1,
      owners: [{ window: 'A', sinceMs: T0 }],
      creditedUntilMs: T0,
      rows: Array.from({ length: days * 10 }, (_, index) => {
        const startMs = new Date(2026, 10, 25 - (days - 1) + Math.floor(index / 10), 9).getTime();
        return {
          ...place(`feature/PROJ-${1000 + (index % 10)}-a-branch-name`, '/home/someone/src/customer-project'),
          ...dev,
          day: dayOf(startMs),
          ms: 60 * SECOND,
          firstMs: startMs,
          lastMs: startMs + 60 * SECOND,
        };
      }),
    });
    const sizeOf = async (file: string): Promise<number> => (await stat(file)).size;

    it('keeps a history at the cap whole, refuses the rows a write adds and a 900 KB row, says so, and reads it back intact', async () => {
      const refused: string[] = [];
      const book = history(30);
      await store({ keepDays: () => 3660 }).update(() => book);
      const maxBytes = (await sizeOf(store().file)) + 400;
      const options = {
        keepDays: () => 3660,
        maxBytes,
        onRefused: (rows: number, largestBytes: number) => refused.push(`${rows} of ${largestBytes}`),
      };
      const huge = { activityID: 'x'.repeat(900_000), activityName: 'Squatter' };
      await store(options).update((current) =>
        creditSpans(current, 'A', [{ ...span('main', T0, T0 + 90 * SECOND), activity: huge }]),
      );
      assert.equal(refused.length, 1);
      assert.match(refused[0] ?? '', /^1 of 9\d{5}$/);
      assert.deepEqual((await store().read()).rows, book.rows, 'the history as it was');
      // Near the cap, a normal row still fits; once full, what comes is refused, never a day of the history.
      await store(options).update((current) => creditSpans(current, 'A', [span('main', T0, T0 + 90 * SECOND)]));
      assert.equal(total(await store().read(), 'main'), 90 * SECOND);
      assert.equal(refused.length, 1);
      for (let index = 0; index < 5; index++)
        await store(options).update((current) =>
          creditSpans(current, 'A', [span(`feature/PROJ-${index}-more`, T0 + HOUR, T0 + HOUR + 90 * SECOND)]),
        );
      assert.ok(refused.slice(1).length > 0, 'the file is full: later rows refused');
      const read = await store(options).read();
      assert.deepEqual(corrupt, [], 'read back, not moved aside');
      assert.ok((await sizeOf(store().file)) <= maxBytes);
      assert.deepEqual(
        read.rows.filter((row) => book.rows.some((old) => old.branch === row.branch && old.day === row.day)),
        book.rows,
        'every day of the history',
      );
    });

    it('writes no file over the 8 MiB it reads, whatever one write brings (the setting allows 3660 days)', async () => {
      const refused: number[] = [];
      const book = history(3660);
      await store({ keepDays: () => 3660, onRefused: (rows) => refused.push(rows) }).update(() => book);
      const read = await store({ keepDays: () => 3660 }).read();
      assert.deepEqual(corrupt, []);
      assert.ok((await sizeOf(store().file)) <= MAX_LEDGER_BYTES);
      assert.ok(read.rows.length > 2000 * 10, `${read.rows.length / 10} days kept`);
      assert.equal(refused.length, 1);
      assert.equal(refused[0], book.rows.length - read.rows.length);
    });
  });

  it('keeps keepDays days and clears everything on Clear History', async () => {
    const day = 24 * 3600 * SECOND;
    const ledger = store({ keepDays: () => 3 });
    const credit = (branch: string, daysAgo: number) => (book: LedgerBook) =>
      creditSpans(claimFocus(book, 'A', T0 - 10 * day), 'A', [
        span(branch, T0 - daysAgo * day, T0 - daysAgo * day + SECOND),
      ]);
    for (const [branch, daysAgo] of [
      ['old', 5],
      ['new', 2],
      ['new', 1],
      ['new', 0],
    ] as const) {
      now = T0 - daysAgo * day + HOUR;
      await ledger.update(credit(branch, daysAgo));
    }
    assert.equal((await ledger.read()).rows.length, 4, 'written today: the oldest day goes at the next');
    now = T0 + day;
    await ledger.update((book) => book);
    assert.deepEqual(
      (await ledger.read()).rows.map((row) => row.branch),
      ['new', 'new', 'new'],
    );
    await ledger.clear();
    assert.deepEqual((await ledger.read()).rows, []);
    assert.doesNotMatch(await readFile(ledger.file, 'utf8'), /new|api/);
  });
});

describe('tracker/branchTime/BranchLedger: two windows over one store folder', function () {
  // Real locks and synced writes on a shared, slow machine.
  this.timeout(30_000);
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tt-ledger-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('count each second once: the window that took focus last owns the time, even while it waits to write', async () => {
    let now = T0;
    const errors: unknown[] = [];
    const ledger = (windowId: string, branch: string): BranchLedger => {
      const made = new BranchLedger({
        store: new LedgerStore(folder, { now: () => now, keepDays: () => 90 }),
        windowId,
        now: () => now,
        maxGapMs: () => 30 * SECOND,
        onError: (error) => errors.push(error),
      });
      made.setPlace(place(branch, `/repos/${windowId}`));
      return made;
    };
    const a = ledger('A', 'main');
    const b = ledger('B', 'feature/PROJ-7');
    await a.focusChanged(true);
    // Both windows poll every 5 s for 20 minutes; focus goes to B at 5 min and back to A at 12 min.
    for (now = T0; now <= T0 + 1200 * SECOND; now += 5 * SECOND) {
      if (now === T0 + 300 * SECOND) await b.focusChanged(true);
      if (now === T0 + 720 * SECOND) await a.focusChanged(true);
      a.observe(tracking);
      b.observe(tracking);
    }
    now -= 5 * SECOND;
    await Promise.all([a.flush(), b.flush()]);
    await a.refresh();
    assert.deepEqual(errors, []);
    assert.equal(total(a.current), 1200 * SECOND);
    assert.equal(total(a.current, 'main'), 780 * SECOND);
    assert.equal(total(a.current, 'feature/PROJ-7'), 420 * SECOND);
  });

  it('reads the file again only when another window wrote it, and tells the view only then', async () => {
    let now = T0;
    const reads: string[] = [];
    const counted = (windowId: string): StoreFiles => ({
      ...platformStoreFiles,
      readText: (path, options) => {
        reads.push(windowId);
        return platformStoreFiles.readText(path, options);
      },
    });
    let changes = 0;
    const a = new BranchLedger({
      store: new LedgerStore(folder, { now: () => now, keepDays: () => 90, files: counted('A') }),
      windowId: 'A',
      now: () => now,
      maxGapMs: () => 30 * SECOND,
      onDidChange: () => changes++,
    });
    const b = new BranchLedger({
      store: new LedgerStore(folder, { now: () => now, keepDays: () => 90, files: counted('B') }),
      windowId: 'B',
      now: () => now,
      maxGapMs: () => 30 * SECOND,
    });
    b.setPlace(place('feature/PROJ-7'));
    await b.focusChanged(true);
    await a.refresh();
    assert.deepEqual([reads.filter((w) => w === 'A').length, changes], [1, 1], 'the first look reads');
    for (let i = 0; i < 5; i++) await a.refresh();
    assert.deepEqual([reads.filter((w) => w === 'A').length, changes], [1, 1], 'the same file: neither read nor told');
    for (; now <= T0 + 60 * SECOND; now += 5 * SECOND) b.observe(tracking);
    await b.flush();
    await a.refresh();
    assert.deepEqual([reads.filter((w) => w === 'A').length, changes], [2, 2], 'B wrote: read and told');
    assert.equal(total(a.current, 'feature/PROJ-7'), 60 * SECOND);
    a.setPlace(place('main'));
    await a.focusChanged(true);
    const afterOwnWrite = reads.filter((w) => w === 'A').length;
    await a.refresh();
    assert.equal(reads.filter((w) => w === 'A').length, afterOwnWrite, 'its own write is known: not read again');
  });

  it('writes the ledger without syncing the drive (a summary at every focus change), still whole', async () => {
    const { files, asked } = recordingWrites();
    await new LedgerStore(folder, { now: () => T0, keepDays: () => 90, files }).update((book) =>
      claimFocus(book, 'A', T0),
    );
    assert.deepEqual(asked, [{ durable: false }]);
  });

  it('keeps its spans and says why when the store cannot be written, and writes them later', async () => {
    let now = T0;
    let failing = true;
    const errors: string[] = [];
    const store = new LedgerStore(folder, {
      now: () => now,
      keepDays: () => 90,
      files: {
        withLock: (_path, work) => (failing ? Promise.reject(new Error('disk full')) : work()),
        readText: readBoundedText,
        writeAtomic: (path, text) => writeFileAtomic(path, text),
        version: fileVersion,
      },
    });
    const ledger = new BranchLedger({
      store,
      windowId: 'A',
      now: () => now,
      maxGapMs: () => 30 * SECOND,
      onError: (error) => errors.push(String(error)),
    });
    ledger.setPlace(place('main'));
    for (; now <= T0 + 60 * SECOND; now += 5 * SECOND) ledger.observe(tracking);
    await ledger.flush();
    assert.deepEqual(errors, ['Error: disk full']);
    assert.equal(total(ledger.current), 60 * SECOND, 'shown while it waits');
    failing = false;
    await ledger.flush();
    assert.equal(total(await store.read()), 60 * SECOND);
  });
});
