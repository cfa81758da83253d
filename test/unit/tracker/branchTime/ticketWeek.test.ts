import assert from 'node:assert/strict';
import type { LedgerRow } from '../../../../src/tracker/branchTime/ledgerBook';
import { ticketKeys } from '../../../../src/tracker/branchTime/ticketKeys';
import {
  billedMinutes,
  ticketWeek,
  ticketWeekCsv,
  ticketWeekTable,
  ticketWeekText,
  type TicketWeek,
} from '../../../../src/tracker/branchTime/ticketWeek';
import { ROUND_TO_MINUTES, type RoundTo } from '../../../../src/tracker/settings/settingBounds';

const MINUTE = 60_000;
const SECOND = 1_000;

function row(
  day: string,
  branch: string,
  activityName: string,
  ms: number,
  repository = 'api',
  lastMs = ms,
): LedgerRow {
  return {
    root: `/repos/${repository}`,
    repository,
    branch,
    activityID: activityName.toUpperCase(),
    activityName,
    day,
    ms,
    firstMs: 0,
    lastMs,
  };
}

/**
 * Three tickets, a branch without one, two days, two activities; seconds that round differently: PROJ-1 on Tuesday is
 * 1 h 29 m 31 s (nearest: 1h30m; up to 6: 1h30m; up to 15: 1h30m) and 20 s on another branch of the same ticket.
 */
const WEEK: readonly LedgerRow[] = [
  row('2026-12-01', 'feature/PROJ-1-login', 'Write docs', 60 * MINUTE + 29 * MINUTE + 31 * SECOND),
  row('2026-12-01', 'fix/PROJ-1-typo', 'Code review', 20 * SECOND),
  row('2026-12-01', 'PROJ-2-search', 'Code review', 7 * MINUTE + 10 * SECOND),
  row('2026-12-01', 'main', 'Write docs', 24 * MINUTE + 29 * SECOND),
  row('2026-12-02', 'feature/PROJ-1-login', 'Code review', 2 * MINUTE + 30 * SECOND),
  row('2026-12-02', 'feature/PROJ-1-login', 'Write docs', 40 * MINUTE),
  row('2026-12-02', 'ops/OPS-9', 'Write docs', 59 * MINUTE + 59 * SECOND + 600),
  row('2026-11-28', 'main', 'Write docs', 3 * 60 * MINUTE),
];
const WEEK_DAYS = { fromDay: '2026-11-30', toDay: '2026-12-06' };
const tickets = ticketKeys([]);
const weekOf = (roundTo: RoundTo, rows = WEEK): TicketWeek => ticketWeek(rows, 'thisWeek', WEEK_DAYS, tickets, roundTo);

describe('tracker/branchTime/ticketWeek', () => {
  it('groups by ticket, then day: the branches of a ticket together, a branch without one by its name', () => {
    const week = weekOf(1);
    assert.deepEqual(
      week.cells.map(({ day, label, minutes, activities }) => ({ day, label, minutes, activities })),
      [
        { day: '2026-12-01', label: 'PROJ-1', minutes: 90, activities: ['Write docs', 'Code review'] },
        { day: '2026-12-01', label: 'main', minutes: 24, activities: ['Write docs'] },
        { day: '2026-12-01', label: 'PROJ-2', minutes: 7, activities: ['Code review'] },
        { day: '2026-12-02', label: 'OPS-9', minutes: 60, activities: ['Write docs'] },
        { day: '2026-12-02', label: 'PROJ-1', minutes: 43, activities: ['Write docs', 'Code review'] },
      ],
    );
    assert.deepEqual(week.days, [
      { day: '2026-12-01', minutes: 121 },
      { day: '2026-12-02', minutes: 103 },
    ]);
    assert.equal(week.minutes, 224, 'the period outside the days (2026-11-28) is left out');
  });

  it('rounds each ticket and day once by each roundTo value, and adds the rounded figures up', () => {
    const expected: Record<RoundTo, readonly number[]> = {
      1: [90, 24, 7, 60, 43],
      5: [90, 25, 10, 60, 45],
      6: [90, 30, 12, 60, 48],
      10: [90, 30, 10, 60, 50],
      15: [90, 30, 15, 60, 45],
      30: [90, 30, 30, 60, 60],
    };
    for (const roundTo of ROUND_TO_MINUTES) {
      const week = weekOf(roundTo);
      assert.deepEqual(
        week.cells.map((cell) => cell.minutes),
        expected[roundTo],
        `roundTo ${roundTo}`,
      );
      assert.equal(
        week.minutes,
        expected[roundTo].reduce((a, b) => a + b, 0),
        `roundTo ${roundTo}: the total`,
      );
    }
  });

  it('bills in whole seconds: a fraction of a second past a unit bills no other unit; no time bills nothing', () => {
    assert.equal(billedMinutes(6 * MINUTE + 400, 6), 6);
    assert.equal(billedMinutes(6 * MINUTE + SECOND, 6), 12);
    assert.equal(billedMinutes(0, 15), 0);
    assert.equal(billedMinutes(29 * SECOND, 1), 0);
    assert.equal(billedMinutes(30 * SECOND, 1), 1);
  });

  it('gives the plain lines worklog tools parse, a total a day, and the rule and the total in the heading', () => {
    assert.equal(
      ticketWeekText(weekOf(6)),
      [
        'Week by ticket, This Week (2026-11-30 – 2026-12-06): 4h, rounded up to 6 minutes per ticket and day',
        '2026-12-01 PROJ-1 1h30m Write docs, Code review',
        '2026-12-01 main 30m Write docs',
        '2026-12-01 PROJ-2 12m Code review',
        '2026-12-01 total 2h12m',
        '2026-12-02 OPS-9 1h Write docs',
        '2026-12-02 PROJ-1 48m Write docs, Code review',
        '2026-12-02 total 1h48m',
        '',
      ].join('\n'),
    );
    assert.match(ticketWeekText(weekOf(1)) ?? '', /: 3h44m, to the nearest minute per ticket and day\n/);
  });

  it('gives a Markdown table, ticket × weekday, with the same figures and their totals', () => {
    assert.equal(
      ticketWeekTable(weekOf(6)),
      [
        '**Week by ticket, This Week (2026-11-30 – 2026-12-06): 4h, rounded up to 6 minutes per ticket and day**',
        '',
        '| Ticket | Tue 12-01 | Wed 12-02 | Total |',
        '| --- | ---: | ---: | ---: |',
        '| PROJ-1 | 1h30m | 48m | **2h18m** |',
        '| main | 30m |  | **30m** |',
        '| PROJ-2 | 12m |  | **12m** |',
        '| OPS-9 |  | 1h | **1h** |',
        '| **Total** | **2h12m** | **1h48m** | **4h** |',
        '',
      ].join('\n'),
    );
  });

  it('gives the same figures as CSV, a line a ticket and day, with the rule', () => {
    const csv = ticketWeekCsv(weekOf(6));
    assert.ok(csv);
    assert.equal(csv.rows, 5);
    const lines = csv.text.split('\r\n');
    assert.equal(lines[0], '\uFEFFdate,ticket,minutes,activities,rounding');
    assert.equal(lines[1], '2026-12-01,PROJ-1,90,"Write docs, Code review",rounded up to 6 minutes per ticket and day');
    const minutes = lines.slice(1, -1).map((line) => Number(line.split(',')[2]));
    assert.deepEqual(
      minutes,
      weekOf(6).cells.map((cell) => cell.minutes),
    );
    assert.equal(
      minutes.reduce((a, b) => a + b, 0),
      240,
      'the table and the text say 4h',
    );
  });

  it('names a branch without a ticket with its repository where another repository has a branch so named', () => {
    const rows = [
      row('2026-12-01', 'main', 'Write docs', 10 * MINUTE),
      row('2026-12-01', 'main', 'Write docs', MINUTE, 'web'),
    ];
    assert.deepEqual(
      weekOf(1, rows).cells.map((cell) => cell.label),
      ['main (api)', 'main (web)'],
    );
  });

  it('keeps a line a line and a table a table, whatever the names hold; a renamed activity by its latest name', () => {
    const rows = [
      row('2026-12-01', 'main', 'Old name', MINUTE, 'api', 1),
      row('2026-12-01', 'main', 'old NAME', MINUTE, 'api', 2),
      row('2026-12-01', 'x|y\n2026-12-01 fake 9h', 'Write\rdocs', MINUTE),
    ];
    rows[1] = { ...rows[1]!, activityID: 'OLD NAME' };
    const week = weekOf(1, rows);
    assert.deepEqual(week.cells[0]?.activities, ['old NAME']);
    const text = ticketWeekText(week) ?? '';
    assert.equal(text.split('\n').length, 5, text);
    assert.match(text, /^2026-12-01 x\|y 2026-12-01 fake 9h 1m Write docs$/m);
    assert.match(ticketWeekTable(week) ?? '', /^\| x\\\|y 2026-12-01 fake 9h \| 1m \|/m);
  });

  it('has nothing to copy for a period without time', () => {
    const week = weekOf(6, [row('2026-11-20', 'main', 'Write docs', MINUTE)]);
    assert.equal(ticketWeekText(week), undefined);
    assert.equal(ticketWeekTable(week), undefined);
    assert.equal(ticketWeekCsv(week), undefined);
  });
});
