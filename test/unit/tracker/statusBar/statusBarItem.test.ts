import assert from 'node:assert/strict';
import { ticketKeys } from '../../../../src/tracker/branchTime/ticketKeys';
import { COMMANDS } from '../../../../src/tracker/ids';
import { startedNotice, type NoticeWords } from '../../../../src/tracker/links/linkNotice';
import { decideLink, parseLinks } from '../../../../src/tracker/links/links';
import type { TrackerState, TrackerStateKind } from '../../../../src/tracker/model/trackerState';
import type { Presentation, StatusBarInputs } from '../../../../src/tracker/statusBar/factTypes';
import { statusBarItem } from '../../../../src/tracker/statusBar/statusBarItem';
import { parseStatusFormat } from '../../../../src/tracker/statusBar/statusText';
import { formatElapsed, formatElapsedMinutes } from '../../../../src/tracker/statusBar/trackingFacts';

const settings: StatusBarInputs = {
  nowMs: 0,
  showTodayTotal: true,
  maxNameLength: 40,
  route: { kind: 'http', port: 40001 },
};
const viaIntegration: StatusBarInputs = {
  ...settings,
  route: { kind: 'integration', socketPath: '/tmp/app/api.sock' },
};
const activity = { activityID: 'a1', activityName: 'Write docs' };

function shown(state: TrackerState, nowMs = 0, options = settings): Presentation {
  return statusBarItem(state, { ...options, nowMs });
}

describe('tracker/statusBar/statusBarItem', () => {
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
        '$(record) Write docs 12m · today 1h',
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
    assert.equal(first.text, '$(record) Write docs 1m');
    assert.match(first.tooltip, /update it for them/);
    assert.doesNotMatch(first.tooltip, /timeTracker\.stop|timeTracker\.log/);
    const full = shown(running);
    assert.equal(full.text, '$(record) Write docs 1m', 'no total made up');
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

  it("names the app's own extension in the connection line while it reports branch switches, private or not", () => {
    const idle: TrackerState = { kind: 'idle', onBreak: false, todaySeconds: 0, observedAtMs: 0 };
    const beside = { ...settings, branchesReportedBy: 'NowDoing.nowdoing-vscode' };
    for (const options of [beside, { ...beside, private: true }])
      assert.match(
        shown(idle, 0, options).tooltip,
        /Connected through the HTTP API on 127\.0\.0\.1:40001\. Branch switches are reported by the app's own extension \(`NowDoing\.nowdoing-vscode`\)\.$/,
      );
    assert.doesNotMatch(shown({ kind: 'offline' }, 0, beside).tooltip, /Branch switches/, 'only while the app answers');
    assert.doesNotMatch(shown(idle).tooltip, /Branch switches/);
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

  it('counts the elapsed time and the day total on from the last poll in whole minutes, and says when they next change', () => {
    const state: TrackerState = {
      kind: 'tracking',
      activity,
      onBreak: false,
      startedAtMs: 1_000 - 3_599_000,
      appClockOffsetMs: 0,
      todaySeconds: 3_569,
      observedAtMs: 1_000,
    };
    const before = shown(state, 1_999);
    assert.equal(before.text, '$(record) Write docs 59m · today 59m');
    assert.doesNotMatch(
      `${before.tooltip} ${before.accessibilityLabel}`,
      /\d:\d\d(?!\d)/,
      'no seconds: nothing else ticks',
    );
    assert.equal(before.changesAtMs, 2_000, 'the next whole minute of the elapsed time');
    const after = shown(state, 2_000);
    assert.equal(after.text, '$(record) Write docs 1h · today 59m');
    assert.equal(after.changesAtMs, 32_000, "today's next minute comes before the elapsed time's");
    assert.equal(shown(state, 32_000).text, '$(record) Write docs 1h · today 1h');
    assert.equal(shown({ ...state, startedAtMs: 1_000 }, 1_000).text, '$(record) Write docs < 1m · today 59m');
    const paused = shown({ ...state, onBreak: true }, 2_000);
    assert.equal(paused.changesAtMs, 32_000, 'on break only the day total counts on');
    assert.equal(shown(state, 2_000, { ...settings, private: true }).changesAtMs, undefined, 'private: no time shown');
    const idle: TrackerState = { kind: 'idle', onBreak: false, todaySeconds: 600, observedAtMs: 0 };
    assert.equal(shown(idle, 5_000).changesAtMs, undefined, 'nothing counts on while nothing runs');
  });

  it('shows the seconds only where the format asks for them, and then changes every second', () => {
    const state: TrackerState = {
      kind: 'tracking',
      activity,
      onBreak: false,
      startedAtMs: -725_000,
      appClockOffsetMs: 0,
      todaySeconds: 3_600,
      observedAtMs: 0,
    };
    const seconds = { ...settings, format: parseStatusFormat('{activity} {elapsedSeconds} · {today}').format };
    const presentation = shown(state, 400, seconds);
    assert.equal(presentation.text, '$(record) Write docs 12:05 · today 1h');
    assert.equal(presentation.changesAtMs, 1_000);
    assert.equal(
      shown({ ...state, startedAtMs: -3_722_000 }, 0, seconds).text,
      '$(record) Write docs 1:02:02 · today 1h',
    );
    assert.equal(shown(state, 400).changesAtMs, 55_000, 'the default format: the next whole minute');
  });

  it('counts the lockout down each second, and stops at its last one until the poll planned for its end', () => {
    const locked: TrackerState = { kind: 'lockedOut', untilMs: 60_000 };
    assert.equal(shown(locked, 58_500).text, '$(circle-slash) Time Tracker: locked out (2 s)');
    assert.equal(shown(locked, 58_500).changesAtMs, 59_000);
    assert.equal(shown(locked, 59_100).text, '$(circle-slash) Time Tracker: locked out (1 s)');
    assert.equal(shown(locked, 59_100).changesAtMs, undefined);
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
    assert.equal(presentation.text, '$(record) \\$(bug) fix *all* [bugs](x) < 1m · today 0m');
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
    assert.equal(presentation.text, '$(record) Refactor the reporting pipeline the rep… 12m · today 1h');
    assert.match(presentation.tooltip, new RegExp(long.replace(/ /g, ' ').slice(0, 60)));
    assert.match(presentation.accessibilityLabel, new RegExp(`tracking ${long} for 12m, 1h today`));
    const cutShorter = shown(running, 0, { ...settings, maxNameLength: 12 });
    assert.equal(cutShorter.text, '$(record) Refactor th… 12m · today 1h');
    const paused = shown({ ...running, onBreak: true });
    assert.equal(paused.text, '$(coffee) On break (Refactor the reporting pipeline the rep…) · today 1h');
    assert.match(paused.accessibilityLabel, new RegExp(`${long} paused`));
    assert.equal(
      shown({ ...running, activity }).text,
      '$(record) Write docs 12m · today 1h',
      'a short name stays whole',
    );
  });

  it('formats elapsed time, in whole minutes and to the second', () => {
    assert.deepEqual([59, 60, 3_599, 3_600, 3_900].map(formatElapsedMinutes), ['< 1m', '1m', '59m', '1h', '1h 5m']);
    assert.equal(formatElapsed(0), '0:00');
    assert.equal(formatElapsed(65), '1:05');
    assert.equal(formatElapsed(36_610), '10:10:10');
  });
});

describe('tracker/statusBar/statusBarItem with queued entries', () => {
  it('shows how many logged entries wait, in every state, with a link to them', () => {
    const offline = statusBarItem({ kind: 'offline' }, { ...settings, queued: 3 });
    assert.equal(offline.text, '$(debug-disconnect) Time Tracker offline · $(inbox) 3 queued');
    assert.match(
      offline.tooltip,
      /\*\*3 logged entries wait to be sent\*\* once the app answers\. \[Show Queued Entries\]\(command:timeTracker\.showQueue\)/,
    );
    assert.match(offline.accessibilityLabel, /3 logged entries wait to be sent\.$/);
    const idle = statusBarItem(
      { kind: 'idle', onBreak: false, todaySeconds: 0, observedAtMs: 0 },
      { ...settings, queued: 1 },
    );
    assert.equal(idle.text, '$(clock) Not tracking · today 0m · $(inbox) 1 queued');
    assert.equal(statusBarItem({ kind: 'noToken' }, { ...settings, queued: 0 }).text, '$(key) Time Tracker: set token');
  });
});

describe('tracker/statusBar/statusBarItem: the tooltip', () => {
  const idle: TrackerState = { kind: 'idle', onBreak: false, todaySeconds: 60, observedAtMs: 0 };
  const tracking: TrackerState = {
    kind: 'tracking',
    activity,
    onBreak: false,
    startedAtMs: 0,
    appClockOffsetMs: 0,
    todaySeconds: 3_600,
    observedAtMs: 0,
  };

  it('lays out the headline, the body, the links and the connection, leaving empty ones out', () => {
    assert.equal(
      shown(idle).tooltip,
      '**Not tracking.**\n\nToday: 1m.\n\n[Start](command:timeTracker.start) · [Log Time](command:timeTracker.log)' +
        '\n\nConnected through the HTTP API on 127.0.0.1:40001.',
    );
    assert.match(shown({ ...tracking, onBreak: true }).tooltip, /^\*\*On break\.\*\* Write docs continues when/);
    const headlineOnly = shown({ kind: 'tokenRejected', clockSkewSeconds: 300 });
    assert.match(headlineOnly.tooltip, /^\*\*Your clock is off by 300 s\*\* [^\n]*\.$/);
    assert.equal(headlineOnly.tone, 'error');
    assert.match(
      shown({ kind: 'offline' }).tooltip,
      /\.\n\n\[Log Time \(queued\)\]\(command:timeTracker\.log\) · \[Check Connection\]\(command:timeTracker\.checkConnection\)$/,
    );
  });

  it("adds one line with the branch's time today while tracking and while idle", () => {
    const branchToday = { branch: 'feature/PROJ_1', duration: '1h 20m' };
    assert.match(
      statusBarItem(tracking, { ...settings, branchToday }).tooltip,
      /\n\nToday: 1h\.\n\nThis branch \(feature\/PROJ\\_1\) today: 1h 20m\.\n\n/,
    );
    assert.match(
      statusBarItem(idle, { ...settings, branchToday }).tooltip,
      /This branch \(feature\/PROJ\\_1\) today: 1h 20m\./,
    );
    assert.doesNotMatch(shown(tracking).tooltip, /This branch/, 'none without a branch (no folder, the ledger off)');
  });
});

const bug = { activityID: 'a1', activityName: '$(bug) fix *all*' };
/** Every kind of state, each variant of it: a kind left out here does not compile. */
const SAMPLES: { readonly [K in TrackerStateKind]: readonly Extract<TrackerState, { kind: K }>[] } = {
  starting: [{ kind: 'starting' }],
  noToken: [{ kind: 'noToken' }],
  remoteHost: [{ kind: 'remoteHost' }],
  offline: [{ kind: 'offline' }],
  tokenRejected: [
    { kind: 'tokenRejected', clockSkewSeconds: undefined },
    { kind: 'tokenRejected', clockSkewSeconds: 90 },
  ],
  licenseLocked: [{ kind: 'licenseLocked' }],
  lockedOut: [{ kind: 'lockedOut', untilMs: 30_000 }],
  unavailable: [{ kind: 'unavailable' }],
  failed: [{ kind: 'failed', message: 'boom' }],
  idle: [
    { kind: 'idle', onBreak: false, todaySeconds: 600, observedAtMs: 0 },
    { kind: 'idle', onBreak: true, todaySeconds: 600, observedAtMs: 0 },
  ],
  tracking: [
    {
      kind: 'tracking',
      activity: bug,
      onBreak: false,
      startedAtMs: -65_000,
      appClockOffsetMs: 0,
      todaySeconds: 600,
      observedAtMs: 0,
    },
    {
      kind: 'tracking',
      activity: bug,
      onBreak: false,
      startedAtMs: undefined,
      appClockOffsetMs: 0,
      todaySeconds: 600,
      observedAtMs: 0,
    },
    {
      kind: 'tracking',
      activity: bug,
      onBreak: true,
      startedAtMs: -65_000,
      appClockOffsetMs: 0,
      todaySeconds: 600,
      observedAtMs: 0,
    },
  ],
};
const samples: TrackerState[] = Object.values(SAMPLES).flat();
/** States whose fix differs by the way to the app, so their words do too. */
const WORDED_PER_ROUTE = new Set<TrackerStateKind>(['offline', 'tokenRejected']);
/** The tooltip without its last paragraph, which names the way to the app while it answers. */
const beforeConnection = (tooltip: string): string => tooltip.replace(/\n\nConnected [^\n]*$/, '');

describe('tracker/statusBar/statusBarItem: every state', () => {
  it('gives each state, on either route, one item: a codicon first, a headline, a spoken sentence, the menu on a click', () => {
    for (const state of samples) {
      for (const inputs of [settings, viaIntegration]) {
        const item = statusBarItem(state, inputs);
        const where = `${state.kind} via ${inputs.route.kind}`;
        assert.deepEqual(statusBarItem(state, inputs), item, `${where}: the same item every time`);
        assert.match(item.text, /^\$\([a-z~-]+\)( |$)/, `${where}: one codicon first`);
        assert.equal(item.command, COMMANDS.showMenu, `${where}: a click opens the menu`);
        assert.ok(item.tooltip.length > 0 && item.accessibilityLabel.length > 10, where);
      }
    }
  });

  it('words only offline and a rejected token differently per route, and names the route while the app answers', () => {
    for (const state of samples) {
      const http = statusBarItem(state, settings);
      const integration = statusBarItem(state, viaIntegration);
      const perRoute =
        WORDED_PER_ROUTE.has(state.kind) && !(state.kind === 'tokenRejected' && state.clockSkewSeconds !== undefined);
      if (perRoute) {
        assert.equal(integration.text, http.text, `${state.kind}: the same text on the status bar`);
        assert.notEqual(integration.accessibilityLabel, http.accessibilityLabel, state.kind);
        assert.notEqual(integration.tooltip, http.tooltip, state.kind);
      } else if (state.kind === 'idle' || state.kind === 'tracking') {
        assert.equal(beforeConnection(integration.tooltip), beforeConnection(http.tooltip), state.kind);
        assert.notEqual(integration.tooltip, http.tooltip, state.kind);
      } else {
        assert.deepEqual(integration, http, state.kind);
      }
    }
  });

  it('escapes a name from the app once, in the text of each state that shows it', () => {
    assert.equal(statusBarItem(SAMPLES.tracking[0]!, settings).text, '$(record) \\$(bug) fix *all* 1m · today 10m');
    assert.equal(
      statusBarItem(SAMPLES.tracking[2]!, settings).text,
      '$(coffee) On break (\\$(bug) fix *all*) · today 10m',
    );
    assert.equal(
      statusBarItem(SAMPLES.tracking[1]!, { ...settings, showTodayTotal: false }).text,
      '$(record) \\$(bug) fix *all*',
    );
  });

  it('gives every state its words but a running activity, which its name stands for', () => {
    for (const state of samples) {
      const afterIcon = statusBarItem(state, settings).text.replace(/^\$\([a-z~-]+\) /, '');
      const running = state.kind === 'tracking' && !state.onBreak;
      assert.equal(afterIcon.startsWith('\\$(bug) fix *all*'), running, state.kind);
    }
  });
});

describe('tracker/statusBar/statusBarItem: a link notice', () => {
  const { links } = parseLinks([{ branch: 'feature/**', activity: 'Write docs' }]);
  const decision = decideLink(links, { folders: ['/w/x'], branch: 'feature/x' }, ticketKeys([]))!;
  const notice: NoticeWords = (isPrivate) => startedNotice(decision, 'Write docs', undefined, isPrivate);
  const tracking = SAMPLES.tracking[0]!;

  it('stands in for the state but its tone, and goes when cleared', () => {
    const over = statusBarItem(tracking, { ...settings, notice, queued: 2 });
    assert.deepEqual(over, { ...notice(false), tone: 'normal' });
    assert.equal(over.text, '$(link) Tracking Write docs (linked to this branch)');
    assert.equal(over.command, COMMANDS.undoLink);
    assert.equal(statusBarItem({ kind: 'offline' }, { ...settings, notice }).tone, 'warning');
    assert.deepEqual(statusBarItem(tracking, { ...settings, notice: undefined }), statusBarItem(tracking, settings));
  });

  it('takes its private form while the status bar is private, so a toggle while it shows applies at once', () => {
    const open = statusBarItem(tracking, { ...settings, notice });
    const hidden = statusBarItem(tracking, { ...settings, notice, private: true });
    assert.deepEqual(hidden, { ...notice(true), tone: 'normal' });
    assert.match(open.text, /Write docs/);
    for (const said of [hidden.text, hidden.tooltip, hidden.accessibilityLabel])
      assert.doesNotMatch(said, /Write docs/);
  });
});

describe('tracker/statusBar/statusBarItem: links that wait', () => {
  // The tooltip is Markdown: the sentence's own full stops and hyphens are escaped.
  const idle: TrackerState = { kind: 'idle', onBreak: false, todaySeconds: 0, observedAtMs: 0 };

  it("says in the tooltip, in every state, that Restricted Mode keeps the folder's links unread, with Manage Workspace Trust", () => {
    for (const state of [idle, { kind: 'offline' } as TrackerState]) {
      const item = statusBarItem(state, { ...settings, linksWaiting: { kind: 'restricted', count: 2 } });
      assert.ok(
        item.tooltip
          .replace(/\\([.-])/g, '$1')
          .endsWith(
            'This folder is in Restricted Mode, so its 2 links are not read. ' +
              '[Manage Workspace Trust](command:workbench.trust.manage)',
          ),
        item.tooltip,
      );
      assert.ok(!item.text.includes('link'), item.text);
      assert.match(item.accessibilityLabel, /so its 2 links are not read\.$/);
    }
    const one = statusBarItem(idle, { ...settings, linksWaiting: { kind: 'restricted', count: 1 } });
    assert.match(one.tooltip, /so its 1 link is not read\\./);
  });

  it('shows the unanswered question in the text and the tooltip, with the way to answer it, private without the name', () => {
    const waiting = { kind: 'question', activity: 'PROJ-7' } as const;
    const item = statusBarItem(idle, { ...settings, linksWaiting: waiting });
    assert.match(item.text, / · \$\(link\) Use its links\?$/);
    assert.ok(
      item.tooltip
        .replace(/\\([.-])/g, '$1')
        .endsWith(
          "This repository's links wait for your answer: PROJ-7 starts once you use them. " +
            "[Use This Repository's Links…](command:timeTracker.useRepositoryLinks)",
        ),
      item.tooltip,
    );
    const hidden = statusBarItem(idle, { ...settings, private: true, linksWaiting: waiting });
    assert.ok(!`${hidden.text}${hidden.tooltip}${hidden.accessibilityLabel}`.includes('PROJ-7'), hidden.tooltip);
    assert.match(hidden.text, /Use its links\?$/);
  });
});
