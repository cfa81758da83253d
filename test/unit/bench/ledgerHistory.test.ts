import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bookOf, planHistory, seedHistory, WEEK } from '../../bench/extension/ledgerHistory';
import { dayOf, nextDayStart, parseBook } from '../../../src/tracker/branchTime/ledgerBook';

const TODAY = new Date(2026, 10, 25, 14, 30).getTime();
const key = (root: string, branch: string, activityID: string): string =>
  JSON.stringify([root, branch, activityID.toLowerCase()]);

describe('bench/extension/ledgerHistory: the week of history the extension bench seeds', () => {
  const history = planHistory({ ...WEEK, todayMs: TODAY });
  const book = bookOf(history, 'seed-window');

  it('covers the 7 days before today, and nothing of today', () => {
    const days = [...new Set(book.rows.map((row) => row.day))].sort();
    const expected = [7, 6, 5, 4, 3, 2, 1].map((back) => dayOf(new Date(2026, 10, 25 - back, 12).getTime()));
    assert.deepEqual(days, expected);
  });

  it('has every repository × branch × activity every day, and totals as planned, place by place', () => {
    assert.equal(book.rows.length, WEEK.days * WEEK.repositories * WEEK.branchesPerRepository * WEEK.activities);
    assert.equal(history.places.length, WEEK.repositories * WEEK.branchesPerRepository);
    assert.equal(
      book.rows.reduce((sum, row) => sum + row.ms, 0),
      history.plannedMs,
    );
    const planned = new Map<string, number>();
    for (const span of history.spans) {
      const at = key(span.place.root, span.place.branch, span.activity.activityID);
      planned.set(at, (planned.get(at) ?? 0) + span.endMs - span.startMs);
    }
    const credited = new Map<string, number>();
    for (const row of book.rows)
      credited.set(
        key(row.root, row.branch, row.activityID),
        (credited.get(key(row.root, row.branch, row.activityID)) ?? 0) + row.ms,
      );
    assert.deepEqual(credited, planned);
  });

  it('splits each row at local midnight: every row lies within its day, and the late sessions continue the next day', () => {
    for (const row of book.rows) {
      assert.equal(dayOf(row.firstMs), row.day, JSON.stringify(row));
      assert.ok(row.lastMs <= nextDayStart(row.firstMs), JSON.stringify(row));
      assert.ok(row.ms <= row.lastMs - row.firstMs, JSON.stringify(row));
    }
    const fromMidnight = book.rows.filter((row) => row.firstMs === nextDayStart(row.firstMs - 1));
    assert.equal(fromMidnight.length, WEEK.days - 1);
  });

  it('plans spans in time order without overlaps, and the same ones every run', () => {
    history.spans.forEach((span, index) => {
      assert.ok(span.endMs > span.startMs);
      const next = history.spans[index + 1];
      if (next) assert.ok(next.startMs >= span.endMs);
    });
    assert.deepEqual(planHistory({ ...WEEK, todayMs: TODAY }), history);
  });

  it('writes through the ledger store a file the ledger reads back, row for row', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'tt-history-'));
    try {
      const seeded = await seedHistory(folder, { ...WEEK, todayMs: Date.now() });
      const read = parseBook(await readFile(seeded.file, 'utf8'));
      assert.ok('book' in read);
      assert.equal(read.book.rows.length, seeded.rows);
      assert.equal(seeded.rows, 420);
      assert.ok(seeded.bytes > 100_000, `${seeded.bytes} bytes`);
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
