/**
 * The ledger as data, shared by every window of this machine through one file (./ledgerStore.ts):
 * totals per (day, repository, branch, activity) and the focus record that says which window owns
 * the time. Pure: the store reads, changes with these functions and writes under the one lock.
 *
 * Ownership is how one second of the app's time counts once across windows: the window that took
 * focus last owns the time from then on, focused or not (the user may be in another program),
 * until another window takes it. A window credits only the parts of its spans it owned. A window
 * taking focus owns from the later of that moment and the end of everything already credited, so a
 * credit written just before the focus was recorded is never counted twice. Who a claim names, and
 * what happens to the claim of a window whose extension host is gone, is ./ledgerOwners.ts.
 *
 * The machine's clock may be wrong for a while (a VM resumed, an RTC glitch, set back by hand): a
 * window writing with its clock never leaves a claim or a credit mark after its now (the next
 * window taking focus owns from its own now), and a day is pruned only when it is old both by that
 * now and by the days tracked after it (pruneBook): a clock wrong either way does not delete the
 * history.
 */
import { branchKey, pathKey } from '../../platform/pathKey';
import { placeOf, type LedgerActivity, type Span, type WorkPlace } from './attribution';
import {
  claimantOf,
  ownedStretches,
  ownerEntry,
  ownerOf,
  sameClaimant,
  type Claimant,
  type FocusOwner,
  type OwnedBook,
} from './ledgerOwners';

export interface LedgerRow extends WorkPlace, LedgerActivity {
  /** The local day, `YYYY-MM-DD`. */
  readonly day: string;
  readonly ms: number;
  readonly firstMs: number;
  readonly lastMs: number;
}

export interface LedgerBook extends OwnedBook {
  readonly version: 1;
  readonly rows: readonly LedgerRow[];
  /** When the rows were last pruned, by the writer's clock, and to how many days (absent until the first time). */
  readonly lastPrune?: LastPrune;
}

export interface LastPrune {
  /** The writer's local day. */
  readonly day: string;
  readonly keepDays: number;
}

export type BookRead = { readonly book: LedgerBook } | { readonly problem: string };

/** Focus changes older than this are of no use: no window holds spans that old. */
const OWNER_MEMORY_MS = 2 * 24 * 3600_000;
/** How late a window's claim of the focus may reach the file and still be put in its place. */
const REPEAT_MEMORY_MS = 10 * 60_000;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const EMPTY_BOOK: LedgerBook = { version: 1, owners: [], creditedUntilMs: 0, rows: [] };

/** The local day of an instant, `YYYY-MM-DD`. */
export function dayOf(ms: number): string {
  const date = new Date(ms);
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

/** The first instant of the local day after the one `ms` is in. */
export function nextDayStart(ms: number): number {
  const date = new Date(ms);
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1).getTime();
}

/**
 * `window` took focus at `atMs`: it owns the time from then (or from the end of what is credited)
 * until the next window took it. Claims reach the file in the order their windows could write,
 * not the order they were made (a window's write waits behind its own): one made before a claim
 * already written is put in its place by time, and owns only until that claim. So a window
 * taking focus again is written too, though it owned the time already: a late, older claim of
 * another window must not outrank it.
 */
export function claimFocus(book: LedgerBook, window: string | Claimant, atMs: number): LedgerBook {
  const sinceMs = Math.max(atMs, book.creditedUntilMs);
  const later = book.owners.findIndex((owner) => owner.sinceMs > atMs);
  const before = later === -1 ? book.owners : book.owners.slice(0, later);
  const after = later === -1 ? [] : book.owners.slice(later);
  // All of its time was credited or claimed by others already.
  if (after[0] !== undefined && sinceMs >= after[0].sinceMs) return book;
  const owners = [...before, ownerEntry(claimantOf(window), sinceMs), ...after];
  const newestMs = owners.at(-1)?.sinceMs ?? sinceMs;
  return { ...book, owners: owners.filter((owner, index) => keepOwner(owner, owners[index - 1], newestMs)) };
}

/**
 * Focus changes older than two days are of no use, and a window's claim right after its own is
 * needed only while a late claim of another window may still land before it (a few minutes).
 */
function keepOwner(owner: FocusOwner, previous: FocusOwner | undefined, newestMs: number): boolean {
  if (owner.sinceMs < newestMs - OWNER_MEMORY_MS) return false;
  return previous === undefined || !sameClaimant(previous, owner) || owner.sinceMs >= newestMs - REPEAT_MEMORY_MS;
}

/**
 * Adds the parts of `spans` that `window` owned; with no owner yet, the first window to credit claims.
 * Runs at every poll over a book of up to 90 days: only the rows of the days the spans reach are
 * keyed and matched, the others are passed on as they are. Places compare as samePlace does on
 * `platform` (./attribution.ts).
 */
export function creditSpans(
  book: LedgerBook,
  window: string | Claimant,
  spans: readonly Span[],
  platform: NodeJS.Platform = process.platform,
): LedgerBook {
  const first = spans[0];
  if (first === undefined) return book;
  const claimed = book.owners.length === 0 ? claimFocus(book, window, first.startMs) : book;
  const owned = ownedStretches(claimed.owners, claimantOf(window));
  const keys = new RowKeys(spans, platform);
  const credited = new Map<string, LedgerRow>();
  let creditedUntilMs = claimed.creditedUntilMs;
  for (const span of spans) {
    for (const [from, to] of owned) {
      const startMs = Math.max(span.startMs, from);
      const endMs = Math.min(span.endMs, to);
      if (endMs <= startMs) continue;
      addByDay(credited, keys, span, startMs, endMs);
      creditedUntilMs = Math.max(creditedUntilMs, endMs);
    }
  }
  return { ...claimed, creditedUntilMs, rows: mergeRows(claimed.rows, credited, keys) };
}

/**
 * What rows are told apart by: the day, the place and the activity. A root compares by pathKey,
 * and a branch case-folded where the spans say its repository ignores case, for its rows of every
 * session alike: the rows' own word is not asked, so rows written without it match,
 * and so does a row written while the config said otherwise, under its exact name.
 */
class RowKeys {
  private readonly ignoringCase: ReadonlySet<string>;

  constructor(
    spans: readonly Span[],
    private readonly platform: NodeJS.Platform,
  ) {
    const roots = spans.filter((span) => span.place.ignoresCase === true).map((span) => this.root(span.place.root));
    this.ignoringCase = new Set(roots);
  }

  place(place: WorkPlace): string {
    return JSON.stringify(this.placeParts(place));
  }

  row(row: LedgerRow): string {
    // Activity ids are UUIDs the app writes upper-case and others lower-case.
    return JSON.stringify([row.day, ...this.placeParts(row), row.activityID.toLowerCase()]);
  }

  private placeParts(place: WorkPlace): [string, string] {
    const root = this.root(place.root);
    return [root, branchKey(place.branch, this.ignoringCase.has(root))];
  }

  private root(root: string): string {
    return pathKey(root, this.platform);
  }
}

/**
 * `rows` with `credited` added: a row of the same day, place and activity grows; a new one is
 * appended, its place written as the ledger first wrote it (a repository opened under a path in
 * another case, a branch checked out in another case, stays one row and one name).
 */
function mergeRows(rows: readonly LedgerRow[], credited: Map<string, LedgerRow>, keys: RowKeys): LedgerRow[] {
  if (credited.size === 0) return [...rows];
  const days = new Set([...credited.values()].map((row) => row.day));
  const merged = rows.map((row) => {
    if (!days.has(row.day)) return row;
    const key = keys.row(row);
    const added = credited.get(key);
    if (added === undefined) return row;
    credited.delete(key);
    return joined(row, added);
  });
  if (credited.size === 0) return merged;
  // Rare (a new day, place or activity): only then is every row's place keyed.
  const firstWritten = new Map<string, WorkPlace>();
  for (const row of rows) {
    const key = keys.place(row);
    if (!firstWritten.has(key)) firstWritten.set(key, row);
  }
  const added = [...credited.values()].map((row) => {
    const place = firstWritten.get(keys.place(row));
    return place === undefined ? row : { ...row, ...placeOf(place) };
  });
  return [...merged, ...added];
}

function addByDay(rows: Map<string, LedgerRow>, keys: RowKeys, span: Span, startMs: number, endMs: number): void {
  for (let from = startMs; from < endMs;) {
    const to = Math.min(endMs, nextDayStart(from));
    const row: LedgerRow = {
      ...span.place,
      ...span.activity,
      day: dayOf(from),
      ms: to - from,
      firstMs: from,
      lastMs: to,
    };
    const key = keys.row(row);
    const known = rows.get(key);
    rows.set(key, known ? joined(known, row) : row);
    from = to;
  }
}

/** One row of two of the same key: the place as the first wrote it, the later one's activity name, the time of both. */
function joined(known: LedgerRow, later: LedgerRow): LedgerRow {
  return {
    ...later,
    ...placeOf(known),
    ms: known.ms + later.ms,
    firstMs: Math.min(known.firstMs, later.firstMs),
    lastMs: Math.max(known.lastMs, later.lastMs),
  };
}

/**
 * A claim or the credit mark after the writer's now (its clock was ahead, or is set back) moved to
 * its now: a claim in the future would own time nobody has seen yet, and a credit mark there would
 * push every later claim past it. The rows are what was counted, and stay.
 */
export function clampToNow(book: LedgerBook, nowMs: number): LedgerBook {
  if (book.creditedUntilMs <= nowMs && book.owners.every((owner) => owner.sinceMs <= nowMs)) return book;
  return {
    ...book,
    creditedUntilMs: Math.min(book.creditedUntilMs, nowMs),
    owners: book.owners.map((owner) => (owner.sinceMs > nowMs ? { ...owner, sinceMs: nowMs } : owner)),
  };
}

/**
 * Drops the days past `keepDays`, by a rule no clock can turn against the history. A day goes only
 * when both hold:
 * - it is more than `keepDays` days before the writer's today: a clock behind prunes less;
 * - `keepDays` days with time in the ledger as read (`known`, so never the rows this write adds)
 *   are newer than it, not counting days after the writer's today: a clock ahead makes days look
 *   old, but it cannot make days tracked. A clock wrong once, by any amount, either way, for any
 *   time, so removes no day of the last `keepDays` by the true date (ledgerClock.test.ts): the one
 *   true day it dates twice is not yet in `known` when that count could reach it. Each further
 *   wrong date it jumps to can take one more of the oldest days.
 * Rows dated after the writer's today (a clock ahead wrote them, or this one is behind) stay, and
 * count once the clock has reached them. With fewer days tracked than kept, nothing is done and
 * nothing recorded; else at most once a day of the writer's clock, or again when fewer days are
 * to be kept.
 */
export function pruneBook(book: LedgerBook, keepDays: number, nowMs: number, known: LedgerBook = book): LedgerBook {
  const today = dayOf(nowMs);
  const days = Math.max(1, keepDays);
  if (book.lastPrune !== undefined && book.lastPrune.day === today && days >= book.lastPrune.keepDays) return book;
  const tracked = [...new Set(known.rows.map((row) => row.day).filter((day) => day <= today))].sort();
  const oldestTracked = tracked[tracked.length - days];
  if (oldestTracked === undefined) return book;
  const byClock = daysBack(today, days - 1);
  const keptFromDay = oldestTracked < byClock ? oldestTracked : byClock;
  return {
    ...book,
    lastPrune: { day: today, keepDays: days },
    rows: book.rows.filter((row) => row.day >= keptFromDay),
  };
}

/** The local day `count` days before `day` (both `YYYY-MM-DD`). */
function daysBack(day: string, count: number): string {
  const [year = 0, month = 1, date = 1] = day.split('-').map(Number);
  return dayOf(new Date(year, month - 1, date - count).getTime());
}

/** The file's text as a book, or why it is none (then it is moved aside, never overwritten). */
export function parseBook(text: string): BookRead {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return { problem: 'is not JSON' };
  }
  if (
    !isRecord(data) ||
    data.version !== 1 ||
    !Array.isArray(data.owners) ||
    !Array.isArray(data.rows) ||
    !finite(data.creditedUntilMs)
  ) {
    return { problem: 'is not a branch-time ledger (version 1)' };
  }
  const owners = data.owners.map(ownerOf);
  if (!owners.every((owner): owner is FocusOwner => owner !== undefined) || !data.rows.every(isRow))
    return { problem: 'holds an entry of another shape' };
  // A file without `lastPrune` does not say when it was pruned: it is pruned at the next write.
  const lastPrune = isLastPrune(data.lastPrune)
    ? { lastPrune: { day: data.lastPrune.day, keepDays: data.lastPrune.keepDays } }
    : {};
  return { book: { version: 1, owners, creditedUntilMs: data.creditedUntilMs, rows: data.rows, ...lastPrune } };
}

export function serializeBook(book: LedgerBook): string {
  return `${JSON.stringify(book)}\n`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function finite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isLastPrune(value: unknown): value is LastPrune {
  return isRecord(value) && typeof value.day === 'string' && DAY.test(value.day) && finite(value.keepDays);
}

function isRow(value: unknown): value is LedgerRow {
  if (!isRecord(value)) return false;
  const texts = ['day', 'root', 'repository', 'branch', 'activityID', 'activityName'].every(
    (key) => typeof value[key] === 'string',
  );
  return (
    texts &&
    DAY.test(String(value.day)) &&
    finite(value.ms) &&
    value.ms >= 0 &&
    finite(value.firstMs) &&
    finite(value.lastMs)
  );
}
