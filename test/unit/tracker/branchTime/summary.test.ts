import assert from 'node:assert/strict';
import { summaryText } from '../../../../src/tracker/branchTime/copySummary';
import { dayOf, type LedgerRow } from '../../../../src/tracker/branchTime/ledgerBook';
import {
  branchAt,
  formatExactDuration,
  formatLedgerDuration,
  periodDays,
  summarize,
  summarizeDays,
  type Minuted,
  type PeriodSummary,
} from '../../../../src/tracker/branchTime/summary';
import { ticketKeys, type TicketKeys } from '../../../../src/tracker/branchTime/ticketKeys';
import { seededRandom } from '../../../support/random';

const MINUTE = 60_000;
// Wednesday 25 November 2026, 15:00 local time.
const NOW = new Date(2026, 10, 25, 15, 0, 0).getTime();
const daysAgo = (days: number): number => new Date(2026, 10, 25 - days, 10, 0, 0).getTime();

function row(
  branch: string,
  minutes: number,
  atMs: number,
  activityName = 'Development',
  root = '/repos/api',
): LedgerRow {
  return {
    root,
    repository: root.split('/').at(-1)!,
    branch,
    activityID: activityName.toUpperCase(),
    activityName,
    day: dayOf(atMs),
    ms: minutes * MINUTE + 7_000,
    firstMs: atMs,
    lastMs: atMs + minutes * MINUTE,
  };
}

/** A row of today with a time in milliseconds. */
function seconds(branch: string, activityName: string, ms: number, root = '/repos/api'): LedgerRow {
  return { ...row(branch, 0, daysAgo(0), activityName, root), ms };
}

/**
 * 2m 50s + 40 s × 3 on four branches, the last one's 40 s on two activities: floored on their own they are 2m + 0m × 3
 * under 4m.
 */
const small = [
  seconds('a', 'Write', 170_000),
  seconds('b', 'Write', 40_000),
  seconds('c', 'Write', 40_000),
  seconds('d', 'Review', 25_000),
  seconds('d', 'Write', 15_000),
];

/**
 * Each node of the summary with the label the view gives it: `period`, then `repository`, ` branch`, ` activity`.
 */
function viewLabels(summary: PeriodSummary): string[] {
  return [
    `period: ${formatLedgerDuration(summary)}`,
    ...summary.repositories.flatMap((repository) => [
      `${repository.repository}: ${formatLedgerDuration(repository)}`,
      ...repository.branches.flatMap((branch) => [
        `  ${branch.branch}: ${formatLedgerDuration(branch)}`,
        ...branch.activities.map((activity) => `    ${activity.activityName}: ${formatLedgerDuration(activity)}`),
      ]),
    ]),
  ];
}

const sumMinutes = (nodes: readonly Minuted[]): number => nodes.reduce((sum, node) => sum + node.minutes, 0);

const rows: LedgerRow[] = [
  row('feature/PROJ-123-login', 90, daysAgo(0)),
  row('feature/PROJ-123-login', 45, daysAgo(0), 'Review'),
  row('main', 20, daysAgo(0), 'Development', '/repos/web'),
  row('main', 60, daysAgo(2)),
  row('fix/typo', 30, daysAgo(7)),
  row('old', 30, daysAgo(20)),
];

describe('tracker/branchTime/summary', () => {
  it('knows the periods: today, this week from Monday, last week Monday to Sunday', () => {
    assert.deepEqual(periodDays('today', NOW), { fromDay: '2026-11-25', toDay: '2026-11-25' });
    assert.deepEqual(periodDays('thisWeek', NOW), { fromDay: '2026-11-23', toDay: '2026-11-25' });
    assert.deepEqual(periodDays('lastWeek', NOW), { fromDay: '2026-11-16', toDay: '2026-11-22' });
  });

  it('sums the days of a range given, both ends included, the same way as a period', () => {
    const branches = (summary: PeriodSummary): string[] =>
      summary.repositories.flatMap((repository) => repository.branches.map((branch) => branch.branch));
    const lastWeek = periodDays('lastWeek', NOW);
    assert.deepEqual(summarizeDays(rows, 'days', lastWeek), { ...summarize(rows, 'lastWeek', NOW), kind: 'days' });
    assert.deepEqual(branches(summarizeDays(rows, 'days', { fromDay: dayOf(daysAgo(9)), toDay: dayOf(daysAgo(0)) })), [
      'feature/PROJ-123-login',
      'main',
      'fix/typo',
      'main',
    ]);
    assert.deepEqual(branches(summarizeDays(rows, 'days', { fromDay: '2020-01-01', toDay: '2020-01-31' })), []);
  });

  it('groups a period repository → branch → activity, most time first, with first and last seen', () => {
    const today = summarize(rows, 'today', NOW);
    assert.deepEqual(
      today.repositories.map((repository) => [
        repository.repository,
        repository.branches.map((branch) => [
          branch.branch,
          branch.activities.map((activity) => activity.activityName),
        ]),
      ]),
      [
        ['api', [['feature/PROJ-123-login', ['Development', 'Review']]]],
        ['web', [['main', ['Development']]]],
      ],
    );
    const login = today.repositories[0]!.branches[0]!;
    assert.equal(login.ms, 135 * MINUTE + 14_000);
    assert.equal(login.firstMs, daysAgo(0));
    assert.equal(login.lastMs, daysAgo(0) + 90 * MINUTE);
    assert.equal(today.ms, 155 * MINUTE + 21_000);
    assert.deepEqual(
      summarize(rows, 'thisWeek', NOW).repositories.flatMap((repository) =>
        repository.branches.map((branch) => branch.branch),
      ),
      ['feature/PROJ-123-login', 'main', 'main'],
    );
    assert.deepEqual(
      summarize(rows, 'lastWeek', NOW).repositories.flatMap((repository) =>
        repository.branches.map((branch) => branch.branch),
      ),
      ['fix/typo'],
    );
  });

  it("shows a node's minutes, `< 1m` for some time that has no minute, and the exact time in the hover", () => {
    assert.equal(formatLedgerDuration({ ms: 59_999, minutes: 0 }), '< 1m');
    assert.equal(formatLedgerDuration({ ms: 0, minutes: 0 }), '0m');
    assert.equal(formatLedgerDuration({ ms: 45 * MINUTE + 59_000, minutes: 46 }), '46m');
    assert.equal(formatLedgerDuration({ ms: 135 * MINUTE, minutes: 135 }), '2h 15m');
    assert.equal(formatLedgerDuration({ ms: 48_000, minutes: 1, approximate: true }), '≈ 1m');
    assert.equal(formatExactDuration(135 * MINUTE + 7_400), '2h 15m 7s');
    assert.equal(formatExactDuration(45_000), '45s');
  });

  it('rounds each row on its own time, and says a total its rows do not add up to is rounded: 2m 50s + 40 s × 3', () => {
    assert.deepEqual(viewLabels(summarize(small, 'today', NOW)), [
      'period: 5m',
      'api: ≈ 5m',
      '  a: 3m',
      '    Write: 3m',
      '  b: 1m',
      '    Write: 1m',
      '  c: 1m',
      '    Write: 1m',
      '  d: ≈ 1m',
      '    Review: < 1m',
      '    Write: < 1m',
    ]);
  });

  it('never shows a row more than half a minute from its own time: 20 s is < 1m beside 28 s, 2m 26s is 2m', () => {
    const rounded = summarize(
      [seconds('a', 'Write', 20_000), seconds('a', 'Review', 28_000), seconds('b', 'Write', 146_000)],
      'today',
      NOW,
    );
    assert.deepEqual(viewLabels(rounded), [
      'period: 3m',
      'api: 3m',
      '  b: 2m',
      '    Write: 2m',
      '  a: ≈ 1m',
      '    Review: < 1m',
      '    Write: < 1m',
    ]);
    // Rows that add up are not marked: 1h 30m + 45m under 2h 15m.
    assert.deepEqual(viewLabels(summarize(rows, 'today', NOW)).slice(0, 3), [
      'period: 2h 35m',
      'api: 2h 15m',
      '  feature/PROJ-123-login: 2h 15m',
    ]);
  });

  it('rounds every node to its nearest minute, and marks it exactly where its rows add up to other minutes, for any rows', () => {
    const next = seededRandom(11);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    for (let run = 0; run < 100; run++) {
      const random = Array.from({ length: 1 + Math.floor(next() * 12) }, () =>
        seconds(
          pick(['a', 'b', 'c']),
          pick(['Write', 'Review', 'Test']),
          Math.floor(next() * 40 * MINUTE),
          pick(['/repos/api', '/repos/web']),
        ),
      );
      const summary = summarize(random, 'today', NOW);
      const context = JSON.stringify(random.map((each) => [each.root, each.branch, each.activityName, each.ms]));
      const check = (node: Minuted, parts: readonly Minuted[] | undefined): void => {
        assert.equal(node.minutes, Math.round(node.ms / MINUTE), context);
        const addsUp = parts === undefined || sumMinutes(parts) === node.minutes;
        assert.equal(node.approximate === true, !addsUp, context);
      };
      check(summary, summary.repositories);
      for (const repository of summary.repositories) {
        check(repository, repository.branches);
        for (const branch of repository.branches) {
          check(branch, branch.activities);
          for (const activity of branch.activities) check(activity, undefined);
        }
      }
    }
  });
});

describe('tracker/branchTime/copySummary', () => {
  it('writes a plain line a branch (ticket key, branch, repository when there are several, minutes) and under it each activity with its minutes', () => {
    const text = summaryText(summarize(rows, 'today', NOW), ticketKeys([]), 'plain');
    assert.equal(
      text,
      [
        'Time by branch, Today (2026-11-25): 2h 35m',
        'PROJ-123 feature/PROJ-123-login (api): 2h 15m',
        '  Development: 1h 30m',
        '  Review: 45m',
        'main (web): 20m',
        '  Development: 20m',
        '',
      ].join('\n'),
    );
  });

  it('writes Markdown with the key in bold, the branch as code and the activities as a nested list', () => {
    const text = summaryText(summarize(rows, 'lastWeek', NOW), ticketKeys([]), 'markdown');
    assert.equal(
      text,
      [
        '**Time by branch, Last Week (2026-11-16 – 2026-11-22): 30m**',
        '',
        '- `fix/typo`: 30m',
        '  - Development: 30m',
        '',
      ].join('\n'),
    );
    const today = summaryText(summarize(rows.slice(0, 2), 'today', NOW), ticketKeys([]), 'markdown');
    assert.match(
      today ?? '',
      /^- \*\*PROJ-123\*\* `feature\/PROJ-123-login`: 2h 15m\n {2}- Development: 1h 30m\n {2}- Review: 45m$/m,
    );
  });

  it('gives each line the minutes of its own time, and a total its lines do not add up to as rounded: 2m 50s + 40s × 3', () => {
    const text = summaryText(summarize(small, 'today', NOW), ticketKeys([]), 'plain') ?? '';
    assert.equal(
      text,
      [
        'Time by branch, Today (2026-11-25): ≈ 5m',
        'a: 3m',
        '  Write: 3m',
        'b: 1m',
        '  Write: 1m',
        'c: 1m',
        '  Write: 1m',
        'd: ≈ 1m',
        '  Review: < 1m',
        '  Write: < 1m',
        '',
      ].join('\n'),
    );
  });

  it('gives each line the minutes the view gives its row, a repository or branch copied alone included', () => {
    const summary = summarize(
      [
        seconds('main', 'Write', 100_000, '/repos/api'),
        seconds('main', 'Write', 60_000, '/repos/web'),
        seconds('main', 'Review', 40_000, '/repos/web'),
      ],
      'today',
      NOW,
    );
    const web = summary.repositories[1]!;
    assert.deepEqual(
      [
        web.repository,
        formatLedgerDuration(web),
        formatLedgerDuration(web.branches[0]!.activities[0]!),
        formatLedgerDuration(web.branches[0]!.activities[1]!),
      ],
      ['web', '2m', '1m', '1m'],
    );
    const tickets = ticketKeys([]);
    assert.equal(
      summaryText(summary, tickets, 'plain'),
      [
        'Time by branch, Today (2026-11-25): ≈ 3m',
        'main (api): 2m',
        '  Write: 2m',
        'main (web): 2m',
        '  Write: 1m',
        '  Review: 1m',
        '',
      ].join('\n'),
    );
    assert.equal(
      summaryText(summary, tickets, 'plain', { root: '/repos/web' }),
      ['Time by branch, Today (2026-11-25): 2m', 'main: 2m', '  Write: 1m', '  Review: 1m', ''].join('\n'),
    );
    assert.equal(
      summaryText(summary, tickets, 'plain', { root: '/repos/web', branch: 'main' }),
      ['Time by branch, Today (2026-11-25): 2m', 'main: 2m', '  Write: 1m', '  Review: 1m', ''].join('\n'),
    );
  });

  it('copies one repository or one branch of the period when asked, with its total', () => {
    const tickets = ticketKeys([]);
    const branch = summaryText(summarize(rows, 'today', NOW), tickets, 'plain', {
      root: '/repos/api',
      branch: 'feature/PROJ-123-login',
    });
    assert.equal(
      branch,
      [
        'Time by branch, Today (2026-11-25): 2h 15m',
        'PROJ-123 feature/PROJ-123-login: 2h 15m',
        '  Development: 1h 30m',
        '  Review: 45m',
        '',
      ].join('\n'),
    );
    const repository = summaryText(summarize(rows, 'today', NOW), tickets, 'plain', { root: '/repos/web' });
    assert.equal(
      repository,
      ['Time by branch, Today (2026-11-25): 20m', 'main: 20m', '  Development: 20m', ''].join('\n'),
    );
    assert.equal(summaryText(summarize(rows, 'today', NOW), tickets, 'plain', { root: '/repos/gone' }), undefined);
  });

  it('has nothing to copy for an empty period', () => {
    assert.equal(summaryText(summarize([], 'today', NOW), ticketKeys([]), 'plain'), undefined);
  });

  it("computes each branch's key once per summary, however many repositories have it", () => {
    const asked: string[] = [];
    const counted: TicketKeys = {
      keyOf: (branch, ignoresCase) => {
        asked.push(branch);
        return ticketKeys([]).keyOf(branch, ignoresCase);
      },
    };
    const spread = ['/repos/api', '/repos/web', '/repos/app'].flatMap((root) => [
      row('main', 10, daysAgo(0), 'Development', root),
      row('feature/PROJ-1', 10, daysAgo(0), 'Development', root),
    ]);
    const text = summaryText(summarize(spread, 'today', NOW), counted, 'plain') ?? '';
    assert.equal(text.split('\n').filter((line) => line.startsWith('PROJ-1 feature/PROJ-1 (')).length, 3, text);
    assert.deepEqual(asked.sort(), ['feature/PROJ-1', 'main']);
  });

  it("writes the key as the branch's repository compares case, with the prefix as listed", () => {
    const caseless: LedgerRow = { ...row('feature/proj-4-login', 30, daysAgo(0)), ignoresCase: true };
    const text = summaryText(summarize([caseless], 'today', NOW), ticketKeys(['PROJ']), 'plain');
    assert.match(text ?? '', /^PROJ-4 feature\/proj-4-login: 30m$/m);
    const exact = summaryText(
      summarize([row('feature/proj-4-login', 30, daysAgo(0))], 'today', NOW),
      ticketKeys(['PROJ']),
      'plain',
    );
    assert.match(exact ?? '', /^feature\/proj-4-login: 30m$/m);
  });
});

describe('tracker/branchTime/summary: one place under names that differ in case', () => {
  const caseless = (branch: string, minutes: number, atMs: number, root?: string): LedgerRow => ({
    ...row(branch, minutes, atMs, 'Development', root),
    ignoresCase: true,
  });

  it('is one branch, named as first written, where a row of its repository says it ignores case', () => {
    const rows = [row('feature/login', 30, daysAgo(1)), caseless('feature/Login', 20, daysAgo(0))];
    const [repository] = summarize(rows, 'thisWeek', NOW, 'linux').repositories;
    assert.deepEqual(
      repository?.branches.map((branch) => [branch.branch, branch.minutes]),
      [['feature/login', 50]],
    );
    const place = { root: '/repos/api', repository: 'api', branch: 'FEATURE/LOGIN', ignoresCase: true as const };
    assert.equal(branchAt(summarize(rows, 'thisWeek', NOW, 'linux'), place, 'linux')?.branch, 'feature/login');
  });

  it('keeps two branches where no row says the repository ignores case', () => {
    const rows = [row('feature/login', 30, daysAgo(1)), row('feature/Login', 20, daysAgo(0))];
    assert.equal(summarize(rows, 'thisWeek', NOW, 'linux').repositories[0]?.branches.length, 2);
  });

  it('is one repository on a Mac under a path in another case, and two on Linux', () => {
    const rows = [
      row('main', 30, daysAgo(1), 'Development', '/Users/a/Code/App'),
      row('main', 20, daysAgo(0), 'Development', '/Users/a/code/app'),
    ];
    const onMac = summarize(rows, 'thisWeek', NOW, 'darwin').repositories;
    assert.deepEqual(
      onMac.map((repository) => [repository.root, repository.repository, repository.minutes]),
      [['/Users/a/Code/App', 'App', 50]],
    );
    assert.equal(summarize(rows, 'thisWeek', NOW, 'linux').repositories.length, 2);
  });
});
