import assert from 'node:assert/strict';
import { WindowAttribution, type LedgerActivity, type PollObservation, type Span, type WorkPlace } from '../../../../src/tracker/ledger/attribution';
import { claimFocus, creditSpans, EMPTY_BOOK, type LedgerBook } from '../../../../src/tracker/ledger/ledgerBook';

const SECOND = 1000;
const POLL = 5 * SECOND;
const UNFOCUSED_POLL = 15 * SECOND;
const MAX_GAP = 2 * UNFOCUSED_POLL;
const T0 = new Date(2026, 10, 25, 9, 0, 0).getTime();

const dev: LedgerActivity = { activityID: 'A1', activityName: 'Development' };
const place = (branch: string, root = '/repos/api'): WorkPlace => ({ root, repository: root.split('/').at(-1)!, branch });
const tracking = (activity = dev, onBreak = false, startedAtMs?: number): PollObservation => ({ kind: 'tracking', activity, onBreak, startedAtMs });
const idle: PollObservation = { kind: 'idle' };

function total(spans: readonly Span[]): number {
  return spans.reduce((sum, span) => sum + span.endMs - span.startMs, 0);
}

function bookTotal(book: LedgerBook, branch?: string): number {
  return book.rows.filter((row) => branch === undefined || row.branch === branch).reduce((sum, row) => sum + row.ms, 0);
}

/** One window with a manual clock, polling the same answer every `interval` for `ms`. */
function windowAt(startMs: number) {
  let now = startMs;
  const attribution = new WindowAttribution({ now: () => now, maxGapMs: () => MAX_GAP });
  return {
    attribution,
    at: (ms: number) => (now = ms),
    pollEvery(interval: number, untilMs: number, observation: PollObservation): Span[] {
      const spans: Span[] = [];
      for (; now <= untilMs; now += interval) spans.push(...attribution.poll(observation));
      now -= interval;
      return spans;
    },
  };
}

describe('tracker/ledger/WindowAttribution', () => {
  it('counts the time between two polls that both saw an activity running, on the branch the window is on', () => {
    const window = windowAt(T0);
    window.attribution.setPlace(place('main'));
    const spans = window.pollEvery(POLL, T0 + 60 * SECOND, tracking());
    assert.equal(total(spans), 60 * SECOND);
    assert.ok(spans.every((span) => span.place.branch === 'main' && span.activity.activityName === 'Development'));
  });

  it('allows the longer gap of a window polling slowly while idle, and only after an idle poll', () => {
    let now = T0;
    const gaps: PollObservation['kind'][] = [];
    const attribution = new WindowAttribution({
      now: () => now,
      maxGapMs: (previous) => {
        gaps.push(previous);
        return previous === 'idle' ? 2 * 60 * SECOND : MAX_GAP;
      },
    });
    attribution.setPlace(place('main'));
    attribution.poll(idle);
    // A window nobody used, polling once a minute while idle: the app started 50 s after that poll, seen 90 s after it.
    now = T0 + 90 * SECOND;
    const started = attribution.poll(tracking(dev, false, T0 + 50 * SECOND));
    assert.equal(total(started), 40 * SECOND, 'counted from the start the app gave');
    // While tracking the shorter gap holds: 90 s without a poll is time the window did not see.
    now += 90 * SECOND;
    assert.deepEqual(attribution.poll(tracking()), []);
    assert.deepEqual(gaps, ['idle', 'tracking']);
  });

  it('counts nothing during a break, and nothing for the poll interval in which it began or ended', () => {
    const window = windowAt(T0);
    window.attribution.setPlace(place('main'));
    const before = window.pollEvery(POLL, T0 + 60 * SECOND, tracking());
    window.at(T0 + 65 * SECOND);
    const during = window.pollEvery(POLL, T0 + 300 * SECOND, tracking(dev, true));
    window.at(T0 + 305 * SECOND);
    const after = window.pollEvery(POLL, T0 + 365 * SECOND, tracking());
    assert.equal(total(before), 60 * SECOND);
    assert.equal(total(during), 0);
    assert.equal(total(after), 60 * SECOND);
  });

  it('counts nothing while the app does not answer (a restart), and counts again from the second answer after', () => {
    const window = windowAt(T0);
    window.attribution.setPlace(place('main'));
    window.pollEvery(POLL, T0 + 30 * SECOND, tracking());
    window.at(T0 + 35 * SECOND);
    const down = window.pollEvery(POLL, T0 + 50 * SECOND, { kind: 'unknown' });
    window.at(T0 + 55 * SECOND);
    const back = window.pollEvery(POLL, T0 + 75 * SECOND, tracking());
    assert.equal(total(down), 0);
    assert.equal(total(back), 20 * SECOND, 'from the first answer after the restart, not from before it');
  });

  it('does not fill a sleep gap longer than two poll intervals', () => {
    const window = windowAt(T0);
    window.attribution.setPlace(place('main'));
    const before = window.pollEvery(POLL, T0 + 30 * SECOND, tracking());
    window.at(T0 + 30 * SECOND + 3600 * SECOND);
    const woke = window.attribution.poll(tracking());
    window.at(T0 + 3640 * SECOND);
    const after = window.attribution.poll(tracking());
    assert.equal(total(before), 30 * SECOND);
    assert.equal(total(woke), 0, 'the hour asleep is not counted');
    assert.equal(total(after), 10 * SECOND);
  });

  it('splits a poll interval at a branch switch in its middle', () => {
    const window = windowAt(T0);
    window.attribution.setPlace(place('main'));
    window.attribution.poll(tracking());
    window.at(T0 + 2 * SECOND);
    window.attribution.setPlace(place('feature/PROJ-1'));
    window.at(T0 + POLL);
    const spans = window.attribution.poll(tracking());
    assert.deepEqual(
      spans.map((span) => [span.place.branch, span.endMs - span.startMs]),
      [
        ['main', 2 * SECOND],
        ['feature/PROJ-1', 3 * SECOND],
      ],
    );
  });

  it('keeps the branch through a rebase: no switch reaches it, so every second stays on the branch', () => {
    // The branch watcher reports no switch while a rebase runs (src/git/headState.ts decideSwitch);
    // the window hands the ledger only what it reports, so the place never changes.
    const window = windowAt(T0);
    window.attribution.setPlace(place('feature/PROJ-1'));
    const spans = window.pollEvery(POLL, T0 + 120 * SECOND, tracking());
    window.attribution.setPlace(place('feature/PROJ-1'));
    assert.equal(total(spans), 120 * SECOND);
    assert.deepEqual([...new Set(spans.map((span) => span.place.branch))], ['feature/PROJ-1']);
  });

  it('counts from the start the app gave when the poll before saw it idle', () => {
    const window = windowAt(T0);
    window.attribution.setPlace(place('main'));
    window.attribution.poll(idle);
    window.at(T0 + POLL);
    const spans = window.attribution.poll(tracking(dev, false, T0 + 2 * SECOND));
    assert.equal(total(spans), 3 * SECOND);
  });

  it('counts nothing on no place (no folder open)', () => {
    const window = windowAt(T0);
    const spans = window.pollEvery(POLL, T0 + 30 * SECOND, tracking());
    assert.equal(total(spans), 0);
  });
});

describe('tracker/ledger: two windows sharing one book', () => {
  /**
   * Two windows on two branches trade focus every 7 minutes for an hour of the app's tracked time;
   * the focused window polls every 5 s, the other every 15 s (src/tracker/model/poller.ts).
   */
  it("add up to the app's tracked time within one poll interval, each branch getting its window's stretches", () => {
    const appStart = T0 + 1_700;
    const appEnd = appStart + 3600 * SECOND;
    const app = (ms: number): PollObservation => (ms >= appStart && ms < appEnd ? tracking(dev, false, appStart) : idle);
    const switches = Array.from({ length: 9 }, (_, index) => T0 + 300 * SECOND + index * 420 * SECOND);
    const focusedAt = (ms: number): 'A' | 'B' => (switches.filter((at) => at <= ms).length % 2 === 0 ? 'A' : 'B');
    const windows = { A: new Sim('A', 'main', T0), B: new Sim('B', 'feature/PROJ-7', T0 + 2_300) };
    let book = claimFocus(EMPTY_BOOK, 'A', T0);
    for (let now = T0; now <= appEnd + 60 * SECOND; now += 100) {
      if (switches.includes(now)) book = claimFocus(book, focusedAt(now), now);
      for (const sim of Object.values(windows)) {
        if (now < sim.nextPollMs) continue;
        sim.now = now;
        book = creditSpans(book, sim.id, sim.attribution.poll(app(now)));
        sim.nextPollMs = now + (focusedAt(now) === sim.id ? POLL : UNFOCUSED_POLL);
      }
    }
    const tracked = appEnd - appStart;
    const counted = bookTotal(book);
    assert.ok(counted <= tracked, `counted ${counted} ms of ${tracked}: never more than the app tracked`);
    assert.ok(tracked - counted <= POLL, `counted ${counted} ms of ${tracked}: within one poll interval`);
    const owned = (id: 'A' | 'B'): number => {
      let ms = 0;
      for (let at = appStart; at < appEnd; at += 100) if (focusedAt(at) === id) ms += 100;
      return ms;
    };
    assert.ok(Math.abs(bookTotal(book, 'main') - owned('A')) <= POLL);
    assert.ok(Math.abs(bookTotal(book, 'feature/PROJ-7') - owned('B')) <= POLL);
  });

  it('gives the time to the window that last had focus while none has it, and never counts a credited second again', () => {
    let book = claimFocus(EMPTY_BOOK, 'A', T0);
    const span = (branch: string, from: number, to: number): Span => ({ startMs: from, endMs: to, place: place(branch), activity: dev });
    book = creditSpans(book, 'A', [span('main', T0, T0 + 60 * SECOND)]);
    // B took focus at T0 + 50 s, recorded only after A had credited up to T0 + 60 s.
    book = claimFocus(book, 'B', T0 + 50 * SECOND);
    book = creditSpans(book, 'B', [span('feature/PROJ-7', T0 + 45 * SECOND, T0 + 90 * SECOND)]);
    book = creditSpans(book, 'A', [span('main', T0 + 60 * SECOND, T0 + 90 * SECOND)]);
    assert.equal(bookTotal(book, 'main'), 60 * SECOND);
    assert.equal(bookTotal(book, 'feature/PROJ-7'), 30 * SECOND);
  });

  it('keeps the time with the window that took focus last when an earlier focus is written after it', () => {
    const span = (branch: string, from: number, to: number): Span => ({ startMs: from, endMs: to, place: place(branch), activity: dev });
    let book = claimFocus(EMPTY_BOOK, 'A', T0);
    // B took focus at 10 s and A took it back at 20 s; B's write waited behind its own, so A's
    // claim (a no-op: A owned already) is on disk first, then B's, older, one.
    book = claimFocus(book, 'A', T0 + 20 * SECOND);
    book = claimFocus(book, 'B', T0 + 10 * SECOND);
    // Then B moved on to a third window C at 30 s, and C's claim landed before a late one of A's at 25 s.
    book = claimFocus(book, 'C', T0 + 30 * SECOND);
    book = claimFocus(book, 'A', T0 + 25 * SECOND);
    book = creditSpans(book, 'A', [span('main', T0, T0 + 60 * SECOND)]);
    book = creditSpans(book, 'B', [span('feature/PROJ-7', T0, T0 + 60 * SECOND)]);
    book = creditSpans(book, 'C', [{ ...span('docs', T0, T0 + 60 * SECOND), place: place('docs', '/repos/docs') }]);
    // A: 0-10 s and 20-30 s (its claim at 25 s changes nothing); B: 10-20 s; C: from 30 s on.
    assert.equal(bookTotal(book, 'main'), 20 * SECOND);
    assert.equal(bookTotal(book, 'feature/PROJ-7'), 10 * SECOND);
    assert.equal(bookTotal(book, 'docs'), 30 * SECOND);
  });

  it('drops a late focus claim for time another window has already credited', () => {
    const span = (branch: string, from: number, to: number): Span => ({ startMs: from, endMs: to, place: place(branch), activity: dev });
    let book = claimFocus(EMPTY_BOOK, 'A', T0);
    book = claimFocus(book, 'C', T0 + 20 * SECOND);
    book = creditSpans(book, 'A', [span('main', T0, T0 + 20 * SECOND)]);
    book = creditSpans(book, 'C', [span('docs', T0 + 20 * SECOND, T0 + 40 * SECOND)]);
    // B's focus at 10 s lands now: A has credited up to 20 s, C owns from there.
    book = claimFocus(book, 'B', T0 + 10 * SECOND);
    book = creditSpans(book, 'B', [span('feature/PROJ-7', T0, T0 + 60 * SECOND)]);
    assert.equal(bookTotal(book, 'feature/PROJ-7'), 0);
    assert.deepEqual(
      book.owners.map((owner) => owner.window),
      ['A', 'C'],
    );
  });
});

/** A window in the simulation: its attribution on its own branch, its clock the shared one. */
class Sim {
  now: number;
  nextPollMs: number;
  readonly attribution: WindowAttribution;
  constructor(
    readonly id: 'A' | 'B',
    branch: string,
    firstPollMs: number,
  ) {
    this.now = firstPollMs;
    this.nextPollMs = firstPollMs;
    this.attribution = new WindowAttribution({ now: () => this.now, maxGapMs: () => MAX_GAP });
    this.attribution.setPlace(place(branch, `/repos/${id}`));
  }
}
