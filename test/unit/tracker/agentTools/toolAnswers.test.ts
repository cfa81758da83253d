import assert from 'node:assert/strict';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';
import type { StatusBarInputs } from '../../../../src/tracker/statusBar/factTypes';
import { statusBarItem } from '../../../../src/tracker/statusBar/statusBarItem';
import {
  MAX_DAYS,
  activityLines,
  approvedByWorkspaceOnly,
  logConfirmation,
  otherDayAsked,
  plainSaid,
  plainTooltip,
  readPeriodInput,
  readTypedDays,
  readQueryInput,
  startConfirmation,
  stopConfirmation,
} from '../../../../src/tracker/agentTools/toolAnswers';

const inputs: StatusBarInputs = {
  nowMs: 0,
  showTodayTotal: true,
  maxNameLength: 40,
  route: { kind: 'integration', socketPath: '/tmp/app/api.sock' },
};
const tracking = (activityName: string): TrackerState => ({
  kind: 'tracking',
  activity: { activityID: 'a1', activityName },
  startedAtMs: -1_500_000,
  appClockOffsetMs: 0,
  todaySeconds: 7_200,
  onBreak: false,
  observedAtMs: 0,
});
const tooltipOf = (state: TrackerState, more: Partial<StatusBarInputs> = {}): string =>
  statusBarItem(state, { ...inputs, ...more }).tooltip;

describe('tracker/agentTools/toolAnswers: plainTooltip', () => {
  it("says what the status bar's tooltip says while tracking, without its bold, icons or links", () => {
    const markdown = tooltipOf(tracking('Write docs'));
    const plain = plainTooltip(markdown);
    assert.match(plain, /Write docs/);
    assert.match(plain, /25m/, 'the elapsed time');
    assert.match(plain, /2h/, "today's total");
    assert.doesNotMatch(plain, /\*\*|\$\(|\]\(command:/, plain);
    assert.match(markdown, /\]\(command:/, 'the tooltip has links to take off');
  });

  it('gives the row of links as the commands to run, by their labels', () => {
    const plain = plainTooltip(
      '**Tracking.**\n\n[Stop](command:timeTracker.stop) · [Log Time](command:timeTracker.log)',
    );
    assert.equal(plain, 'Tracking.\n\nCommands: Stop, Log Time.');
  });

  it('keeps a name escaped as the tooltip escapes it: no link, bold or icon of its own comes through', () => {
    const plain = plainTooltip(tooltipOf(tracking('[evil](https://example.com) **loud** $(bug)')));
    assert.match(plain, /\\\[evil\\\]\\\(https:\/\/example\\\.com\\\) \\\*\\\*loud\\\*\\\* \\\$\\\(bug\\\)/, plain);
  });

  it('gives a failing state its sentence and its fix, as the status bar does', () => {
    const rejected = plainTooltip(tooltipOf({ kind: 'tokenRejected', clockSkewSeconds: undefined }));
    assert.match(
      rejected,
      /^The app rejected the token of its own VS Code integration file\. Turn Settings → Integrations → VSCode off and on in the app, then check the connection\./,
    );
    const offline = plainTooltip(tooltipOf({ kind: 'offline' }, { route: { kind: 'http', port: 39847 } }));
    assert.match(offline, /^The app is not answering on 127\.0\.0\.1:39847\./);
    assert.match(offline, /change the port setting\.\n\nCommands: Log Time \(queued\), Check Connection\.$/, offline);
  });

  it('names no activity and no time while the status bar is private', () => {
    const plain = plainTooltip(tooltipOf(tracking('Write docs'), { private: true }));
    assert.doesNotMatch(plain, /Write docs|25m|2h/, plain);
    assert.match(plain, /private/);
  });
});

describe('tracker/agentTools/toolAnswers: readPeriodInput', () => {
  it('reads each period, and today when none is given', () => {
    assert.deepEqual(readPeriodInput({}), { period: 'today' });
    assert.deepEqual(readPeriodInput(undefined), { period: 'today' });
    for (const period of ['today', 'thisWeek', 'lastWeek'] as const)
      assert.deepEqual(readPeriodInput({ period }), { period });
  });

  it('refuses any other period in one sentence naming the ones it takes', () => {
    for (const period of ['yesterday', 'THISWEEK', 7, null, { today: true }]) {
      const read = readPeriodInput({ period });
      assert.ok('refused' in read, JSON.stringify(period));
      assert.match(read.refused, /"today", "thisWeek", "lastWeek"/);
    }
  });
});

describe('tracker/agentTools/toolAnswers: readPeriodInput, given days', () => {
  it('reads a first and a last day, the last the first when left out, up to MAX_DAYS', () => {
    assert.deepEqual(readPeriodInput({ fromDay: '2026-11-30', toDay: '2026-12-02' }), {
      days: { fromDay: '2026-11-30', toDay: '2026-12-02' },
    });
    assert.deepEqual(readPeriodInput({ fromDay: '2024-02-29' }), {
      days: { fromDay: '2024-02-29', toDay: '2024-02-29' },
    });
    assert.ok('days' in readPeriodInput({ fromDay: '2026-01-01', toDay: '2026-04-02' }), `${MAX_DAYS} days`);
  });

  it('refuses a day that is not one, a range the wrong way round or too long, and a period beside days', () => {
    const refused = (input: object): string => {
      const read = readPeriodInput(input);
      return 'refused' in read ? read.refused : JSON.stringify(read);
    };
    for (const fromDay of ['2026-02-30', '2025-02-29', '2026-13-01', '26-12-01', '2026-12-1', 20261201, ''])
      assert.equal(refused({ fromDay }), '"fromDay" and "toDay" must be days such as "2026-12-01".', String(fromDay));
    assert.equal(refused({ toDay: '2026-12-01' }), '"fromDay" and "toDay" must be days such as "2026-12-01".');
    assert.equal(refused({ fromDay: '2026-12-02', toDay: '2026-12-01' }), '"toDay" must not come before "fromDay".');
    assert.equal(refused({ fromDay: '2026-01-01', toDay: '2026-04-03' }), `At most ${MAX_DAYS} days at once.`);
    assert.equal(refused({ period: 'today', fromDay: '2026-12-01' }), 'Give "period" or "fromDay", not both.');
  });
});

describe('tracker/agentTools/toolAnswers: readTypedDays, the days a user types', () => {
  const EXAMPLE = 'Type a day such as 2026-12-01, or the first and the last: 2026-11-01 2026-11-30.';
  const refused = (text: string): string => {
    const read = readTypedDays(text);
    return 'refused' in read ? read.refused : JSON.stringify(read);
  };

  it('reads one day, or the first and the last with a space, "..", a dash or "to" between them', () => {
    const november = { days: { fromDay: '2026-11-01', toDay: '2026-11-30' } };
    for (const text of [
      '2026-11-01 2026-11-30',
      ' 2026-11-01..2026-11-30 ',
      '2026-11-01 – 2026-11-30',
      '2026-11-01 - 2026-11-30',
      '2026-11-01-2026-11-30',
      '2026-11-01 to 2026-11-30',
    ])
      assert.deepEqual(readTypedDays(text), november, text);
    assert.deepEqual(readTypedDays('2026-12-01'), { days: { fromDay: '2026-12-01', toDay: '2026-12-01' } });
  });

  it('refuses what is no period in the words of the box, and a range the wrong way round or too long', () => {
    for (const text of ['', 'last week', '2026-11-01 2026-11-30 2026-12-01', '2026-02-30', '2026-11-01 -- 2026-11-30'])
      assert.equal(refused(text), EXAMPLE, text);
    assert.equal(refused(`2026-11-01 ${' '.repeat(100_000)}2026-11-30`), EXAMPLE, 'a huge paste, refused unread');
    assert.equal(refused('2026-12-02 2026-12-01'), 'The last day must not come before the first.');
    assert.equal(refused('2026-01-01 2026-04-03'), `At most ${MAX_DAYS} days at once.`);
  });
});

describe('tracker/agentTools/toolAnswers: the questions before a write', () => {
  it('names the activity to start by name, and says whether it is created', () => {
    assert.deepEqual(startConfirmation({ name: 'Write docs', createIfMissing: true }, undefined), {
      title: 'Start tracking?',
      message: 'Starts tracking: "Write docs", created if the app has no activity of that name. What runs now stops.',
      detail: 'Starts tracking: "Write docs", created if the app has no activity of that name. What runs now stops.',
    });
    assert.match(
      startConfirmation({ name: 'Write docs' }, undefined).detail,
      /"Write docs", an activity the app already has\./,
    );
  });

  it('names an activity asked for by id by the name this window knows it by', () => {
    const asked = startConfirmation({ activityID: 'A-1' }, 'Review');
    assert.equal(asked.detail, 'Starts tracking: "Review" (the activity with the id "A-1"). What runs now stops.');
    assert.equal(asked.message, 'Starts tracking: "Review" (the activity with the id "A\\-1"). What runs now stops.');
  });

  it('escapes a name in the Markdown for the chat, and gives it as typed, cut, in the plain question', () => {
    const name = `[click](https://example.com) **now** ${'x'.repeat(300)}`;
    const asked = startConfirmation({ name }, undefined);
    assert.match(
      asked.message,
      /^Starts tracking: "\\\[click\\\]\\\(https:\/\/example\\\.com\\\) \\\*\\\*now\\\*\\\* x+…"/,
    );
    assert.match(asked.detail, /^Starts tracking: "\[click\]\(https:\/\/example\.com\) \*\*now\*\* x+…"/);
    assert.equal(Array.from(/"([^"]*)"/.exec(asked.detail)?.[1] ?? '').length, 200, 'cut to 200 characters');
  });

  it('names what stops where the status bar may, and nothing else', () => {
    assert.equal(stopConfirmation('Write docs').detail, 'Stops "Write docs" in the time tracker.');
    assert.equal(stopConfirmation(undefined).detail, 'Stops what the time tracker runs now.');
  });

  it('gives the minutes, the activity and the note exactly, and another day first', () => {
    const request = { name: 'Review', durationMinutes: 90, note: '  Read PR 12  ' };
    assert.equal(
      logConfirmation(request, undefined, undefined).detail,
      'Logs 1h 30m (90 minutes) on: "Review", an activity the app already has.\n\nNote: "Read PR 12"',
    );
    assert.equal(
      logConfirmation({ name: 'Review', durationMinutes: 5 }, undefined, 'yesterday').detail,
      'The app takes no date for an entry: it records this time now, today, not on "yesterday". Go on only if that is ' +
        'what you want.\n\nLogs 5m (5 minutes) on: "Review", an activity the app already has.\n\nNo note.',
    );
  });

  it('takes a date as another day only when it is not today', () => {
    assert.equal(otherDayAsked({ date: '2026-12-02' }, '2026-12-03'), '2026-12-02');
    assert.equal(otherDayAsked({ date: ' yesterday ' }, '2026-12-03'), 'yesterday');
    for (const date of ['2026-12-03', 'today', 'Today', '', '  ', 7, undefined])
      assert.equal(otherDayAsked({ date }, '2026-12-03'), undefined, String(date));
  });
});

describe('tracker/agentTools/toolAnswers: approvedByWorkspaceOnly', () => {
  const tool = 'timeTracker_start';
  it("asks itself when only a workspace's settings turn VS Code's asking off, for every tool or this one", () => {
    assert.equal(approvedByWorkspaceOnly({ workspaceValue: true }, tool), true);
    assert.equal(approvedByWorkspaceOnly({ workspaceFolderValue: { [tool]: true } }, tool), true);
    assert.equal(approvedByWorkspaceOnly({ globalValue: false, workspaceValue: true }, tool), true);
  });

  it("leaves it to VS Code where the user's own settings turn it off, or nothing does", () => {
    assert.equal(approvedByWorkspaceOnly({ globalValue: true, workspaceValue: true }, tool), false);
    assert.equal(approvedByWorkspaceOnly({ globalValue: { [tool]: true }, workspaceValue: true }, tool), false);
    assert.equal(approvedByWorkspaceOnly({ workspaceValue: { other_tool: true } }, tool), false);
    assert.equal(approvedByWorkspaceOnly({ workspaceValue: false }, tool), false);
    assert.equal(approvedByWorkspaceOnly(undefined, tool), false);
  });
});

describe('tracker/agentTools/toolAnswers: plainSaid', () => {
  it("gives a command's sentences as plain lines, its status line's icon taken off", () => {
    assert.equal(
      plainSaid(['$(record) Tracking Write docs', '', 'Logged 5m to **x**.']),
      'Tracking Write docs\nLogged 5m to x.',
    );
  });
});

describe('tracker/agentTools/toolAnswers: the search', () => {
  it('reads a query, trimmed, and refuses none, an empty one or one no activity can have', () => {
    assert.deepEqual(readQueryInput({ query: '  rev ' }), { query: 'rev' });
    for (const input of [{}, { query: '' }, { query: '   ' }, { query: 3 }, null])
      assert.deepEqual(readQueryInput(input), {
        refused: '"query" must be the name of an activity, or a part of one.',
      });
    assert.deepEqual(readQueryInput({ query: 'x'.repeat(201) }), {
      refused: '"query": At most 200 characters: 201 typed.',
    });
  });

  it("lists the app's answer a line each, with its id and group, names escaped", () => {
    const found = [
      { activityID: 'A-1', activityName: 'Review', groupName: 'Client *X*' },
      { activityID: 'B2', activityName: 'Review [docs](https://e.com)', groupName: null },
    ];
    assert.equal(
      activityLines('rev', found, { kind: 'app' }),
      'Activities of the app that match "rev":\n- "Review" (id "A\\-1", group "Client \\*X\\*")\n' +
        '- "Review \\[docs\\]\\(https://e\\.com\\)" (id "B2")',
    );
    assert.equal(activityLines('zz', [], { kind: 'app' }), 'No activity of the app matches "zz".');
  });

  it('says why the app did not answer before what it named earlier', () => {
    const found = [{ activityID: 'A1', activityName: 'Review' }];
    assert.equal(
      activityLines('rev', found, { kind: 'known', why: 'The app is not answering.' }),
      'The app is not answering. Activities the app named before that match "rev":\n- "Review" (id "A1")',
    );
    assert.equal(
      activityLines('rev', [], { kind: 'known', why: 'Offline.' }),
      'Offline. None of the activities the app named before matches "rev".',
    );
  });
});
