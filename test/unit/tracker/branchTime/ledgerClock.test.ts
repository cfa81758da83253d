/**
 * The ledger under a wrong clock: a machine's clock jumps ahead (a VM resumed, an RTC glitch) or is
 * set back, for a moment, while windows write. No history is lost to it, and the window taking
 * focus owns the time from its own now.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BranchLedger } from '../../../../src/tracker/branchTime/branchLedger';
import {
  clampToNow,
  claimFocus,
  creditSpans,
  dayOf,
  EMPTY_BOOK,
  pruneBook,
} from '../../../../src/tracker/branchTime/ledgerBook';
import { LedgerStore } from '../../../../src/tracker/branchTime/ledgerStore';
import { DAY, HOUR, MINUTE, place, SECOND, span, T0, total, tracking } from './ledgerFixtures';

/** The same hour of day `daysAgo` days before T0 (local days: a DST change moves no row to another day). */
const daysBefore = (daysAgo: number, ms = T0): number => {
  const date = new Date(ms);
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() - daysAgo, date.getHours()).getTime();
};

describe('tracker/branchTime: a wrong clock', function () {
  // Real locks and synced writes on a shared, slow machine.
  this.timeout(30_000);
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tt-ledger-clock-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  /** A window with a clock of its own (its store's too), on its own repository. */
  const window = (id: string, branch: string, clock: { now: number }): BranchLedger => {
    const now = (): number => clock.now;
    // Written when the test flushes, not every minute: the same credits in a few synced writes.
    const ledger = new BranchLedger({
      store: new LedgerStore(folder, { now, keepDays: () => 90 }),
      windowId: id,
      now,
      maxGapMs: () => 30 * SECOND,
      flushEveryMs: DAY,
    });
    ledger.setPlace(place(branch, `/repos/${id}`));
    return ledger;
  };
  /** Both windows poll every 5 s from `from` to `to` on their clocks (the same one here), then write. */
  const trackBoth = async (
    clock: { now: number },
    from: number,
    to: number,
    ...ledgers: BranchLedger[]
  ): Promise<void> => {
    for (clock.now = from; clock.now <= to; clock.now += 5 * SECOND)
      for (const ledger of ledgers) ledger.observe(tracking);
    clock.now -= 5 * SECOND;
    for (const ledger of ledgers) await ledger.flush();
  };

  it('deletes no history when a window writes with its clock 120 days ahead', async () => {
    const store = new LedgerStore(folder, { now: () => T0, keepDays: () => 90 });
    const history = Array.from({ length: 30 }, (_, index) => span('main', daysBefore(index), daysBefore(index) + HOUR));
    await store.update((book) => creditSpans(claimFocus(book, 'A', daysBefore(30)), 'A', history));
    assert.equal(total(await store.read()), 30 * HOUR);

    const ahead = { now: T0 + 2 * HOUR + 120 * DAY };
    await window('B', 'main', ahead).focusChanged(true);
    assert.equal(total(await store.read()), 30 * HOUR, 'one focus change at the wrong clock');
    // The clock is right again: the next write prunes as before, from the newest day it knows.
    await window('A', 'main', { now: T0 + 3 * HOUR }).focusChanged(true);
    assert.equal(total(await store.read()), 30 * HOUR);
  });

  it('deletes no history when a window that tracks writes its spans with its clock 120 days ahead, twice, then right again', async () => {
    const store = new LedgerStore(folder, { now: () => T0, keepDays: () => 90 });
    const history = Array.from({ length: 30 }, (_, index) => span('main', daysBefore(index), daysBefore(index) + HOUR));
    await store.update((book) => creditSpans(claimFocus(book, 'A', daysBefore(30)), 'A', history));
    const clock = { now: T0 + 2 * HOUR };
    const a = window('A', 'main', clock);
    const pollAndWrite = async (fromMs: number): Promise<void> => {
      for (clock.now = fromMs; clock.now <= fromMs + 10 * SECOND; clock.now += 5 * SECOND) a.observe(tracking);
      await a.flush();
    };
    await pollAndWrite(T0 + 2 * HOUR);
    // The clock jumps ahead: the next polls' spans, and so rows, are dated 120 days on.
    await pollAndWrite(T0 + 2 * HOUR + 120 * DAY);
    await pollAndWrite(T0 + 2 * HOUR + 120 * DAY + MINUTE);
    await pollAndWrite(T0 + 3 * HOUR);
    const book = await store.read();
    assert.equal(
      total(book) - total({ ...book, rows: book.rows.filter((row) => row.day > dayOf(T0)) }),
      30 * HOUR + 20 * SECOND,
      'the 30 days, and the 20 s tracked today at the right clock',
    );
  });

  it('keeps every past day when an hour is tracked across midnight with the clock 120 days ahead, then the clock is right again', async () => {
    const store = new LedgerStore(folder, { now: () => T0, keepDays: () => 90 });
    const history = Array.from({ length: 60 }, (_, index) => span('main', daysBefore(index), daysBefore(index) + HOUR));
    await store.update((book) => creditSpans(claimFocus(book, 'A', daysBefore(60)), 'A', history));
    const pastDays = (await store.read()).rows.map((row) => row.day);
    assert.equal(pastDays.length, 60);
    // 23:30 on the wrong date, 120 days on: an hour of tracking, written every few minutes.
    const wrong = new Date(T0 + 120 * DAY);
    const clock = { now: new Date(wrong.getFullYear(), wrong.getMonth(), wrong.getDate(), 23, 30).getTime() };
    const a = window('A', 'main', clock);
    await a.focusChanged(true);
    const end = clock.now + HOUR;
    for (let from = clock.now; from < end; from += 5 * MINUTE) {
      for (clock.now = from; clock.now < from + 5 * MINUTE; clock.now += 5 * SECOND) a.observe(tracking);
      await a.flush();
    }
    // The clock is right again, the next evening: a window tracks and writes.
    const right = { now: T0 + DAY + 2 * HOUR };
    const b = window('B', 'main', right);
    await b.focusChanged(true);
    await trackBoth(right, right.now, right.now + 10 * MINUTE, b);
    const days = (await store.read()).rows.map((row) => row.day);
    assert.deepEqual(
      pastDays.filter((day) => !days.includes(day)),
      [],
      'no past day removed',
    );
    assert.equal(
      total({ ...EMPTY_BOOK, rows: (await store.read()).rows.filter((row) => pastDays.includes(row.day)) }),
      60 * HOUR,
    );
  });

  it('lets the window focused after a claim 3 days ahead own the time from its now', async () => {
    const clock = { now: T0 };
    const ahead = window('A', 'main', { now: T0 + 3 * DAY });
    await ahead.focusChanged(true);
    // A's clock is right again; B takes the focus and both track for an hour.
    const a = window('A', 'main', clock);
    const b = window('B', 'feature/PROJ-7', clock);
    await b.focusChanged(true);
    await trackBoth(clock, T0 + SECOND, T0 + SECOND + HOUR, a, b);
    await a.refresh();
    assert.equal(total(a.current, 'feature/PROJ-7'), HOUR);
    assert.equal(total(a.current, 'main'), 0);
    const book = await new LedgerStore(folder, { now: () => clock.now, keepDays: () => 90 }).read();
    assert.ok(
      book.owners.every((owner) => owner.sinceMs <= clock.now),
      'no claim stays in the future',
    );
  });

  it('lets the window taking focus own the time from its now after the clock was set back an hour', async () => {
    const clock = { now: T0 };
    const a = window('A', 'main', clock);
    const b = window('B', 'feature/PROJ-7', clock);
    await a.focusChanged(true);
    await trackBoth(clock, T0, T0 + 2 * HOUR, a, b);
    // Set back an hour; B takes the focus at once, and both track another hour.
    clock.now = T0 + HOUR;
    await b.focusChanged(true);
    await trackBoth(clock, T0 + HOUR + 5 * SECOND, T0 + 2 * HOUR + 5 * SECOND, a, b);
    await a.refresh();
    assert.equal(total(a.current, 'main'), 2 * HOUR, 'the window no longer focused gets nothing of the hour');
    assert.equal(total(a.current, 'feature/PROJ-7'), HOUR);
  });
});

describe('tracker/branchTime/ledgerBook: clamping and pruning against the writer clock', () => {
  it('clamps claims and the credited-until stamp in the future of the writer to its now, and leaves a book without any alone', () => {
    const book = creditSpans(claimFocus(EMPTY_BOOK, 'A', T0), 'A', [span('main', T0, T0 + HOUR)]);
    assert.equal(clampToNow(book, T0 + HOUR), book);
    const clamped = clampToNow(claimFocus(book, 'B', T0 + 3 * DAY), T0 + 2 * HOUR);
    assert.deepEqual(
      clamped.owners.map((owner) => [owner.window, owner.sinceMs]),
      [['B', T0 + 2 * HOUR]],
    );
    assert.equal(clampToNow(book, T0).creditedUntilMs, T0);
    assert.equal(clamped.rows, book.rows, 'rows are what was counted: never moved');
  });

  it('prunes a day only when it is older than keepDays by the writer clock and keepDays days with time follow it', () => {
    const book = creditSpans(claimFocus(EMPTY_BOOK, 'A', daysBefore(40)), 'A', [
      span('old', daysBefore(40), daysBefore(40) + HOUR),
      span('kept', daysBefore(20), daysBefore(20) + HOUR),
      span('last', daysBefore(10), daysBefore(10) + HOUR),
      // Written while the clock was 100 days ahead.
      span('ahead', daysBefore(-100), daysBefore(-100) + HOUR),
    ]);
    assert.equal(pruneBook(book, 30, T0), book, 'three days with time: none goes, and nothing is recorded');
    assert.deepEqual(
      pruneBook(book, 2, T0).rows.map((row) => row.branch),
      ['kept', 'last', 'ahead'],
      'two days with time after the oldest, the row ahead left alone and not counted',
    );
    assert.deepEqual(
      pruneBook(book, 2, daysBefore(15)).rows.map((row) => row.branch),
      ['old', 'kept', 'last', 'ahead'],
      'a clock 15 days behind counts no day after it: one day with time before it, nothing goes',
    );
    assert.deepEqual(
      pruneBook(book, 2, T0 + 200 * DAY).rows.map((row) => row.branch),
      ['last', 'ahead'],
      'the row ahead counts once the clock has passed it',
    );
  });

  it('keeps 60 past days through 20 days tracked with the clock 120 days ahead, and through the clock set back after', () => {
    const pastDay = (index: number) => span('past', daysBefore(index), daysBefore(index) + HOUR);
    let book = creditSpans(
      claimFocus(EMPTY_BOOK, 'A', daysBefore(60)),
      'A',
      Array.from({ length: 60 }, (_, i) => pastDay(i)),
    );
    const write = (nowMs: number): void => {
      const known = book;
      book = pruneBook(creditSpans(known, 'A', [span('now', nowMs - HOUR, nowMs)]), 90, nowMs, known);
    };
    for (let index = 1; index <= 20; index++) write(daysBefore(-120 - index));
    for (let index = 1; index <= 20; index++) write(daysBefore(-index));
    assert.equal(book.rows.filter((row) => row.branch === 'past').length, 60);
  });

  describe('one wrong clock, by any amount, for any length of time, deletes no day of the last keepDays', () => {
    const keepDays = 60;
    /** Hours the clock stays wrong, from 20:30 of the true day: across midnight, a day, a month, longer than kept. */
    const lengths = [5, 26, 30 * 24, 75 * 24];
    for (const aheadDays of [1, 2, 7, 120, -1, -3, -120])
      for (const hours of lengths)
        it(`${aheadDays > 0 ? 'ahead' : 'behind'} by ${Math.abs(aheadDays)} d for ${hours} h`, () => {
          /** Each half hour tracked: the day it was dated, and the true day (the branch names it). */
          const tracked: { readonly day: string; readonly trueDay: string }[] = [];
          let book = claimFocus(EMPTY_BOOK, 'A', daysBefore(100));
          const track = (trueMs: number, clockMs: number): void => {
            const known = clampToNow(book, clockMs);
            const credited = creditSpans(known, 'A', [span(dayOf(trueMs), clockMs, clockMs + 30 * MINUTE)]);
            book = pruneBook(credited, keepDays, clockMs + 30 * MINUTE, known);
            tracked.push({ day: dayOf(clockMs), trueDay: dayOf(trueMs) });
            // What was tracked on a true day of the last keepDays is all there: under its day, or a
            // date ahead; under a date behind, while that date is one of the last keepDays.
            const oldestKept = dayOf(daysBefore(keepDays - 1, trueMs + 30 * MINUTE));
            const expected = new Map<string, number>();
            for (const { day, trueDay } of tracked)
              if (trueDay >= oldestKept && (day >= trueDay || day >= oldestKept)) {
                const key = `${day} ${trueDay}`;
                expected.set(key, (expected.get(key) ?? 0) + 30 * MINUTE);
              }
            for (const [key, ms] of expected) {
              const [day, trueDay] = key.split(' ');
              const rows = book.rows.filter((row) => row.day === day && row.branch === trueDay);
              assert.equal(
                total({ ...book, rows }),
                ms,
                `${trueDay} dated ${day}, at the true ${dayOf(trueMs + 30 * MINUTE)}`,
              );
            }
          };
          // A full history: a morning on each of the 100 days before, and this morning, at the right clock.
          for (let back = 100; back >= 0; back--) track(daysBefore(back), daysBefore(back));
          const start = new Date(new Date(T0).setHours(20, 30, 0, 0)).getTime();
          for (let hour = 0; hour < hours; hour++) track(start + hour * HOUR, start + hour * HOUR + aheadDays * DAY);
          // Right again: a morning and an evening each day, for longer than is kept.
          const after = new Date(start + hours * HOUR);
          for (let day = 1; day <= keepDays + 5; day++)
            for (const hour of [10, 21]) {
              const ms = new Date(after.getFullYear(), after.getMonth(), after.getDate() + day, hour).getTime();
              track(ms, ms);
            }
        });
  });

  it('prunes at most once a day of the writer clock, or again when fewer days are to be kept, and never from the rows the write adds', () => {
    const book = pruneBook(
      creditSpans(claimFocus(EMPTY_BOOK, 'A', daysBefore(5)), 'A', [
        span('old', daysBefore(5), daysBefore(5) + HOUR),
        span('new', T0, T0 + HOUR),
      ]),
      2,
      T0,
    );
    assert.deepEqual(book.lastPrune, { day: dayOf(T0), keepDays: 2 });
    assert.equal(book.rows.length, 2);
    assert.equal(pruneBook(book, 2, T0 + HOUR), book, 'the same day: nothing to do');
    assert.equal(pruneBook(book, 20, T0 + HOUR), book, 'more days kept: nothing to do');
    const fewer = pruneBook(book, 1, T0 + HOUR);
    assert.deepEqual(
      fewer.rows.map((row) => row.branch),
      ['new'],
    );
    const written = creditSpans(book, 'A', [span('later', daysBefore(-20), daysBefore(-20) + HOUR)]);
    assert.deepEqual(
      pruneBook(written, 2, daysBefore(-20) + 2 * HOUR, book).rows.map((row) => row.branch),
      ['old', 'new', 'later'],
      'the next day by a clock 20 days ahead: the two days with time as read stay, the row it adds counts for nothing',
    );
  });
});
