/**
 * Who a claim of the focus names (./ledgerBook.ts): a window's ledger id, which it keeps across
 * activations (./windowIdentity.ts), and the extension host that wrote the claim, by its process
 * id and the machine it runs on. A window's extension host may restart while the window stays (an
 * extension updated, a crash, a remote reconnect): the restarted host is the same window and takes
 * its claims over. Two hosts of one window id alive at once (two browser tabs of one folder in
 * code-server) are two windows: a claim counts for the host that wrote it. A claim whose host is
 * gone from this machine loses the time to a live window that saw it, from where the gone one
 * stopped. Liveness is asked only when a window writes anyway: nothing beats in the background.
 *
 * A claim without a process (its window could not read the machine's id), or of another machine
 * (a home folder shared over the network), counts as alive: nothing here can tell otherwise.
 */

/**
 * What of the book (./ledgerBook.ts) the claims read and change; the book's other fields pass
 * through untouched, so the book's file depends on this one and not the other way round.
 */
export interface OwnedBook {
  /** Oldest first; the last one owns the time now. */
  readonly owners: readonly FocusOwner[];
  /** The end of the latest span any window credited (or where an owner that left stopped). */
  readonly creditedUntilMs: number;
}

/** A window as its claims name it. */
export interface Claimant {
  readonly window: string;
  /** The extension host's process id. */
  readonly pid?: number;
  /** The machine `pid` runs on: its id (src/platform/machine.ts), as the file locks record it. */
  readonly host?: string;
}

export interface FocusOwner extends Claimant {
  readonly sinceMs: number;
}

/** This window's extension host, and how to tell whether another one still runs. */
export interface HostProcess {
  readonly pid: number;
  /** This machine's id. */
  readonly host: string;
  /** Whether a process runs on this machine (src/platform/processes.ts). */
  readonly isRunning: (pid: number) => boolean;
}

export function claimantOf(window: string | Claimant): Claimant {
  return typeof window === 'string' ? { window } : window;
}

export function ownerEntry(claimant: Claimant, sinceMs: number): FocusOwner {
  const { window, pid, host } = claimant;
  return { window, sinceMs, ...(pid === undefined ? {} : { pid }), ...(host === undefined ? {} : { host }) };
}

/** The same window and the same extension host. */
export function sameClaimant(a: Claimant, b: Claimant): boolean {
  return a.window === b.window && a.pid === b.pid && a.host === b.host;
}

/** Whether `owner` is a claim of `claimant`: its window, and its host unless either names none. */
function claimedBy(owner: FocusOwner, claimant: Claimant): boolean {
  if (owner.window !== claimant.window) return false;
  return (
    owner.pid === undefined ||
    claimant.pid === undefined ||
    (owner.pid === claimant.pid && owner.host === claimant.host)
  );
}

/** The stretches [from, to) in which `claimant` owned the time. */
export function ownedStretches(owners: readonly FocusOwner[], claimant: Claimant): [number, number][] {
  const stretches: [number, number][] = [];
  owners.forEach((owner, index) => {
    if (claimedBy(owner, claimant))
      stretches.push([owner.sinceMs, owners[index + 1]?.sinceMs ?? Number.POSITIVE_INFINITY]);
  });
  return stretches;
}

/**
 * Whether the host that wrote `owner` is gone, as `self` can tell: only on its own machine, and
 * a pid that is now its own under another window id is a process that ended (the pid was reused).
 */
function gone(owner: FocusOwner, self: HostProcess, window: string): boolean {
  if (owner.pid === undefined || owner.host !== self.host) return false;
  if (owner.pid === self.pid) return owner.window !== window;
  return !self.isRunning(owner.pid);
}

/**
 * The book as this window finds it when it writes: its window's claims of a host that is gone are
 * its own again (a restarted host is the same window); and, when it has seen tracked time to
 * credit, a last claim whose host is gone passes to it, from where that host's window stopped
 * (the end of what is credited), once that is `graceMs` ago: long enough for a restarting host to
 * take its own claims back first.
 */
export function asSeenBy<Book extends OwnedBook>(
  book: Book,
  window: string,
  self: HostProcess,
  options: { readonly sawTime: boolean; readonly nowMs: number; readonly graceMs: number },
): Book {
  const claimant: Claimant = { window, pid: self.pid, host: self.host };
  const adopted = book.owners.some((owner) => owner.window === window && gone(owner, self, window));
  const owners = adopted
    ? book.owners.map((owner) =>
        owner.window === window && gone(owner, self, window) ? ownerEntry(claimant, owner.sinceMs) : owner,
      )
    : book.owners;
  const last = owners.at(-1);
  const fromMs = last === undefined ? 0 : Math.max(last.sinceMs, book.creditedUntilMs);
  const takeOver =
    options.sawTime &&
    last !== undefined &&
    !claimedBy(last, claimant) &&
    gone(last, self, window) &&
    options.nowMs - fromMs >= options.graceMs;
  if (!adopted && !takeOver) return book;
  return { ...book, owners: takeOver ? [...owners, ownerEntry(claimant, fromMs)] : owners };
}

/**
 * A window leaving (its host shuts down) while it owns the time: what is credited ends now, so
 * the window that takes its time over starts here, not at a second it still owned.
 */
export function leave<Book extends OwnedBook>(book: Book, claimant: Claimant, nowMs: number): Book {
  const last = book.owners.at(-1);
  if (last === undefined || !claimedBy(last, claimant) || book.creditedUntilMs >= nowMs) return book;
  return { ...book, creditedUntilMs: nowMs };
}

/**
 * An owner as the file holds it, or undefined for another shape; a process id or host of another shape is left out (the
 * claim then counts as alive).
 */
export function ownerOf(value: unknown): FocusOwner | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { window, sinceMs, pid, host } = value as Record<string, unknown>;
  if (typeof window !== 'string' || typeof sinceMs !== 'number' || !Number.isFinite(sinceMs)) return undefined;
  const process =
    typeof pid === 'number' && Number.isSafeInteger(pid) && pid > 0 && typeof host === 'string' ? { pid, host } : {};
  return ownerEntry({ window, ...process }, sinceMs);
}
