import assert from 'node:assert/strict';
import type { Presentation, PresentationSettings } from '../../../../src/tracker/statusBar/factTypes';
import { present } from '../../../../src/tracker/statusBar/presentation';
import { statusFacts } from '../../../../src/tracker/statusBar/statusFacts';
import { formatElapsed } from '../../../../src/tracker/statusBar/trackingFacts';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';

const settings: PresentationSettings = {
  showTodayTotal: true,
  maxNameLength: 40,
  route: { kind: 'http', port: 40001 },
};
const viaIntegration: PresentationSettings = {
  showTodayTotal: true,
  maxNameLength: 40,
  route: { kind: 'integration', socketPath: '/tmp/app/api.sock' },
};
const activity = { activityID: 'a1', activityName: 'Write docs' };

function shown(state: TrackerState, nowMs = 0, options = settings): Presentation {
  return present(statusFacts(state, options, nowMs));
}

describe('tracker/presentation', () => {
  it('gives every state its own words and codicon, and opens the menu on a click in every state', () => {
    const table: [TrackerState, string, string][] = [
      [{ kind: 'noToken' }, '$(key) Time Tracker: set token', 'timeTracker.showMenu'],
      [{ kind: 'offline' }, '$(debug-disconnect) Time Tracker offline', 'timeTracker.showMenu'],
      [
        { kind: 'tokenRejected', clockSkewSeconds: undefined },
        '$(error) Time Tracker: token rejected',
        'timeTracker.showMenu',
      ],
      [
        { kind: 'tokenRejected', clockSkewSeconds: -300 },
        '$(error) Time Tracker: your clock is off by 300 s',
        'timeTracker.showMenu',
      ],
      [{ kind: 'licenseLocked' }, '$(lock) Time Tracker: license locked', 'timeTracker.showMenu'],
      [
        { kind: 'lockedOut', untilMs: 42_000 },
        '$(circle-slash) Time Tracker: locked out (42 s)',
        'timeTracker.showMenu',
      ],
      [{ kind: 'unavailable' }, '$(warning) Time Tracker: status not available', 'timeTracker.showMenu'],
      [{ kind: 'failed', message: 'boom' }, '$(warning) Time Tracker: error', 'timeTracker.showMenu'],
      [
        { kind: 'idle', onBreak: false, todaySeconds: 12_000, observedAtMs: 0 },
        '$(clock) Not tracking · today 3h 20m',
        'timeTracker.showMenu',
      ],
      [
        { kind: 'idle', onBreak: true, todaySeconds: 60, observedAtMs: 0 },
        '$(coffee) On break · today 1m',
        'timeTracker.showMenu',
      ],
      [
        {
          kind: 'tracking',
          activity,
          onBreak: false,
          startedAtMs: -725000,
          appClockOffsetMs: 0,
          todaySeconds: 3_600,
          observedAtMs: 0,
        },
        '$(record) Write docs 12:05 · today 1h',
        'timeTracker.showMenu',
      ],
      [
        {
          kind: 'tracking',
          activity,
          onBreak: true,
          startedAtMs: -5000,
          appClockOffsetMs: 0,
          todaySeconds: 0,
          observedAtMs: 0,
        },
        '$(coffee) On break (Write docs) · today 0m',
        'timeTracker.showMenu',
      ],
    ];
    const texts = new Set<string>();
    for (const [state, text, command] of table) {
      const presentation = shown(state);
      assert.equal(presentation.text, text, state.kind);
      assert.equal(presentation.command, command, state.kind);
      assert.ok(
        presentation.accessibilityLabel.length > 10 && !presentation.accessibilityLabel.includes('$('),
        state.kind,
      );
      texts.add(presentation.text);
    }
    assert.equal(texts.size, table.length, 'no two states look alike');
  });

  it('tells a first release (update for Stop and Log Time) from a full app that left the total out', () => {
    const running = {
      kind: 'tracking',
      activity,
      onBreak: false,
      startedAtMs: -60_000,
      appClockOffsetMs: 0,
      todaySeconds: undefined,
      observedAtMs: 0,
    } as const;
    const first = shown({ ...running, firstRelease: true });
    assert.equal(first.text, '$(record) Write docs 1:00');
    assert.match(first.tooltip, /update it for them/);
    assert.doesNotMatch(first.tooltip, /timeTracker\.stop|timeTracker\.log/);
    const full = shown(running);
    assert.equal(full.text, '$(record) Write docs 1:00', 'no total made up');
    assert.match(full.tooltip, /Today's total: not said by the app\./);
    assert.doesNotMatch(full.tooltip, /update it/);
    assert.match(full.tooltip, /timeTracker\.stop/);
    assert.match(full.tooltip, /timeTracker\.log/);
  });

  it('tells where the app is expected and to turn on its HTTP API switch when offline', () => {
    const { tooltip } = shown({ kind: 'offline' });
    assert.match(tooltip, /not answering on 127\.0\.0\.1:40001/);
    assert.match(tooltip, /\*\*HTTP API\*\* switch/);
    assert.match(tooltip, /\(command:timeTracker\.checkConnection\)/);
  });

  it('says offline through the VS Code integration without a port, and how to bring it back', () => {
    const { text, tooltip, accessibilityLabel } = shown({ kind: 'offline' }, 0, viaIntegration);
    assert.equal(text, '$(debug-disconnect) Time Tracker offline');
    assert.match(tooltip, /not answering through its VS Code integration/);
    assert.match(tooltip, /Settings → Integrations → VSCode/);
    assert.doesNotMatch(tooltip, /127\.0\.0\.1|HTTP API/);
    assert.match(accessibilityLabel, /through its VS Code integration/);
  });

  it('names the way to the app in the tooltip while it answers', () => {
    const idle: TrackerState = { kind: 'idle', onBreak: false, todaySeconds: 0, observedAtMs: 0 };
    const tracking: TrackerState = {
      kind: 'tracking',
      activity,
      onBreak: false,
      startedAtMs: 0,
      appClockOffsetMs: 0,
      todaySeconds: 0,
      observedAtMs: 0,
    };
    for (const state of [idle, tracking, { ...idle, onBreak: true }]) {
      assert.match(shown(state).tooltip, /Connected through the HTTP API on 127\.0\.0\.1:40001\.$/, state.kind);
      assert.match(
        shown(state, 0, viaIntegration).tooltip,
        /Connected through the app's VS Code integration\.$/,
        state.kind,
      );
    }
  });

  it('leads a new user to the VS Code switch first, and to a token for the HTTP API second', () => {
    const { tooltip } = shown({ kind: 'noToken' });
    assert.ok(tooltip.indexOf('Settings → Integrations → VSCode') < tooltip.indexOf('HTTP API'), tooltip);
    assert.match(tooltip, /\(command:timeTracker\.setToken\)/);
  });

  it('sends a rejected integration token to Check Connection, not to Set Token', () => {
    const rejected = shown({ kind: 'tokenRejected', clockSkewSeconds: undefined }, 0, viaIntegration);
    assert.match(rejected.tooltip, /\(command:timeTracker\.checkConnection\)/);
    assert.doesNotMatch(rejected.tooltip, /timeTracker\.setToken/);
    assert.match(rejected.tooltip, /VS Code integration file/);
  });

  it('ticks the elapsed time and the day total from the last poll, and counts the lockout down', () => {
    const state: TrackerState = {
      kind: 'tracking',
      activity,
      onBreak: false,
      startedAtMs: 1_000 - 3_599_000,
      appClockOffsetMs: 0,
      todaySeconds: 3_599,
      observedAtMs: 1_000,
    };
    assert.equal(shown(state, 1_999).text, '$(record) Write docs 59:59 · today 59m');
    assert.equal(shown(state, 2_000).text, '$(record) Write docs 1:00:00 · today 1h');
    assert.equal(
      shown({ kind: 'lockedOut', untilMs: 60_000 }, 59_100).text,
      '$(circle-slash) Time Tracker: locked out (1 s)',
    );
  });

  it('leaves the day total out when the setting says so', () => {
    const state: TrackerState = { kind: 'idle', onBreak: false, todaySeconds: 600, observedAtMs: 0 };
    assert.equal(shown(state, 0, { ...settings, showTodayTotal: false }).text, '$(clock) Not tracking');
  });

  it('shows an activity name as typed, never as an icon or Markdown', () => {
    const odd = { activityID: 'a2', activityName: '$(bug) fix *all* [bugs](x)' };
    const presentation = shown({
      kind: 'tracking',
      activity: odd,
      onBreak: false,
      startedAtMs: 0,
      appClockOffsetMs: 0,
      todaySeconds: 0,
      observedAtMs: 0,
    });
    assert.equal(presentation.text, '$(record) \\$(bug) fix *all* [bugs](x) 0:00 · today 0m');
    assert.match(presentation.tooltip, /Tracking \\\$\\\(bug\\\) fix \\\*all\\\* \\\[bugs\\\]\\\(x\\\)/);
  });

  it("cuts a long name in the text so that the time and today's total stay in view, and says it whole elsewhere", () => {
    const long = `Refactor ${'the reporting pipeline '.repeat(4)}and its tests before the release`.slice(0, 105);
    assert.equal(long.length, 105);
    const running: TrackerState = {
      kind: 'tracking',
      activity: { activityID: 'a3', activityName: long },
      onBreak: false,
      startedAtMs: -725_000,
      appClockOffsetMs: 0,
      todaySeconds: 3_600,
      observedAtMs: 0,
    };
    const presentation = shown(running);
    assert.equal(presentation.text, '$(record) Refactor the reporting pipeline the rep… 12:05 · today 1h');
    assert.match(presentation.tooltip, new RegExp(long.replace(/ /g, ' ').slice(0, 60)));
    assert.match(presentation.accessibilityLabel, new RegExp(`tracking ${long} for 12:05, 1h today`));
    const cutShorter = shown(running, 0, { ...settings, maxNameLength: 12 });
    assert.equal(cutShorter.text, '$(record) Refactor th… 12:05 · today 1h');
    const paused = shown({ ...running, onBreak: true });
    assert.equal(paused.text, '$(coffee) On break (Refactor the reporting pipeline the rep…) · today 1h');
    assert.match(paused.accessibilityLabel, new RegExp(`${long} paused`));
    assert.equal(
      shown({ ...running, activity }).text,
      '$(record) Write docs 12:05 · today 1h',
      'a short name stays whole',
    );
  });

  it('formats elapsed time', () => {
    assert.equal(formatElapsed(0), '0:00');
    assert.equal(formatElapsed(65), '1:05');
    assert.equal(formatElapsed(36_610), '10:10:10');
  });
});

describe('tracker/presentation with queued entries', () => {
  it('shows how many logged entries wait, in every state, with a link to them', () => {
    const offline = present(statusFacts({ kind: 'offline' }, settings, 0, 3));
    assert.equal(offline.text, '$(debug-disconnect) Time Tracker offline · $(inbox) 3 queued');
    assert.match(
      offline.tooltip,
      /\*\*3 logged entries wait to be sent\*\* once the app answers\. \[Show Queued Entries\]\(command:timeTracker\.showQueue\)/,
    );
    assert.match(offline.accessibilityLabel, /3 logged entries wait to be sent\.$/);
    const idle = present(
      statusFacts({ kind: 'idle', onBreak: false, todaySeconds: 0, observedAtMs: 0 }, settings, 0, 1),
    );
    assert.equal(idle.text, '$(clock) Not tracking · today 0m · $(inbox) 1 queued');
    assert.equal(present(statusFacts({ kind: 'noToken' }, settings, 0, 0)).text, '$(key) Time Tracker: set token');
  });
});
