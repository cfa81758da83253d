import assert from 'node:assert/strict';
import {
  WindowAttribution,
  type LedgerActivity,
  type PollObservation,
  type Span,
} from '../../../../src/tracker/branchTime/attribution';
import { claimFocus, creditSpans, EMPTY_BOOK, type LedgerBook } from '../../../../src/tracker/branchTime/ledgerBook';
import { dev, place, SECOND, span, T0 } from './ledgerFixtures';

const POLL = 5 * SECOND;
const UNFOCUSED_POLL = 15 * SECOND;
const MAX_GAP = 2 * UNFOCUSED_POLL;

const tracking = (activity = dev, onBreak = false, startedAtMs?: number): PollObservation => ({
  kind: 'tracking',
  activity,
  onBreak,
  startedAtMs,
});
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

describe('tracker/branchTime/WindowAttribution', () => {
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

  describe('a change between two polls: only what the app says ran in the stretch', () => {
    const review: LedgerActivity = { activityID: 'B2', activityName: 'Review' };
    /**
     * One poll of `first` at T0, then one of `second` 59 s later (two polls a minute apart may count): what the stretch
     * counts, by activity.
     */
    function stretch(first: PollObservation, second: PollObservation): [string, number][] {
      let now = T0;
      const attribution = new WindowAttribution({ now: () => now, maxGapMs: () => 2 * 60 * SECOND });
      attribution.setPlace(place('main'));
      attribution.poll(first);
      now = T0 + 59 * SECOND;
      return attribution.poll(second).map((span) => [span.activity.activityName, span.endMs - span.startMs]);
    }

    it('gives another activity the time from the start the app gave, and the one before nothing (its stop is not said)', () => {
      // A stopped at 0:01, B started at 0:54, polled at 0:59.
      assert.deepEqual(stretch(tracking(dev, false, T0 - 600 * SECOND), tracking(review, false, T0 + 54 * SECOND)), [
        ['Review', 5 * SECOND],
      ]);
    });

    it('counts nothing for the stretch when the activity changed and the app gave no start, nor after a poll without an answer', () => {
      assert.deepEqual(stretch(tracking(dev), tracking(review)), []);
      assert.deepEqual(stretch(tracking(dev, false, T0 - 600 * SECOND), tracking(review)), []);
      assert.deepEqual(stretch({ kind: 'unknown' }, tracking(review, false, T0 + 54 * SECOND)), []);
      assert.deepEqual(stretch({ kind: 'unknown' }, tracking(dev, false, T0 - 600 * SECOND)), []);
    });

    it('counts a restart of the same activity from its new start, and the same session whole', () => {
      const before = tracking(dev, false, T0 - 600 * SECOND);
      assert.deepEqual(
        stretch(before, tracking(dev, false, T0 + 54 * SECOND)),
        [['Development', 5 * SECOND]],
        'stopped and started again in between',
      );
      assert.deepEqual(
        stretch(before, tracking(dev, false, T0 - 600 * SECOND)),
        [['Development', 59 * SECOND]],
        'the same start',
      );
      assert.deepEqual(
        stretch(before, tracking(dev)),
        [['Development', 59 * SECOND]],
        'no start said: the same session as far as known',
      );
      assert.deepEqual(
        stretch(tracking(dev), tracking({ activityID: 'a1', activityName: 'Development' })),
        [['Development', 59 * SECOND]],
        'the id in another letter case',
      );
      // A start in the future (a clock off) said by both answers is still the same session.
      assert.deepEqual(stretch(tracking(dev, false, T0 + 120 * SECOND), tracking(dev, false, T0 + 120 * SECOND)), [
        ['Development', 59 * SECOND],
      ]);
    });

    it('never counts more than the stretch (nor the bounded gap) for a start the app gives after now or before the first poll', () => {
      assert.deepEqual(stretch(tracking(dev), tracking(review, false, T0 + 120 * SECOND)), [], 'a start after now');
      assert.deepEqual(
        stretch(tracking(dev, false, T0 + 30 * SECOND), tracking(dev, false, T0 + 60 * SECOND)),
        [],
        'a restart after now',
      );
      // The app's start comes in whole seconds and through the offset of its clock: a start just
      // after the first poll may be said as a moment before it. The stretch at most, to what runs.
      assert.deepEqual(
        stretch(tracking(dev), tracking(review, false, T0 - SECOND)),
        [['Review', 59 * SECOND]],
        'another activity, started before the first poll',
      );
      assert.deepEqual(
        stretch(idle, tracking(review, false, T0 - SECOND)),
        [['Review', 59 * SECOND]],
        'after an idle poll',
      );
      assert.deepEqual(
        stretch(tracking(dev), tracking(review, false, T0 - 3600 * SECOND)),
        [['Review', 59 * SECOND]],
        'an hour before',
      );
      // Nor more than the bounded gap: polls further apart vouch for nothing between them.
      const window = windowAt(T0);
      window.attribution.setPlace(place('main'));
      window.attribution.poll(tracking());
      window.at(T0 + MAX_GAP + SECOND);
      assert.deepEqual(window.attribution.poll(tracking(review, false, T0 + SECOND)), []);
    });

    it('counts a session started after a poll that saw a break, and nothing for a break that ended in the stretch', () => {
      const onBreak = tracking(dev, true, T0 - 600 * SECOND);
      // Starting clears the break: the new session ran from its start, not on a break.
      assert.deepEqual(stretch(onBreak, tracking(review, false, T0 + 54 * SECOND)), [['Review', 5 * SECOND]]);
      assert.deepEqual(stretch(onBreak, tracking(dev, false, T0 + 54 * SECOND)), [['Development', 5 * SECOND]]);
      // When the break ended is not said.
      assert.deepEqual(stretch(onBreak, tracking(dev, false, T0 - 600 * SECOND)), []);
      assert.deepEqual(stretch(onBreak, tracking(review, false, T0 - 600 * SECOND)), []);
      assert.deepEqual(stretch(onBreak, tracking(dev)), []);
      // When a break began is not said either; one the app reports for a new session counts nothing.
      assert.deepEqual(stretch(tracking(dev), tracking(review, true, T0 + 54 * SECOND)), []);
      assert.deepEqual(stretch(tracking(dev), { kind: 'idle' }), []);
    });
  });

  it('counts nothing on no place (no folder open)', () => {
    const window = windowAt(T0);
    const spans = window.pollEvery(POLL, T0 + 30 * SECOND, tracking());
    assert.equal(total(spans), 0);
  });
});

describe('tracker/branchTime: two windows sharing one book', () => {
  /**
   * Two windows on two branches trade focus every 7 minutes for an hour of the app's tracked time;
   * the focused window polls every 5 s, the other every 15 s (src/tracker/model/poller.ts).
   */
  it("add up to the app's tracked time within one poll interval, each branch getting its window's stretches", () => {
    const appStart = T0 + 1_700;
    const appEnd = appStart + 3600 * SECOND;
    const app = (ms: number): PollObservation =>
      ms >= appStart && ms < appEnd ? tracking(dev, false, appStart) : idle;
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
    book = creditSpans(book, 'A', [span('main', T0, T0 + 60 * SECOND)]);
    // B took focus at T0 + 50 s, recorded only after A had credited up to T0 + 60 s.
    book = claimFocus(book, 'B', T0 + 50 * SECOND);
    book = creditSpans(book, 'B', [span('feature/PROJ-7', T0 + 45 * SECOND, T0 + 90 * SECOND)]);
    book = creditSpans(book, 'A', [span('main', T0 + 60 * SECOND, T0 + 90 * SECOND)]);
    assert.equal(bookTotal(book, 'main'), 60 * SECOND);
    assert.equal(bookTotal(book, 'feature/PROJ-7'), 30 * SECOND);
  });

  it('keeps the time with the window that took focus last when an earlier focus is written after it', () => {
    const span = (branch: string, from: number, to: number): Span => ({
      startMs: from,
      endMs: to,
      place: place(branch),
      activity: dev,
    });
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
    const span = (branch: string, from: number, to: number): Span => ({
      startMs: from,
      endMs: to,
      place: place(branch),
      activity: dev,
    });
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
