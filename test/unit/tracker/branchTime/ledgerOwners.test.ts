/**
 * Who owns the ledger's time when extension hosts restart, die or run twice for one window:
 * the ownership rules with fake process ids and a fake liveness test, then two windows over one
 * store whose background window's host restarts.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Span } from '../../../../src/tracker/branchTime/attribution';
import { BranchLedger } from '../../../../src/tracker/branchTime/branchLedger';
import {
  claimFocus,
  creditSpans,
  EMPTY_BOOK,
  parseBook,
  serializeBook,
} from '../../../../src/tracker/branchTime/ledgerBook';
import { asSeenBy, leave, type Claimant, type HostProcess } from '../../../../src/tracker/branchTime/ledgerOwners';
import { LedgerStore } from '../../../../src/tracker/branchTime/ledgerStore';
import { ledgerWindowId, type IdStorage } from '../../../../src/tracker/branchTime/windowIdentity';
import { dev, MINUTE, place, SECOND, T0, total, tracking } from './ledgerFixtures';

const HOST = 'dev-box';
const span = (branch: string, from: number, to: number): Span => ({
  startMs: from,
  endMs: to,
  place: place(branch, `/repos/${branch}`),
  activity: dev,
});
/** The processes running on HOST, by pid. */
const running = new Set<number>();
const host = (pid: number, name = HOST): HostProcess => ({ pid, host: name, isRunning: (other) => running.has(other) });
const claimant = (window: string, pid: number, name = HOST): Claimant => ({ window, pid, host: name });
const seen = { sawTime: true, nowMs: T0 + 30 * MINUTE, graceMs: MINUTE };
/** A workspace's storage (VS Code's Memento) over a map. */
const storageOf = (kept: Map<string, unknown>): IdStorage => ({
  get: (key) => kept.get(key),
  update: (key, value) => {
    kept.set(key, value);
    return Promise.resolve();
  },
});

describe('tracker/branchTime/ledgerOwners: claims and the extension hosts that wrote them', () => {
  beforeEach(() => {
    running.clear();
  });

  it("lets a restarted host of the same window take its window's claims over", () => {
    running.add(1);
    const book = claimFocus(claimFocus(EMPTY_BOOK, claimant('A', 1), T0), claimant('B', 2), T0 + MINUTE);
    // B's host (pid 2) is gone; B runs again as pid 3.
    const adopted = asSeenBy(book, 'B', host(3), { ...seen, sawTime: false });
    assert.deepEqual(
      adopted.owners.map((owner) => [owner.window, owner.pid]),
      [
        ['A', 1],
        ['B', 3],
      ],
    );
    assert.equal(
      total(creditSpans(adopted, claimant('B', 3), [span('feature', T0 + MINUTE, T0 + 30 * MINUTE)])),
      29 * MINUTE,
    );
    assert.equal(asSeenBy(adopted, 'B', host(3), seen), adopted, 'nothing more to take: the same book');
  });

  it('credits a claim only to the host that wrote it while two hosts of one window id both run (two browser tabs)', () => {
    running.add(1).add(2);
    const book = claimFocus(EMPTY_BOOK, claimant('W', 1), T0);
    assert.equal(asSeenBy(book, 'W', host(2), seen), book, 'the other tab runs: nothing to adopt or take over');
    const spans = [span('main', T0, T0 + 10 * MINUTE)];
    assert.equal(total(creditSpans(book, claimant('W', 2), spans)), 0);
    assert.equal(total(creditSpans(book, claimant('W', 1), spans)), 10 * MINUTE);
  });

  it('gives the time of a window whose host is gone to a live window that saw it, from where the gone one stopped, once the grace has passed', () => {
    running.add(1);
    let book = claimFocus(claimFocus(EMPTY_BOOK, claimant('A', 1), T0), claimant('B', 2), T0 + MINUTE);
    book = creditSpans(book, claimant('B', 2), [span('feature', T0 + MINUTE, T0 + 5 * MINUTE)]);
    // B's window closed at 5 min: it leaves.
    book = leave(book, claimant('B', 2), T0 + 6 * MINUTE);
    assert.equal(book.creditedUntilMs, T0 + 6 * MINUTE);
    assert.equal(
      asSeenBy(book, 'A', host(1), { ...seen, nowMs: T0 + 6 * MINUTE + 30 * SECOND }),
      book,
      'within the grace: a restarting host may still take it back',
    );
    assert.equal(
      asSeenBy(book, 'A', host(1), { ...seen, sawTime: false }),
      book,
      'a window that saw no tracked time takes nothing',
    );
    const taken = asSeenBy(book, 'A', host(1), seen);
    assert.deepEqual(
      taken.owners.map((owner) => [owner.window, owner.sinceMs]),
      [
        ['A', T0],
        ['B', T0 + MINUTE],
        ['A', T0 + 6 * MINUTE],
      ],
    );
    assert.equal(
      total(creditSpans(taken, claimant('A', 1), [span('main', T0 + 5 * MINUTE, T0 + 30 * MINUTE)]), 'main'),
      24 * MINUTE,
    );
  });

  it('counts a claim of another machine, or one without a process, as alive', () => {
    running.add(1);
    const elsewhere = claimFocus(
      claimFocus(EMPTY_BOOK, claimant('A', 1), T0),
      claimant('B', 2, 'other-box'),
      T0 + MINUTE,
    );
    assert.equal(asSeenBy(elsewhere, 'A', host(1), seen), elsewhere);
    assert.equal(asSeenBy(elsewhere, 'B', host(3), seen), elsewhere, 'its own id, but another machine: not adopted');
    const older = claimFocus(claimFocus(EMPTY_BOOK, 'A', T0), 'B', T0 + MINUTE);
    assert.equal(asSeenBy(older, 'A', host(1), seen), older);
  });

  it("takes a claim whose pid is now this host's own, under another window id, for one of a host that is gone (the pid was reused)", () => {
    const book = claimFocus(EMPTY_BOOK, claimant('B', 7), T0);
    assert.deepEqual(
      asSeenBy(book, 'A', host(7), seen).owners.map((owner) => owner.window),
      ['B', 'A'],
    );
  });

  it('leaves the credit mark alone when the window leaving does not own the time', () => {
    const book = claimFocus(claimFocus(EMPTY_BOOK, claimant('A', 1), T0), claimant('B', 2), T0 + MINUTE);
    assert.equal(leave(book, claimant('A', 1), T0 + 5 * MINUTE), book);
  });

  it("reads and writes a claim's process and machine, and leaves out a process of another shape (the claim counts as alive)", () => {
    const book = claimFocus(EMPTY_BOOK, claimant('A', 1), T0);
    const read = parseBook(serializeBook(book));
    assert.ok('book' in read);
    assert.deepEqual(read.book.owners, [{ window: 'A', sinceMs: T0, pid: 1, host: HOST }]);
    const odd = parseBook(
      JSON.stringify({
        ...book,
        owners: [
          { window: 'A', sinceMs: T0, pid: 'one', host: HOST },
          { window: 'B', sinceMs: T0 + 1, pid: -3, host: HOST },
        ],
      }),
    );
    assert.ok('book' in odd);
    assert.deepEqual(odd.book.owners, [
      { window: 'A', sinceMs: T0 },
      { window: 'B', sinceMs: T0 + 1 },
    ]);
  });
});

describe('tracker/branchTime/windowIdentity', () => {
  it("keeps the window's ledger id across activations of one workspace, and makes a new one for anything else kept there", async () => {
    const kept = new Map<string, unknown>();
    const storage = storageOf(kept);
    let made = 0;
    const newId = (): string => `id-${++made}`;
    const first = ledgerWindowId(storage, 'key', newId);
    await Promise.resolve();
    assert.equal(ledgerWindowId(storage, 'key', newId), first);
    kept.set('key', 'x'.repeat(101));
    assert.equal(ledgerWindowId(storage, 'key', newId), 'id-2');
  });
});

describe('tracker/branchTime/BranchLedger: extension hosts that restart', function () {
  // Real locks and synced writes on a shared, slow machine.
  this.timeout(30_000);
  let folder: string;
  let now: number;
  let kept: Map<string, unknown>;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tt-ledger-hosts-'));
    now = T0;
    running.clear();
    kept = new Map();
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  /** A window's extension host: its window id kept in `workspace` (one Map per window), its process `pid`. */
  const activate = (workspace: Map<string, unknown>, pid: number, branch: string): BranchLedger => {
    running.add(pid);
    const ledger = new BranchLedger({
      store: new LedgerStore(folder, { now: () => now, keepDays: () => 90 }),
      windowId: ledgerWindowId(storageOf(workspace), 'timeTracker.branchTimeWindow', () => `window-${pid}`),
      host: host(pid),
      now: () => now,
      maxGapMs: () => 30 * SECOND,
      // Written when the test flushes: the same credits in fewer synced writes.
      flushEveryMs: 24 * 60 * MINUTE,
    });
    ledger.setPlace(place(branch, `/repos/${branch}`));
    return ledger;
  };
  const track = async (untilMs: number, ...ledgers: BranchLedger[]): Promise<void> => {
    for (; now <= untilMs; now += 5 * SECOND) for (const ledger of ledgers) ledger.observe(tracking);
    now -= 5 * SECOND;
    // In the order given: the first window writes first.
    for (const ledger of ledgers) await ledger.flush();
  };
  const stop = async (ledger: BranchLedger, pid: number): Promise<void> => {
    await ledger.close();
    running.delete(pid);
  };

  it('keeps the 30 minutes after the host of the background window that owns the time restarted', async () => {
    const a = activate(new Map(), 1, 'main');
    const b = activate(kept, 2, 'feature');
    await a.focusChanged(true);
    await b.focusChanged(true);
    // The user works in another program; B owns the time. B's extension host restarts.
    await b.focusChanged(false);
    await stop(b, 2);
    const restarted = activate(kept, 3, 'feature');
    await restarted.open(false);
    now += 5 * SECOND;
    await track(now + 30 * MINUTE, a, restarted);
    await a.refresh();
    assert.equal(total(a.current, 'feature'), 30 * MINUTE);
    assert.equal(total(a.current, 'main'), 0);
  });

  it('counts the time once while two hosts of one window id run (two browser tabs of one folder), and the one left takes it over', async () => {
    const first = activate(kept, 1, 'main');
    const second = activate(kept, 2, 'main');
    await first.focusChanged(true);
    await track(T0 + 10 * MINUTE, first, second);
    await first.refresh();
    assert.equal(total(first.current), 10 * MINUTE, 'once, not twice');
    await stop(first, 1);
    now += 5 * SECOND;
    await track(now + 10 * MINUTE, second);
    await second.refresh();
    // The 5 s between the two stretches too: the second tab saw them, and owns them once it took the first's claim.
    assert.equal(total(second.current), 20 * MINUTE + 5 * SECOND);
  });

  it('gives the time of a window closed while it owned it to a live window that saw it, after two poll gaps at most', async () => {
    const a = activate(new Map(), 1, 'main');
    const b = activate(kept, 2, 'feature');
    await b.focusChanged(true);
    await track(T0 + 5 * MINUTE, a, b);
    await stop(b, 2);
    const closedAt = now;
    // A writes every minute, as it does while tracking.
    for (let minute = 1; minute <= 30; minute++) await track(closedAt + minute * MINUTE, a);
    await a.refresh();
    assert.equal(total(a.current, 'feature'), 5 * MINUTE);
    const main = total(a.current, 'main');
    assert.ok(
      main <= 30 * MINUTE && main >= 30 * MINUTE - 2 * MINUTE,
      `${main / SECOND} s of the 30 minutes after B closed`,
    );
  });
});
