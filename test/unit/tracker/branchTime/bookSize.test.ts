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
    const fitted = fitBook(book, 1024 * 1024);
    assert.equal(fitted.book, book);
    assert.equal(fitted.text, serializeBook(book));
    assert.equal(fitted.dropped, undefined);
  });

  it('drops the oldest days, whole, with room to spare below the cap, and says which', () => {
    const book = history(200, 4);
    const cap = Math.floor(bytes(serializeBook(book)) / 2);
    const fitted = fitBook(book, cap);
    assert.ok(bytes(fitted.text) <= cap * (15 / 16), `${bytes(fitted.text)} bytes, a margin below ${cap}`);
    assert.ok(bytes(fitted.text) > cap * (15 / 16) - 4 * 300, 'no more days dropped than needed for the margin');
    assert.equal(fitted.text, serializeBook(fitted.book));
    const kept = days(fitted.book);
    const all = days(book);
    assert.deepEqual(kept, all.slice(all.length - kept.length), 'the newest days');
    assert.deepEqual(fitted.dropped, { fromDay: all[0], toDay: all[all.length - kept.length - 1] });
    assert.deepEqual(
      fitted.book.rows,
      book.rows.filter((row) => row.day >= kept[0]!),
      'every row of a kept day as it was',
    );
    assert.deepEqual(fitted.book.owners, book.owners);
    assert.ok('book' in parseBook(fitted.text));
  });

  it('counts bytes, not characters: names outside ASCII take more room in the file', () => {
    const book = history(100, 4, (index) => `fix/überprüfung-${'日本語'.repeat(10)}-${index}`);
    const text = serializeBook(book);
    const cap = Math.floor((text.length + bytes(text)) / 2);
    const fitted = fitBook(book, cap);
    assert.ok(fitted.dropped, `${text.length} characters but ${bytes(text)} bytes: over a cap of ${cap}`);
    assert.ok(bytes(fitted.text) <= cap);
  });

  it('writes nothing rather than a file its reader refuses, when the focus record alone is too large', () => {
    const book: LedgerBook = {
      ...history(3, 2),
      owners: Array.from({ length: 100 }, (_, index) => ({ window: `window-${index}`, sinceMs: T0 + index })),
    };
    assert.throws(() => fitBook(book, 1000), /focus record alone is larger than 1000 bytes/);
  });
});
