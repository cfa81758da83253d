/**
 * The status bar item alone (src/extension/statusBar.ts), built with a fake session whose state
 * the test sets, a recording log and message sink, and settings that place it apart from the
 * window's own item (its id follows its place), so the two never share an item.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { StatusBarController } from '../../../../src/extension/statusBar';
import type { Session } from '../../../../src/extension/session';
import type { Settings } from '../../../../src/extension/settings';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';
import type { NoticeWords } from '../../../../src/tracker/links/linkNotice';
import type { Timers } from '../../../../src/platform/timers';
import { RecordingLog, RecordingMessages, settingsWith } from './fakes';

type SessionPort = Pick<Session, 'state' | 'channel' | 'onDidChangeState'>;

const NAME = 'Status Part Review';

function tracking(name = NAME): TrackerState {
  return {
    kind: 'tracking',
    activity: { activityID: 'status-part-1', activityName: name },
    onBreak: false,
    startedAtMs: Date.now() - 5 * 60_000,
    appClockOffsetMs: 0,
    todaySeconds: 3_600,
    observedAtMs: Date.now(),
  };
}

describe('parts: StatusBarController', () => {
  let log: RecordingLog;
  let messages: RecordingMessages;
  let stateChanged: vscode.EventEmitter<TrackerState>;
  let session: { -readonly [K in keyof SessionPort]: SessionPort[K] };
  let item: StatusBarController | undefined;
  /** What a test changes in the settings while the item lives, as the user would: read on every render. */
  let changed: Partial<Settings>;
  /** The links' notice, as the test sets it: read on every render. */
  let notice: NoticeWords | undefined;

  /** How often the item was computed: each computation asks for the branch's time once. */
  let computed: number;
  /** The clock and the timers the item counts on by, moved by the test. */
  let nowMs: number;
  let planned: Map<number, { readonly callback: () => void; readonly ms: number }>;
  let timersSet = 0;
  const timers: Timers = {
    setTimeout: (callback, ms) => {
      const id = ++timersSet;
      planned.set(id, { callback, ms });
      return id;
    },
    clearTimeout: (handle) => planned.delete(handle as number),
  };
  /** The renders the item planned (one at most), by their delays. */
  const plannedDelays = (): number[] => [...planned.values()].map(({ ms }) => ms);

  const build = (changes: Partial<Settings> = {}): StatusBarController => {
    const settings = settingsWith({
      statusBarAlignment: 'right',
      statusBarPriority: 7,
      statusFormat: '{activity} {elapsed} · {today}',
      ...changes,
    });
    item = new StatusBarController({
      session,
      settings: () => ({ ...settings(), ...changed }),
      log,
      messages,
      branchToday: () => {
        computed++;
        return undefined;
      },
      linkedStart: () => undefined,
      groupOf: () => undefined,
      notice: () => notice,
      clock: () => nowMs,
      timers,
    });
    return item;
  };

  /** The session moves to `state` and says so, as the real one does after a poll. */
  const show = (state: TrackerState): void => {
    session.state = state;
    stateChanged.fire(state);
  };

  beforeEach(() => {
    computed = 0;
    nowMs = Date.now();
    planned = new Map();
    changed = {};
    notice = undefined;
    log = new RecordingLog();
    messages = new RecordingMessages(log);
    stateChanged = new vscode.EventEmitter<TrackerState>();
    session = {
      state: tracking(),
      channel: { kind: 'http', route: { kind: 'http', port: 1 }, token: 'unused', tokenSource: 'secretStorage' },
      onDidChangeState: stateChanged.event,
    };
  });

  afterEach(() => {
    item?.dispose();
    item = undefined;
    stateChanged.dispose();
    messages.dispose();
  });

  it("shows the running activity, and follows the session's next state", () => {
    const part = build();
    assert.ok(part.presentation.text.includes(NAME), part.presentation.text);
    assert.ok(part.presentation.accessibilityLabel.includes(NAME), part.presentation.accessibilityLabel);
    assert.equal(part.presentation.tone, 'normal');

    show({ kind: 'offline' });

    assert.ok(!part.presentation.text.includes(NAME), part.presentation.text);
    assert.notEqual(part.presentation.tone, 'normal', 'offline is not shown as all is well');
  });

  it('names no activity while private, in its text, tooltip or spoken label', () => {
    const { text, tooltip, accessibilityLabel } = build({ privateStatusBar: true }).presentation;
    for (const shown of [text, tooltip, accessibilityLabel]) assert.ok(!shown.includes(NAME), shown);
  });

  it('a notice stands in for the state until it is cleared, in its private form once the status bar is private', () => {
    const part = build();
    const text = (): string => part.presentation.text;
    notice = (isPrivate) => ({
      text: isPrivate ? 'private notice' : 'notice text',
      tooltip: 'notice tooltip',
      command: part.presentation.command,
      accessibilityLabel: 'notice label',
    });
    part.rerender();
    assert.equal(text(), 'notice text');
    changed = { privateStatusBar: true };
    part.rerender();
    assert.equal(text(), 'private notice');
    notice = undefined;
    part.rerender();
    assert.equal(text(), '$(record) Tracking');
    changed = {};
    part.rerender();
    assert.ok(text().includes(NAME), text());
  });

  it('says once, with the way to the setting, that its format names a token it does not know', () => {
    const part = build({ statusFormat: '{activity} {actvity}' });
    part.rerender();
    show(tracking('Another Review'));

    const warnings = messages.said.filter((said) => said.kind === 'warning');
    assert.equal(warnings.length, 1, JSON.stringify(messages.said));
    const [warning] = warnings;
    assert.ok(warning?.kind === 'warning');
    assert.ok(warning.message.includes('{actvity}'), warning.message);
    assert.deepEqual(warning.actions, ['Open Settings']);
    assert.ok(
      log.at('warn').some((line) => line.includes('"{activity} {actvity}" names {actvity}')),
      log.toString(),
    );
    assert.ok(part.presentation.text.includes('{actvity}'), 'shown as written');
  });

  describe('what a poll and the passing time cost', () => {
    const running = (): Extract<TrackerState, { kind: 'tracking' }> => ({
      kind: 'tracking',
      activity: { activityID: 'status-part-1', activityName: NAME },
      onBreak: false,
      startedAtMs: nowMs - 5 * 60_000 - 20_000,
      appClockOffsetMs: 0,
      todaySeconds: 3_600,
      observedAtMs: nowMs,
    });

    it('a poll that brings the state already drawn, observed later, computes and draws nothing', () => {
      const first = running();
      session.state = first;
      const part = build();
      const shown = part.presentation;
      const before = computed;
      nowMs += 10_000;
      show({ ...first, todaySeconds: 3_610, observedAtMs: nowMs });
      assert.equal(computed, before, 'the same answer again: a comparison only');
      assert.equal(part.presentation, shown);
      show({ ...first, todaySeconds: 4_200, observedAtMs: nowMs });
      assert.equal(computed, before + 1, 'a new total for today is drawn');
    });

    it('while tracking, draws again when the shown minute changes, not every second', () => {
      session.state = running();
      const part = build();
      assert.deepEqual(plannedDelays(), [40_000], 'the elapsed time turns 5m 20s into 6m in 40 s');
      assert.match(part.presentation.text, / 5m · today 1h$/);
      nowMs += 40_000;
      const [tick] = [...planned.values()];
      planned.clear();
      tick!.callback();
      assert.match(part.presentation.text, / 6m · today 1h$/);
      assert.deepEqual(plannedDelays(), [20_000], "then today's total turns 1h 0m 40s into 1h 1m");
      show({ kind: 'offline' });
      assert.deepEqual(plannedDelays(), [], 'nothing counts on: nothing planned');
    });

    it('each second only while the format shows the seconds', () => {
      session.state = running();
      const part = build({ statusFormat: '{activity} {elapsedSeconds}' });
      assert.match(part.presentation.text, / 5:20$/);
      assert.deepEqual(plannedDelays(), [1_000]);
    });
  });
});
