/**
 * A window that records nothing (the ledger off for it, or no folder open) still takes the focus:
 * the time it has is recorded nowhere, never given to the window focused before it.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { WorkPlace } from '../../../../src/tracker/branchTime/attribution';
import { BranchLedger } from '../../../../src/tracker/branchTime/branchLedger';
import type { LedgerBook } from '../../../../src/tracker/branchTime/ledgerBook';
import { LEDGER_FILE, LedgerStore } from '../../../../src/tracker/branchTime/ledgerStore';
import { HOUR, MINUTE, place, SECOND, T0, tracking } from './ledgerFixtures';

const total = (book: LedgerBook): number => book.rows.reduce((sum, row) => sum + row.ms, 0);

describe('tracker/branchTime/BranchLedger: a window that records nothing', function () {
  // Real locks and synced writes on a shared, slow machine.
  this.timeout(30_000);
  let folder: string;
  let now: number;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tt-ledger-focus-'));
    now = T0;
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  const window = (id: string, where: WorkPlace | undefined): BranchLedger => {
    // Written when the test flushes: the same credits in a few synced writes.
    const ledger = new BranchLedger({
      store: new LedgerStore(folder, { now: () => now, keepDays: () => 90 }),
      windowId: id,
      now: () => now,
      maxGapMs: () => 30 * SECOND,
      flushEveryMs: 24 * HOUR,
    });
    ledger.setPlace(where);
    return ledger;
  };
  /** A focused for a minute, then `b` for an hour, both seeing the app track all along. */
  const minuteThenHour = async (a: BranchLedger, b: BranchLedger): Promise<LedgerBook> => {
    await a.focusChanged(true);
    for (now = T0; now <= T0 + MINUTE + HOUR; now += 5 * SECOND) {
      if (now === T0 + MINUTE) {
        await a.focusChanged(false);
        await b.focusChanged(true);
      }
      a.observe(tracking);
      b.observe(tracking);
    }
    await Promise.all([a.flush(), b.flush()]);
    await a.refresh();
    return a.current;
  };

  it('takes the focus with the ledger off for it, and credits nothing: the window focused before keeps its minute only', async () => {
    const a = window('A', place('main', '/repos/public-app'));
    const b = window('B', place('main', '/repos/private'));
    b.setEnabled(false);
    const book = await minuteThenHour(a, b);
    assert.equal(total(book), MINUTE);
    assert.deepEqual(
      book.rows.map((row) => row.repository),
      ['public-app'],
    );
  });

  it('takes the focus with no folder open, and credits nothing', async () => {
    const a = window('A', place('main', '/repos/public-app'));
    const b = window('B', undefined);
    assert.equal(total(await minuteThenHour(a, b)), MINUTE);
  });

  it('with the ledger off and no ledger yet, writes no file', async () => {
    const b = window('B', place('main', '/repos/private'));
    b.setEnabled(false);
    await b.focusChanged(true);
    await assert.rejects(stat(join(folder, LEDGER_FILE)), { code: 'ENOENT' });
  });
});

describe('tracker/branchTime/BranchLedger: what a HEAD puts in a row', function () {
  this.timeout(30_000);
  let folder: string;
  let now: number;
  let changes: number;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tt-ledger-branch-'));
    now = T0;
    changes = 0;
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it("cuts a branch at the protocol's 255 characters: a 64 KiB HEAD makes no 64 KiB row", async () => {
    // The first line of a downloaded folder's 64 KiB .git/HEAD; emoji, so the cut counts characters.
    const branch = `feature/${'😀'.repeat(32 * 1024)}`;
    const ledger = new BranchLedger({
      store: new LedgerStore(folder, { now: () => now, keepDays: () => 90 }),
      windowId: 'A',
      now: () => now,
      maxGapMs: () => 30 * SECOND,
      onDidChange: () => changes++,
    });
    ledger.setPlace(place(branch));
    ledger.setPlace(place(branch));
    assert.equal(changes, 1, 'the same HEAD read again is the same place');
    await ledger.focusChanged(true);
    for (; now <= T0 + MINUTE; now += 5 * SECOND) ledger.observe(tracking);
    await ledger.flush();
    const rows = ledger.current.rows;
    assert.deepEqual(
      rows.map((row) => [Array.from(row.branch).length, row.ms]),
      [[255, MINUTE]],
    );
    assert.ok(branch.startsWith(rows[0]!.branch), 'the branch as it begins, with no half character');
    assert.equal(ledger.place?.branch, rows[0]!.branch, 'the window is on the branch its rows name');
  });
});
