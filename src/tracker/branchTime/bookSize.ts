/**
 * The ledger as the text its file holds, never larger than its reader accepts: a file over the
 * read cap is judged no ledger of ours and moved aside whole. The cap guards against abnormal rows
 * (a name or an id of megabytes), never a reason to forget: what the file held when read stays, and
 * only rows this write brings may be refused, so a history at the cap keeps all of it; days go only
 * by `keepDays` (ledgerBook.ts pruneBook). Pure; the store writes what this returns and says what
 * was refused.
 */
import { serializeBook, type LedgerBook, type LedgerRow } from './ledgerBook';

export interface FittedBook {
  readonly book: LedgerBook;
  /** `book` serialized: what the file gets. */
  readonly text: string;
  /** How many rows of this write were refused to fit, and the bytes of the largest, when any were. */
  readonly refused?: { readonly rows: number; readonly largestBytes: number };
}

/**
 * `book` as its file's text of at most `maxBytes` bytes. Where it would be larger, the rows that
 * are not `known`'s (the book as read) are refused, those that save the most first, until it fits;
 * a refused row that grew a row of `known` leaves that row at its old total.
 */
export function fitBook(book: LedgerBook, maxBytes: number, known: LedgerBook): FittedBook {
  const text = serializeBook(book);
  if (fits(text, maxBytes)) return { book, text };
  const read = new Set(known.rows);
  const present = new Set(book.rows);
  // The rows as read that this write replaced, by what a grown row keeps of them.
  const before = new Map(known.rows.filter((row) => !present.has(row)).map((row) => [rowKey(row), row]));
  const written = book.rows
    .filter((row) => !read.has(row))
    .map((row) => {
      const was = before.get(rowKey(row));
      return { row, was, saves: rowBytes(row) - (was === undefined ? 0 : rowBytes(was)) };
    })
    .sort((a, b) => b.saves - a.saves);
  const refused = new Map<LedgerRow, LedgerRow | undefined>();
  // Exact: each row takes its text and a comma, but for the last of a list emptied.
  let excess = byteLength(text) - maxBytes + 1;
  for (const { row, was, saves } of written) {
    if (excess <= 0) break;
    refused.set(row, was);
    excess -= saves;
  }
  let fitted = without(book, refused);
  let fittedText = serializeBook(fitted);
  if (!fits(fittedText, maxBytes)) {
    // Not expected (the count above is exact): every row of the write refused rather than a day lost.
    for (const { row, was } of written) refused.set(row, was);
    fitted = without(book, refused);
    fittedText = serializeBook(fitted);
  }
  if (!fits(fittedText, maxBytes))
    throw new Error(
      `The time-by-branch ledger's focus record and the history as read are larger than ${maxBytes} bytes; it was not written.`,
    );
  const largestBytes = Math.max(...[...refused.keys()].map((row) => byteLength(JSON.stringify(row))));
  return { book: fitted, text: fittedText, refused: { rows: refused.size, largestBytes } };
}

/** `book` with each refused row left out, or replaced by the row as read that it grew. */
function without(book: LedgerBook, refused: ReadonlyMap<LedgerRow, LedgerRow | undefined>): LedgerBook {
  const rows: LedgerRow[] = [];
  for (const row of book.rows) {
    const kept = refused.has(row) ? refused.get(row) : row;
    if (kept !== undefined) rows.push(kept);
  }
  return { ...book, rows };
}

/** A row grown by a write keeps the day and the place as first written (ledgerBook.ts joined). */
function rowKey(row: LedgerRow): string {
  return JSON.stringify([row.day, row.root, row.branch, row.activityID.toLowerCase()]);
}

/** A row's bytes in the file, with its comma in the rows' list. */
function rowBytes(row: LedgerRow): number {
  return byteLength(JSON.stringify(row)) + 1;
}

function fits(text: string, maxBytes: number): boolean {
  // UTF-8 takes at most three bytes for each UTF-16 unit: most books are far below and never counted.
  return text.length * 3 <= maxBytes || byteLength(text) <= maxBytes;
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
