/** The status bar the user shapes (timeTracker.statusBar.format) and the private status bar. */
import assert from 'node:assert/strict';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';
import type { StatusBarInputs } from '../../../../src/tracker/statusBar/factTypes';
import { statusBarItem } from '../../../../src/tracker/statusBar/statusBarItem';
import {
  DEFAULT_STATUS_FORMAT,
  FORMAT_TOKENS,
  MAX_FORMAT_LENGTH,
  parseStatusFormat,
  StatusFormatReader,
  statusText,
} from '../../../../src/tracker/statusBar/statusText';

const base: StatusBarInputs = {
  nowMs: 0,
  showTodayTotal: true,
  maxNameLength: 40,
  route: { kind: 'http', port: 40001 },
};
const activity = { activityID: 'a1', activityName: 'Write the quarterly report for the board' };
// 12:05 running (12m), 1h today.
const tracking: TrackerState = {
  kind: 'tracking',
  activity,
  onBreak: false,
  startedAtMs: -725_000,
  appClockOffsetMs: 0,
  todaySeconds: 3_600,
  observedAtMs: 0,
};
const idle: TrackerState = { kind: 'idle', onBreak: false, todaySeconds: 12_000, observedAtMs: 0 };
const onBreak: TrackerState = { ...tracking, onBreak: true };
const idleBreak: TrackerState = { kind: 'idle', onBreak: true, todaySeconds: 60, observedAtMs: 0 };
const branchToday = { branch: 'feature/PROJ-1', duration: '1h 20m' };
const warnings: TrackerState[] = [
  { kind: 'noToken' },
  { kind: 'offline' },
  { kind: 'tokenRejected', clockSkewSeconds: undefined },
  { kind: 'tokenRejected', clockSkewSeconds: 300 },
  { kind: 'licenseLocked' },
  { kind: 'lockedOut', untilMs: 42_000 },
  { kind: 'unavailable' },
  { kind: 'failed', message: 'boom' },
  { kind: 'starting' },
];

function withFormat(source: string, extra: Partial<StatusBarInputs> = {}): StatusBarInputs {
  const { format, unknown } = parseStatusFormat(source);
  assert.deepEqual(unknown, [], source);
  return { ...base, format, ...extra };
}

describe('tracker/statusBar: timeTracker.statusBar.format', () => {
  it('parses tokens and the text between them, once, into a closed list', () => {
    assert.deepEqual(FORMAT_TOKENS, ['activity', 'elapsed', 'elapsedSeconds', 'today', 'group', 'branchToday']);
    assert.deepEqual(parseStatusFormat('[{group}] {activity} ({elapsed})'), {
      format: {
        pieces: [
          { token: 'group', before: '[' },
          { token: 'activity', before: '] ' },
          { token: 'elapsed', before: ' (' },
        ],
        after: ')',
      },
      unknown: [],
    });
  });

  it('shows the known tokens of a format with an unknown one, and the unknown one as written, and names every unknown one', () => {
    const parsed = parseStatusFormat('{activity} {actvity} {Today} {}');
    assert.deepEqual(parsed.unknown, ['{actvity}', '{Today}', '{}']);
    assert.equal(
      statusBarItem(tracking, { ...base, format: parsed.format }).text,
      '$(record) Write the quarterly report for the board {actvity} {Today} {}',
    );
    assert.equal(
      statusBarItem(tracking, { ...base, format: parseStatusFormat('{activty} {elapsed}').format }).text,
      '$(record) {activty} 12m',
    );
    assert.equal(
      statusBarItem(idle, { ...base, format: parseStatusFormat('{activty} {elapsed}').format }).text,
      '$(clock) Not tracking {activty}',
      'a state without the time still shows the mistake',
    );
  });

  it('parses a value once, and says so when a value with an unknown token is read first or set again, never on a render of the same value', () => {
    const reported: string[] = [];
    const reader = new StatusFormatReader((source, { unknown }) => reported.push(`${source}: ${unknown.join(' ')}`));
    const first = reader.read('{elapsed}');
    assert.equal(reader.read('{elapsed}'), first, 'the same value is not parsed again');
    const wrong = reader.read('{nope} {activity}');
    for (let tick = 0; tick < 3; tick++) assert.equal(reader.read('{nope} {activity}'), wrong);
    assert.deepEqual(reported, ['{nope} {activity}: {nope}'], 'once, however often the item renders');
    reader.read('{elapsed}');
    reader.read('{nope} {activity}');
    reader.read('{other}');
    assert.deepEqual(
      reported,
      ['{nope} {activity}: {nope}', '{nope} {activity}: {nope}', '{other}: {other}'],
      'again after the value changed',
    );
  });

  it('refuses a format longer than 200 characters whole, without reading it, and says so once', () => {
    const long = `{activity}${' '.repeat(MAX_FORMAT_LENGTH - 10)}`;
    assert.equal(MAX_FORMAT_LENGTH, 200);
    assert.deepEqual(parseStatusFormat(long).unknown, [], 'as long as it may be: read');
    assert.notEqual(parseStatusFormat(long).format, DEFAULT_STATUS_FORMAT);
    const tooLong = `${long}x`;
    assert.deepEqual(parseStatusFormat(tooLong), { format: DEFAULT_STATUS_FORMAT, unknown: [], tooLong: true });
    assert.deepEqual(
      parseStatusFormat('{nope}'.repeat(50_000)),
      { format: DEFAULT_STATUS_FORMAT, unknown: [], tooLong: true },
      'no token of it is listed',
    );
    const reported: string[] = [];
    const reader = new StatusFormatReader((source, { tooLong: refused }) =>
      reported.push(`${source.length} ${String(refused)}`),
    );
    for (let tick = 0; tick < 3; tick++) assert.equal(reader.read(tooLong), DEFAULT_STATUS_FORMAT);
    assert.deepEqual(reported, ['201 true']);
  });

  it('keeps the text of every state as it was with the default format', () => {
    const settings = withFormat('{activity} {elapsed} · {today}');
    for (const state of [tracking, idle, onBreak, idleBreak, ...warnings]) {
      assert.equal(statusBarItem(state, settings).text, statusBarItem(state, base).text, state.kind);
    }
  });

  it('shows every token', () => {
    const settings = withFormat('{group}: {activity} | {elapsed} | {today} | {branchToday}', {
      group: 'Clients',
      branchToday,
    });
    assert.equal(
      statusBarItem(tracking, settings).text,
      '$(record) Clients: Write the quarterly report for the board | 12m | today 1h | this branch 1h 20m',
    );
    assert.equal(statusBarItem(idle, settings).text, '$(clock) Not tracking | today 3h 20m | this branch 1h 20m');
    assert.equal(statusBarItem(idleBreak, settings).text, '$(coffee) On break | today 1m | this branch 1h 20m');
  });

  it('leaves a token the state lacks out with the text before it, and the first and last texts with their tokens', () => {
    const settings = withFormat('<{group}> {activity} ({elapsed})');
    assert.equal(statusBarItem(tracking, settings).text, '$(record) Write the quarterly report for the board (12m)');
    assert.equal(
      statusBarItem(tracking, withFormat('[{group}] {activity}')).text,
      '$(record) Write the quarterly report for the board',
    );
    assert.equal(
      statusBarItem({ ...tracking, startedAtMs: undefined }, { ...settings, group: 'Clients' }).text,
      '$(record) <Clients> Write the quarterly report for the board',
    );
    assert.equal(statusBarItem(tracking, withFormat('{today}', { showTodayTotal: false })).text, '$(record)');
    assert.equal(statusBarItem(idle, withFormat('{branchToday}')).text, '$(clock) Not tracking');
    assert.equal(
      statusText({ icon: 'record', activity: 'x' }, parseStatusFormat('working').format),
      '$(record) working',
    );
  });

  it('cuts the name inside {activity} (and the group) as timeTracker.statusBar.maxNameLength says', () => {
    const settings = withFormat('{activity} [{group}]', { maxNameLength: 10, group: 'A rather long group name' });
    assert.equal(statusBarItem(tracking, settings).text, '$(record) Write the… [A rather…]');
    assert.match(statusBarItem(tracking, settings).tooltip, /Write the quarterly report for the board/);
  });

  it('shows names as typed, never as an icon', () => {
    const settings = withFormat('{group} {activity}', { group: '$(bug)' });
    assert.equal(
      statusBarItem({ ...tracking, activity: { activityID: 'a1', activityName: '$(x) y' } }, settings).text,
      '$(record) \\$(bug) \\$(x) y',
    );
  });

  it('leaves the states that warn as they are, whatever the format says', () => {
    const settings = withFormat('{activity} {elapsed} {today} {group} {branchToday} and more', {
      group: 'G',
      branchToday,
    });
    for (const state of warnings)
      assert.equal(
        statusBarItem(state, { ...settings, nowMs: 42_000 }).text,
        statusBarItem(state, { ...base, nowMs: 42_000 }).text,
        state.kind,
      );
  });
});

describe('tracker/statusBar: timeTracker.statusBar.private', () => {
  const secrets = /Write|quarterly|Clients|PROJ|\d/;
  const settings: StatusBarInputs = {
    ...withFormat('{group} {activity} {elapsed} {today} {branchToday}'),
    private: true,
    group: 'Clients',
    branchToday,
  };

  it('shows the icon and the state only: no name and no time in the text, tooltip or spoken label', () => {
    const table: [TrackerState, string][] = [
      [tracking, '$(record) Tracking'],
      [{ ...tracking, startedAtMs: undefined, todaySeconds: undefined }, '$(record) Tracking'],
      [onBreak, '$(coffee) On break'],
      [idle, '$(clock) Not tracking'],
      [idleBreak, '$(coffee) On break'],
    ];
    for (const [state, text] of table) {
      const shown = statusBarItem(state, settings);
      assert.equal(shown.text, text, state.kind);
      // The links name commands, the last paragraph the port: the words around them must hold no secret.
      const words = shown.tooltip.replace(/\(command:[^)]*\)/g, '').replace(/Connected .*$/, '');
      assert.doesNotMatch(words, secrets, shown.tooltip);
      assert.doesNotMatch(shown.accessibilityLabel, secrets, shown.accessibilityLabel);
      assert.match(shown.tooltip, /command:timeTracker\.togglePrivateStatusBar/);
    }
  });

  it('still tells a queued entry (a count, not a time) and leaves the warnings as they are', () => {
    assert.match(
      statusBarItem(tracking, { ...settings, queued: 2 }).text,
      /^\$\(record\) Tracking · \$\(inbox\) 2 queued$/,
    );
    for (const state of warnings)
      assert.equal(
        statusBarItem(state, { ...settings, nowMs: 42_000 }).text,
        statusBarItem(state, { ...base, nowMs: 42_000 }).text,
        state.kind,
      );
  });
});
