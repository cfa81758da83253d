/**
 * The ledger as the text its file holds, never larger than its reader accepts: a file over the
 * read cap is judged no ledger of ours and moved aside whole, so a history the settings allow
 * (up to ten years) but the file cannot hold loses its oldest days here instead of all of them.
 * Pure; the store writes what this returns and says which days went.
 */
import { serializeBook, type LedgerBook, type LedgerRow } from './ledgerBook';

export interface FittedBook {
  readonly book: LedgerBook;
  /** `book` serialized: what the file gets. */
  readonly text: string;
  /** The oldest and the newest of the days dropped to fit, when any were. */
  readonly dropped?: { readonly fromDay: string; readonly toDay: string };
}

/**
 * Room left below the cap after dropping days, so the days after do not drop again at once
 * (half a MiB of the 8: some months at ten rows a day).
 */
const MARGIN = 1 / 16;
/** Each attempt serializes once; the row sizes make the first one fit unless the focus record alone is too large. */
const ATTEMPTS = 3;

/** `book` as its file's text of at most `maxBytes` bytes, its oldest days dropped where it would be larger. */
export function fitBook(book: LedgerBook, maxBytes: number): FittedBook {
  const text = serializeBook(book);
  if (fits(text, maxBytes)) return { book, text };
  const days = daySizes(book.rows);
  const bare = byteLength(serializeBook({ ...book, rows: [] }));
  let target = Math.floor(maxBytes * (1 - MARGIN));
  for (let attempt = 0; attempt < ATTEMPTS; attempt++, target = Math.floor(target / 2)) {
    const kept = daysToKeep(days, bare, target);
    const oldestKept = days[days.length - kept]?.[0];
    const fitted: LedgerBook = {
      ...book,
      rows: oldestKept === undefined ? [] : book.rows.filter((row) => row.day >= oldestKept),
    };
    const fittedText = serializeBook(fitted);
    const fromDay = days[0]?.[0];
    const toDay = days[days.length - kept - 1]?.[0];
    if (fits(fittedText, maxBytes))
      return {
        book: fitted,
        text: fittedText,
        ...(fromDay !== undefined && toDay !== undefined ? { dropped: { fromDay, toDay } } : {}),
      };
  }
  throw new Error(
    `The time-by-branch ledger's focus record alone is larger than ${maxBytes} bytes; it was not written.`,
  );
}

/** How many of the newest days fit in `target` bytes beside the rest of the book (`bare`). */
function daysToKeep(days: readonly (readonly [string, number])[], bare: number, target: number): number {
  let size = bare;
  let kept = 0;
  for (let index = days.length - 1; index >= 0; index--) {
    size += days[index]?.[1] ?? 0;
    if (size > target) break;
    kept++;
  }
  return kept;
}

/** Each day's rows' bytes in the file (a comma each), oldest day first. */
function daySizes(rows: readonly LedgerRow[]): [string, number][] {
  const sizes = new Map<string, number>();
  for (const row of rows) sizes.set(row.day, (sizes.get(row.day) ?? 0) + byteLength(JSON.stringify(row)) + 1);
  return [...sizes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function fits(text: string, maxBytes: number): boolean {
  // UTF-8 takes at most three bytes for each UTF-16 unit: most books are far below and never counted.
  return text.length * 3 <= maxBytes || byteLength(text) <= maxBytes;
}

function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
