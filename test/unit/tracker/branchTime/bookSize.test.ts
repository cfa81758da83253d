import assert from 'node:assert/strict';
import { fitBook } from '../../../../src/tracker/branchTime/bookSize';
import {
  dayOf,
  EMPTY_BOOK,
  parseBook,
  serializeBook,
  type LedgerBook,
  type LedgerRow,
} from '../../../../src/tracker/branchTime/ledgerBook';
import { T0 } from './ledgerFixtures';

const DAY = 24 * 3600_000;

/** `days` days up to T0, `perDay` rows a day on branches named by `branch`. */
function history(
  days: number,
  perDay: number,
  branch = (index: number): string => `feature/PROJ-${index}`,
): LedgerBook {
  const rows: LedgerRow[] = [];
  for (let back = days - 1; back >= 0; back--) {
    const startMs = T0 - back * DAY;
    for (let index = 0; index < perDay; index++) {
      rows.push({
        root: '/home/user/src/api',
        repository: 'api',
        branch: branch(index),
        activityID: 'A1',
        activityName: 'Development',
        day: dayOf(startMs),
        ms: 60_000,
        firstMs: startMs,
        lastMs: startMs + 60_000,
      });
    }
  }
  return { ...EMPTY_BOOK, owners: [{ window: 'A', sinceMs: T0 }], creditedUntilMs: T0, rows };
}

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
const days = (book: LedgerBook): string[] => [...new Set(book.rows.map((row) => row.day))];

describe('tracker/branchTime/bookSize fitBook', () => {
  it('leaves a book within the cap as it is', () => {
    const book = history(30, 5);
    const fitted = fitBook(book, 1024 * 1024, EMPTY_BOOK);
    assert.equal(fitted.book, book);
    assert.equal(fitted.text, serializeBook(book));
    assert.equal(fitted.refused, undefined);
  });

  it('keeps 60 days whole and refuses a 900 KB row the write adds, and says so', () => {
    const known = history(60, 4);
    const huge: LedgerRow = { ...known.rows.at(-1)!, activityID: 'x'.repeat(900_000), activityName: 'Squatter' };
    const cap = bytes(serializeBook(known)) + 100_000;
    const fitted = fitBook({ ...known, rows: [...known.rows, huge] }, cap, known);
    assert.deepEqual(days(fitted.book), days(known), '60 days kept');
    assert.deepEqual(fitted.book.rows, known.rows, 'every row as it was');
    assert.deepEqual(fitted.refused, { rows: 1, largestBytes: bytes(JSON.stringify(huge)) });
    assert.equal(fitted.text, serializeBook(fitted.book));
    assert.ok('book' in parseBook(fitted.text));
  });

  it('refuses only the written rows that do not fit, largest first, and keeps the old total of a row that grew', () => {
    const known = history(30, 4);
    const last = known.rows.at(-1)!;
    const grown: LedgerRow = { ...last, branch: last.branch, ms: last.ms + 60_000 };
    const small: LedgerRow = { ...last, branch: 'main' };
    const big: LedgerRow = { ...last, branch: `b/${'y'.repeat(20_000)}` };
    const rows = [...known.rows.slice(0, -1), grown, small, big];
    const fitted = fitBook({ ...known, rows }, bytes(serializeBook(known)) + 1_000, known);
    assert.deepEqual(
      fitted.book.rows.map((row) => [row.branch, row.ms]),
      [...known.rows.slice(0, -1), grown, small].map((row) => [row.branch, row.ms]),
      'the large row refused, the others written',
    );
    const full = fitBook({ ...known, rows }, bytes(serializeBook(known)), known);
    assert.deepEqual(full.book.rows, known.rows, 'at the cap: every row as read, the grown one at its old total');
    assert.equal(full.refused?.rows, 3);
  });

  it('keeps a history at the cap whole: no day goes to make room', () => {
    const known = history(200, 4);
    const cap = bytes(serializeBook(known));
    const tomorrow = history(1, 4).rows.map((row) => ({ ...row, day: dayOf(T0 + DAY), firstMs: T0 + DAY }));
    const fitted = fitBook({ ...known, rows: [...known.rows, ...tomorrow] }, cap, known);
    assert.deepEqual(days(fitted.book), days(known));
    assert.equal(fitted.refused?.rows, 4);
  });

  it('writes nothing rather than a file its reader refuses, when the focus record and what was read are too large', () => {
    const book: LedgerBook = {
      ...history(3, 2),
      owners: Array.from({ length: 100 }, (_, index) => ({ window: `window-${index}`, sinceMs: T0 + index })),
    };
    assert.throws(() => fitBook(book, 1000, book), /focus record and the history as read are larger than 1000 bytes/);
  });
});
