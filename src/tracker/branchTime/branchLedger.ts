/**
 * One window's part of the branch-time ledger: it turns the window's poll answers,
 * focus and branch into spans (./attribution.ts), keeps them in memory for up to a minute (a write
 * every poll would cost the idle budget) and credits the ones this window owned to the shared
 * store (./ledgerStore.ts). Taking focus is written at once, since every window's credit is cut
 * by it. Writes run one at a time; a failed one keeps its spans for the next and is reported,
 * never thrown into the poll or the focus event: tracking goes on whatever the ledger's file does.
 */
import { firstCharacters } from '../../platform/outsideText';
import { BRANCH_MAX_LENGTH } from '../../protocol/constants';
import { samePlace, WindowAttribution, type PollObservation, type Span, type WorkPlace } from './attribution';
import { claimFocus, creditSpans, EMPTY_BOOK, type LedgerBook } from './ledgerBook';
import { asSeenBy, leave, type Claimant, type HostProcess } from './ledgerOwners';
import type { LedgerStore } from './ledgerStore';

export interface BranchLedgerOptions {
  readonly store: LedgerStore;
  /**
   * Tells this window's credits and focus apart from the other windows' (kept across activations: ./windowIdentity.ts).
   */
  readonly windowId: string;
  /**
   * This window's extension host, named in its claims: a restarted host takes its window's claims
   * over, and the claims of a host that is gone pass to a live window (./ledgerOwners.ts). Without
   * it, claims name the window alone and always count as alive. A promise (the machine's id is
   * read from a file) holds every write back until it settles.
   */
  readonly host?: HostProcess | Promise<HostProcess>;
  readonly now: () => number;
  /** The longest gap between two polls that still counts (two of the longest poll intervals). */
  readonly maxGapMs: (previous: PollObservation['kind']) => number;
  /** How long spans wait in memory before they are written (default a minute). */
  readonly flushEveryMs?: number;
  /** The ledger as this window last read or wrote it changed. */
  readonly onDidChange?: () => void;
  /** A read or write failed; the spans wait for the next write. For the log: once until one works again. */
  readonly onError?: (error: unknown) => void;
}

const FLUSH_EVERY_MS = 60_000;

export class BranchLedger {
  private readonly attribution: WindowAttribution;
  private pending: Span[] = [];
  private book: LedgerBook = EMPTY_BOOK;
  private turn: Promise<unknown>;
  private host: HostProcess | undefined;
  private enabled = true;
  private failing = false;
  private shown:
    { readonly book: LedgerBook; readonly pending: readonly Span[]; readonly current: LedgerBook } | undefined;
  /** How this window's claims name it. */
  private claimant: Claimant;

  constructor(private readonly options: BranchLedgerOptions) {
    this.attribution = new WindowAttribution({ now: options.now, maxGapMs: options.maxGapMs });
    const { windowId: window } = options;
    this.claimant = { window };
    this.turn = Promise.resolve(options.host).then(
      (host) => {
        this.host = host;
        if (host === undefined) return;
        this.claimant = { window, pid: host.pid, host: host.host };
        // What the view showed was credited to the window alone.
        this.shown = undefined;
      },
      (error: unknown) => this.options.onError?.(error),
    );
  }

  get place(): WorkPlace | undefined {
    return this.attribution.place;
  }

  /**
   * The ledger with this window's spans not written yet, as they will count if this window still
   * owns them: what the view shows, live.
   */
  get current(): LedgerBook {
    // Asked for by every node of the view: worked out once per change of the book or what waits.
    if (this.shown?.book !== this.book || this.shown.pending !== this.pending) {
      this.shown = {
        book: this.book,
        pending: this.pending,
        current: creditSpans(this.book, this.claimant, this.pending),
      };
    }
    return this.shown.current;
  }

  /** Off: nothing is recorded, and what waited in memory is dropped. */
  setEnabled(enabled: boolean): void {
    if (enabled === this.enabled) return;
    this.enabled = enabled;
    this.pending = [];
    this.attribution.forget();
    this.options.onDidChange?.();
  }

  /**
   * The branch is cut at the protocol's limit here, where it enters every row: a downloaded folder's
   * 64 KiB `.git/HEAD` would make each row 64 KiB. Cut, not refused: the time still counts.
   */
  setPlace(where: WorkPlace | undefined): void {
    const place = where && { ...where, branch: firstCharacters(where.branch, BRANCH_MAX_LENGTH) };
    if (samePlace(this.place, place)) return;
    this.attribution.setPlace(place);
    this.options.onDidChange?.();
  }

  /** One poll's answer. */
  observe(observation: PollObservation): void {
    if (!this.enabled) return;
    const spans = this.attribution.poll(observation);
    if (spans.length === 0) return;
    for (const span of spans) this.add(span);
    this.options.onDidChange?.();
    const oldest = this.pending[0];
    if (oldest && this.options.now() - oldest.startMs >= (this.options.flushEveryMs ?? FLUSH_EVERY_MS))
      void this.flush();
  }

  /**
   * The window took or lost focus: what waits is written, and a window taking focus owns the time
   * from now. With the ledger off it takes the focus too, and credits nothing: its time is recorded
   * nowhere, not by the window focused before. (With the ledger off and no window's claim in the
   * file, none can be recording: nothing is written.)
   */
  focusChanged(focused: boolean): Promise<void> {
    const atMs = this.options.now();
    return this.write((book) =>
      focused && (this.enabled || book.owners.length > 0) ? claimFocus(book, this.claimant, atMs) : book,
    );
  }

  /**
   * At start: the ledger read, with this window's claims that an earlier extension host of it wrote
   * taken over (written only when there are any), and the focus claimed when the window has it.
   */
  open(focused: boolean): Promise<void> {
    return focused ? this.focusChanged(true) : this.flush();
  }

  /**
   * The extension host shuts down: what waits is written, and, if this window owns the time, it ends here
   * (ledgerOwners.ts leave).
   */
  close(): Promise<void> {
    return this.write((book) => leave(book, this.claimant, this.options.now()));
  }

  /** Writes what waits in memory. */
  flush(): Promise<void> {
    return this.write((book) => book);
  }

  /** Reads the ledger again when another window wrote it since. */
  refresh(): Promise<void> {
    return this.write(undefined);
  }

  /** Clear History: every row of every window goes, what waits here too. */
  clear(): Promise<void> {
    this.pending = [];
    return this.queue(async () => {
      await this.options.store.clear();
      this.book = await this.options.store.read();
    });
  }

  /** Adds a span, joined to the last one when it continues it (the same place and activity). */
  private add(span: Span): void {
    const last = this.pending.at(-1);
    // A new array each time: `current` knows from it that what waits changed.
    const joins =
      last &&
      last.endMs === span.startMs &&
      samePlace(last.place, span.place) &&
      last.activity.activityID === span.activity.activityID;
    this.pending = joins ? [...this.pending.slice(0, -1), { ...last, endMs: span.endMs }] : [...this.pending, span];
  }

  /** Credits what waits and applies `change`, under the store's lock; `undefined`: only read. */
  private write(change: ((book: LedgerBook) => LedgerBook) | undefined): Promise<void> {
    return this.queue(async () => {
      const taken = this.pending;
      if (change === undefined && taken.length === 0) {
        this.book = (await this.options.store.readIfChanged()) ?? this.book;
        return;
      }
      this.pending = [];
      try {
        this.book = await this.options.store.update((book) =>
          (change ?? ((same) => same))(creditSpans(this.seen(book, taken.length > 0), this.claimant, taken)),
        );
      } catch (error) {
        // Kept for the next write, before anything observed meanwhile.
        this.pending = [...taken, ...this.pending];
        throw error;
      }
    });
  }

  /** The book as this window's host finds it when it writes (ledgerOwners.ts asSeenBy). */
  private seen(book: LedgerBook, sawTime: boolean): LedgerBook {
    const { now, maxGapMs } = this.options;
    const { host } = this;
    // Two poll gaps: a restarting host of the owning window takes its claims back well within that.
    return host === undefined
      ? book
      : asSeenBy(book, this.options.windowId, host, { sawTime, nowMs: now(), graceMs: maxGapMs('tracking') });
  }

  /** One read or write at a time, in order; a failure is reported, not thrown. */
  private queue(work: () => Promise<void>): Promise<void> {
    let before: LedgerBook | undefined;
    const next = this.turn
      .then(() => {
        before = this.book;
        return work();
      })
      .then(
        () => {
          this.failing = false;
          // A look that found the file as it was changes nothing: no view or status bar redraws.
          if (this.book !== before) this.options.onDidChange?.();
        },
        (error: unknown) => {
          if (!this.failing) this.options.onError?.(error);
          this.failing = true;
        },
      );
    this.turn = next;
    return next;
  }
}
