import assert from 'node:assert/strict';
import { clockTime } from '../../../../src/tracker/duration';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';
import type { Presentation, StatusBarInputs } from '../../../../src/tracker/statusBar/factTypes';
import { longSessionFacts } from '../../../../src/tracker/statusBar/longSessionFacts';
import { statusBarItem } from '../../../../src/tracker/statusBar/statusBarItem';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** 08:03 on this machine's calendar, whatever its time zone: the tooltip says the local time. */
const STARTED = new Date(2026, 11, 4, 8, 3).getTime();
const activity = { activityID: 'a1', activityName: 'Write docs' };
const tracking: Extract<TrackerState, { kind: 'tracking' }> = {
  kind: 'tracking',
  activity,
  onBreak: false,
  startedAtMs: STARTED,
  appClockOffsetMs: 0,
  todaySeconds: 0,
  observedAtMs: STARTED,
  seenSinceMs: STARTED,
};
const inputs: StatusBarInputs = {
  nowMs: STARTED,
  showTodayTotal: true,
  maxNameLength: 40,
  route: { kind: 'http', port: 40001 },
  longSessionHours: 8,
  longSession: longSessionFacts,
};

/** The item at `nowMs` (the clock the item is drawn by). */
const shown = (state: TrackerState, nowMs: number, more: Partial<StatusBarInputs> = {}): Presentation =>
  statusBarItem(state, { ...inputs, nowMs, ...more });
/** The commands the tooltip's links run, in the order it offers them. */
const commandsOf = (tooltip: string): string[] =>
  [...tooltip.matchAll(/\(command:timeTracker\.(\w+)\)/g)].map((match) => match[1] ?? '');

describe('tracker/statusBar/longSessionFacts', () => {
  it('turns the warning tone at the threshold, and plans a draw for that moment before it', () => {
    const before = shown(tracking, STARTED + 8 * HOUR - MINUTE);
    assert.equal(before.tone, 'normal');
    assert.doesNotMatch(before.tooltip, /Running/);
    const early = shown(tracking, STARTED + 3 * HOUR + 30_000, { format: undefined });
    assert.ok((early.changesAtMs ?? Infinity) <= STARTED + 8 * HOUR, 'a draw at the threshold at the latest');
    // With no time that counts on by itself, the threshold is the one moment the item is drawn again.
    const unsaid = { ...tracking, startedAtMs: undefined, todaySeconds: undefined };
    assert.equal(shown(unsaid, STARTED + HOUR).changesAtMs, STARTED + 8 * HOUR);
    const at = shown(tracking, STARTED + 8 * HOUR);
    assert.equal(at.tone, 'warning');
    assert.equal(shown(tracking, STARTED + 9 * HOUR + 12 * MINUTE + 59_000).tone, 'warning');
  });

  it("says since when from the app's start, the headline how long, with Stop the tooltip's first command", () => {
    const item = shown(tracking, STARTED + 9 * HOUR + 12 * MINUTE + 5_000);
    assert.match(
      item.tooltip,
      /\*\* for 9h 12m\. Running since 08:03\. \[Stop\]\(command:timeTracker\.stop\) it if it was forgotten\./,
    );
    assert.equal(commandsOf(item.tooltip)[0], 'stop');
    assert.match(item.accessibilityLabel, /Running for a long time\.$/);
    // Its running time counts on: the next whole minute from the start.
    assert.equal(item.changesAtMs, STARTED + 9 * HOUR + 13 * MINUTE);
    const withUndo = shown(tracking, STARTED + 9 * HOUR, {
      linkedStart: { branch: 'main', previous: undefined },
    });
    assert.equal(commandsOf(withUndo.tooltip)[0], 'stop', "before a link's Undo");
    const nextDay = shown(tracking, STARTED + 20 * HOUR);
    assert.match(nextDay.tooltip, /for 20h\. Running since 2026-12-04 08:03\./, 'the day, once it is another');
  });

  it('says "at least" and when this window first saw it where the app did not say when it started', () => {
    const unsaid = { ...tracking, startedAtMs: undefined, seenSinceMs: STARTED + HOUR };
    assert.equal(shown(unsaid, STARTED + 8 * HOUR + 30 * MINUTE).tone, 'normal', 'only 7h 30m seen');
    const item = shown(unsaid, STARTED + 9 * HOUR + 5 * MINUTE);
    assert.equal(item.tone, 'warning');
    assert.match(item.tooltip, /Running at least 8h 5m, since 09:03, when this window first saw it\./);
  });

  it('keeps the colour and Stop but no time while the status bar is private', () => {
    const item = shown(tracking, STARTED + 9 * HOUR + 12 * MINUTE, { private: true });
    assert.equal(item.tone, 'warning');
    assert.equal(item.text, '$(record) Tracking');
    assert.match(item.tooltip, /Running for a long time\. \[Stop\]/);
    assert.doesNotMatch(item.tooltip, /\d+h|\d+m\b|\d\d:\d\d|Write docs/, item.tooltip);
    assert.doesNotMatch(item.accessibilityLabel, /\d/);
    assert.equal(commandsOf(item.tooltip)[0], 'stop');
  });

  it('leaves a break, an app without Stop, and an item without the rest loaded as they were', () => {
    const late = STARTED + 10 * HOUR;
    assert.equal(shown({ ...tracking, onBreak: true }, late).tone, 'normal', 'a break is no forgotten timer');
    const firstRelease = shown({ ...tracking, firstRelease: true }, late);
    assert.equal(firstRelease.tone, 'warning');
    assert.doesNotMatch(firstRelease.tooltip, /command:timeTracker\.stop/, 'no Stop the app does not offer');
    assert.equal(shown(tracking, late, { longSession: undefined }).tone, 'normal');
    assert.equal(shown(tracking, late, { longSessionHours: 12 }).tone, 'normal');
  });

  it('writes the clock time of the same day, and the date before it', () => {
    const now = new Date(2026, 11, 4, 17, 15).getTime();
    assert.equal(clockTime(new Date(2026, 11, 4, 0, 5).getTime(), now), '00:05');
    assert.equal(clockTime(new Date(2026, 11, 3, 23, 59).getTime(), now), '2026-12-03 23:59');
  });
});
