/**
 * The activity picker's search as the user types: one request after a pause in typing, never two on
 * the wire at once, and none at all while `maySearch` says no (the app rejected the token or locks
 * us out: each search would be one more failed sign-in). A search on the wire is never aborted for a
 * newer query: the app counts an aborted request all the same. Each answer is
 * kept for the search's life (the picker's), so a query typed again is answered without a request.
 * Timers are injected, so tests drive it without waiting.
 */
import { boundedTimers, type Timers } from '../../platform/timers';

export interface DebouncedSearchOptions<T> {
  /** The pause in typing after which the newest query is searched. */
  readonly delayMs: number;
  /** One search; `signal` aborts it when the search is disposed (the picker closed). */
  readonly search: (query: string, signal: AbortSignal) => Promise<T>;
  /** Asked each time a search for `query` would go out: false sends nothing. */
  readonly maySearch: (query: string) => boolean;
  /** The answer for the query still typed; answers for older queries are dropped. */
  readonly onAnswer: (query: string, answer: T) => void;
  /** A search failed (not by `dispose`). */
  readonly onError: (query: string, error: unknown) => void;
  /** Whether a search is on the wire. */
  readonly onBusy?: (busy: boolean) => void;
  /** Queries with the same key have the same answer (default: the query itself). */
  readonly keyOf?: (query: string) => string;
  readonly timers?: Timers;
}

export class DebouncedSearch<T> {
  private readonly timers: Timers;
  private readonly aborter = new AbortController();
  private timer: unknown;
  /** The newest query typed. */
  private latest: string | undefined;
  private onTheWire = false;
  /** A query whose pause ended while another search was on the wire: it goes after that one. */
  private next: string | undefined;
  private disposed = false;
  /** Every answer so far, by the query's key. */
  private readonly answers = new Map<string, T>();

  constructor(private readonly options: DebouncedSearchOptions<T>) {
    this.timers = boundedTimers(options.timers);
  }

  /** The answer an earlier search gave for `query`, if any. */
  answered(query: string): T | undefined {
    return this.answers.get(this.keyOf(query));
  }

  /**
   * The user typed `query`: it is searched once typing pauses for `delayMs`; a query searched
   * before is answered at once from what that search answered, and nothing goes out.
   */
  typed(query: string): void {
    if (this.disposed) return;
    this.latest = query;
    this.cancelTimer();
    if (this.fromEarlier(query)) return;
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.due(query);
    }, this.options.delayMs);
  }

  /** Searches `query` without waiting for a pause (the picker opening); still one on the wire at most. */
  searchNow(query: string): void {
    if (this.disposed) return;
    this.latest = query;
    this.cancelTimer();
    if (this.fromEarlier(query)) return;
    this.due(query);
  }

  /** Stops: no more searches, the one on the wire is aborted, nothing more is reported. */
  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
    this.aborter.abort();
  }

  /** Answers `query` from an earlier answer, if there is one; a query waiting for the wire is then not sent. */
  private fromEarlier(query: string): boolean {
    const earlier = this.answered(query);
    if (earlier === undefined) return false;
    this.next = undefined;
    this.options.onAnswer(query, earlier);
    return true;
  }

  private keyOf(query: string): string {
    return this.options.keyOf?.(query) ?? query;
  }

  private due(query: string): void {
    if (this.onTheWire) this.next = query;
    else void this.start(query);
  }

  /** Sends the search for `query` unless it may not; says whether it did. */
  private start(query: string): boolean {
    if (!this.options.maySearch(query)) return false;
    this.onTheWire = true;
    this.options.onBusy?.(true);
    void this.options
      .search(query, this.aborter.signal)
      .then(
        (answer) => {
          // Kept also when typing went on: the query may be typed again.
          this.answers.set(this.keyOf(query), answer);
          if (!this.disposed && query === this.latest) this.options.onAnswer(query, answer);
        },
        (error: unknown) => {
          if (!this.disposed) this.options.onError(query, error);
        },
      )
      .finally(() => this.settled());
    return true;
  }

  /** The search on the wire is done: the query that waited goes now, unless newer typing still pauses. */
  private settled(): void {
    this.onTheWire = false;
    const next = this.next;
    this.next = undefined;
    if (this.disposed) return;
    // The one out may have been for the very query that waited: its answer is shown already.
    const again =
      next !== undefined && this.timer === undefined && this.answered(next) === undefined && this.start(next);
    if (!again) this.options.onBusy?.(false);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
