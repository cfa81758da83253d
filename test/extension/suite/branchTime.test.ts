/**
 * The time-by-branch ledger in a real extension host: the app (the reference server in this process) tracks while
 * the workspace's real git repository switches branches; the ledger the "Time by Branch" view
 * renders shows both branches with totals that add up to the time tracked; Copy Summary puts a
 * line a branch and an activity on the clipboard, for the period asked or the row pointed at;
 * Export writes the CSV where the save dialog says; Clear History keeps everything on Enter. (Two
 * windows in one host cannot be made here: the sharing between windows is the unit test
 * test/unit/tracker/branchTime/ledgerStore.test.ts, two ledgers over one store folder.)
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import { dayOf, type LedgerRow } from '../../../src/tracker/branchTime/ledgerBook';
import { LedgerStore } from '../../../src/tracker/branchTime/ledgerStore';
import type { PeriodSummary } from '../../../src/tracker/branchTime/summary';
import type { ReferenceServer } from '../../../src/server/server';
import { kind, until } from './states';
import { connectToNewServer, storageFolder } from './connected';
import { answering } from './pressEnter';
import { notificationsDuring } from './windowSpies';
import { withWizardAnswers, type Box, type Validation } from './wizardAnswers';

const TOKEN = 'branch-time-test-token-3d1e';
/** The longest a background window waits between polls at the 2 s interval set here (three times it). */
const LONGEST_POLL_MS = 6_000;

/** Runs `run` with the save dialog answering `file`, recording the default each dialog offered. */
async function withSaveDialog(
  file: vscode.Uri | undefined,
  offered: (vscode.Uri | undefined)[],
  run: () => Thenable<unknown>,
): Promise<void> {
  const window = vscode.window as unknown as { showSaveDialog: unknown };
  const original = window.showSaveDialog;
  window.showSaveDialog = (options?: vscode.SaveDialogOptions) => {
    offered.push(options?.defaultUri);
    return Promise.resolve(file);
  };
  try {
    await run();
  } finally {
    window.showSaveDialog = original;
  }
}

describe('time by branch against the reference server and real git', function () {
  this.timeout(60_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer;
  let root: string;
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  const branchMs = (summary: PeriodSummary, branch: string): number =>
    summary.repositories
      .filter((repository) => repository.root === root)
      .flatMap((repository) => repository.branches.filter((candidate) => candidate.branch === branch))[0]?.ms ?? 0;

  /** Resolves after `count` more answers of the app (polls, or a command's refresh). */
  const polls = (count: number): Promise<void> =>
    new Promise((resolve) => {
      let seen = 0;
      const subscription = api.onDidChangeState(() => {
        if (++seen < count) return;
        subscription.dispose();
        resolve();
      });
    });

  before(async function () {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) this.skip();
    root = folder.uri.fsPath;
    git('checkout', '-q', 'main');
    ({ api, server } = await connectToNewServer(TOKEN));
    assert.deepEqual(await api.branchWatchReady(), [root]);
  });

  after(async () => {
    await vscode.commands.executeCommand('timeTracker.stop');
    git('checkout', '-q', 'main');
    await config().update('pollIntervalSeconds', undefined, vscode.ConfigurationTarget.Global);
    await config().update('port', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('timeTracker.clearToken');
    await server.close();
  });

  it('counts the tracked time on the branch checked out, across a real switch, adding up to the time tracked', async () => {
    const before = await api.branchTimeSummary('today');
    const startedAt = Date.now();
    await vscode.commands.executeCommand('timeTracker.start', { name: 'Branch work', createIfMissing: true });
    await until(api, kind('tracking'), 'tracking');
    await polls(4);
    const switched = new Promise<string>((resolve) => {
      const subscription = api.onDidHandleBranchSwitch((handled) => {
        subscription.dispose();
        resolve(handled.branch);
      });
    });
    git('checkout', '-q', 'feature');
    assert.equal(await switched, 'feature');
    await polls(4);
    await vscode.commands.executeCommand('timeTracker.stop');
    await until(api, kind('idle'), 'stopped');
    const tracked = Date.now() - startedAt;
    const after = await api.branchTimeSummary('today');
    const onMain = branchMs(after, 'main') - branchMs(before, 'main');
    const onFeature = branchMs(after, 'feature') - branchMs(before, 'feature');
    assert.ok(onMain > 0 && onFeature > 0, `main got ${onMain} ms, feature ${onFeature} ms`);
    // The start is credited from when the app says it began, read through the app's clock offset,
    // which a Date header tells only to the second: up to a second before this test's own clock.
    assert.ok(
      onMain + onFeature <= tracked + 1_000,
      `${onMain + onFeature} ms counted of ${tracked} ms tracked: never more, but for the second the app's clock is known to`,
    );
    assert.ok(
      tracked - (onMain + onFeature) <= LONGEST_POLL_MS + 1_000,
      `${onMain + onFeature} ms counted of ${tracked} ms tracked: within one poll interval`,
    );
    const activities =
      after.repositories
        .find((repository) => repository.root === root)
        ?.branches.find((branch) => branch.branch === 'feature')?.activities ?? [];
    assert.ok(activities.some((activity) => activity.activityName === 'Branch work'));
  });

  it('copies, from the palette, the period it asks for (Today active), a line a branch with each activity and its minutes', async () => {
    const asked = await answering(() => vscode.commands.executeCommand('timeTracker.copyBranchSummary'));
    assert.deepEqual(
      asked.map(({ items, taken }) => ({ items, taken })),
      [{ items: ['Today', 'This Week', 'Last Week'], taken: 'Today' }],
    );
    const plain = await vscode.env.clipboard.readText();
    assert.match(plain, /^Time by branch, Today \(\d{4}-\d\d-\d\d\): (≈ )?(< 1m|\d)/);
    assert.match(plain, /^main( \(.+\))?: (≈ )?(< 1m|\d+m|\d+h( \d+m)?)$/m);
    assert.match(plain, /^feature( \(.+\))?: (≈ )?(< 1m|\d+m|\d+h( \d+m)?)$/m);
    assert.match(plain, /^ {2}Branch work: (< 1m|\d+m|\d+h( \d+m)?)$/m);
    await vscode.commands.executeCommand('timeTracker.copyBranchSummaryMarkdown', { type: 'period', kind: 'today' });
    const markdown = await vscode.env.clipboard.readText();
    assert.match(markdown, /^- `feature`( \(.+\))?: (≈ )?(< 1m|\d+m|\d+h( \d+m)?)$/m);
    assert.match(markdown, /^ {2}- Branch work: (< 1m|\d+m|\d+h( \d+m)?)$/m);
  });

  it('shows each row of last week at its own time, and a total its rows do not add up to as rounded', async () => {
    const SEEDED_ROOT = '/srv/rounding-app';
    const now = new Date();
    // Noon of last Tuesday: inside last week whatever today is.
    const atMs = new Date(
      now.getFullYear(),
      now.getMonth(),
      now.getDate() - ((now.getDay() + 6) % 7) - 6,
      12,
    ).getTime();
    const seeded = (branch: string, activityName: string, seconds: number): LedgerRow => ({
      day: dayOf(atMs),
      root: SEEDED_ROOT,
      repository: 'rounding-app',
      branch,
      activityID: `6F1C1D2E-0A0B-4C0D-8E0F-0000000000${activityName === 'Review' ? 'B1' : 'A1'}`,
      activityName,
      ms: seconds * 1_000,
      firstMs: atMs,
      lastMs: atMs + seconds * 1_000,
    });
    const store = new LedgerStore(storageFolder(api), { now: () => Date.now(), keepDays: () => 90 });
    const rows = [
      seeded('fix', 'Write', 146),
      seeded('review', 'Write', 20),
      seeded('review', 'Review', 28),
      seeded('a', 'Write', 40),
      seeded('b', 'Write', 41),
      seeded('c', 'Write', 42),
    ];
    await store.update((book) => ({ ...book, rows: [...book.rows, ...rows] }));
    try {
      await api.branchTimeSummary('lastWeek');
      const lastWeek = api.branchTimeItems.find((item) => item.label === 'Last Week');
      // 5m 17s over its one repository's 5m; the repository is ≈ 5m over branches of 2m + 1m + 1m + 1m + 1m.
      assert.equal(lastWeek?.description, '5m');
      await vscode.commands.executeCommand('timeTracker.copyBranchSummary', { type: 'period', kind: 'lastWeek' });
      const lines = (await vscode.env.clipboard.readText()).split('\n');
      assert.match(lines[0] ?? '', /^Time by branch, Last Week \(.+\): ≈ 5m$/);
      assert.deepEqual(lines.slice(1), [
        'fix: 2m',
        '  Write: 2m',
        'review: ≈ 1m',
        '  Review: < 1m',
        '  Write: < 1m',
        'c: 1m',
        '  Write: 1m',
        'b: 1m',
        '  Write: 1m',
        'a: 1m',
        '  Write: 1m',
        '',
      ]);
    } finally {
      await store.update((book) => ({ ...book, rows: book.rows.filter((row) => row.root !== SEEDED_ROOT) }));
    }
  });

  it('copies last week by ticket and day, rounded as roundTo says, as lines, a table and a CSV with one set of figures', async () => {
    const SEEDED_ROOT = '/srv/ticket-week-app';
    const now = new Date();
    // Noon of last Tuesday and last Wednesday: inside last week whatever today is.
    const tuesday = new Date(now.getFullYear(), now.getMonth(), now.getDate() - ((now.getDay() + 6) % 7) - 6, 12);
    const wednesday = new Date(tuesday.getFullYear(), tuesday.getMonth(), tuesday.getDate() + 1, 12);
    const seeded = (at: Date, branch: string, activityName: string, seconds: number): LedgerRow => ({
      day: dayOf(at.getTime()),
      root: SEEDED_ROOT,
      repository: 'ticket-week-app',
      branch,
      activityID: `6F1C1D2E-0A0B-4C0D-8E0F-0000000000${activityName === 'Review' ? 'C1' : 'C2'}`,
      activityName,
      ms: seconds * 1_000,
      firstMs: at.getTime(),
      lastMs: at.getTime() + seconds * 1_000,
    });
    const store = new LedgerStore(storageFolder(api), { now: () => Date.now(), keepDays: () => 90 });
    const rows = [
      seeded(tuesday, 'feature/PROJ-1-login', 'Write', 89 * 60 + 31),
      seeded(tuesday, 'fix/PROJ-1-typo', 'Review', 20),
      seeded(tuesday, 'PROJ-2-search', 'Review', 7 * 60 + 10),
      seeded(tuesday, 'spike', 'Write', 24 * 60 + 29),
      seeded(wednesday, 'ops/OPS-9', 'Write', 3_600),
    ];
    const [tue, wed] = [rows[0]!.day, rows[4]!.day];
    await store.update((book) => ({ ...book, rows: [...book.rows, ...rows] }));
    await config().update('branchTime.roundTo', 6, vscode.ConfigurationTarget.Global);
    try {
      await vscode.commands.executeCommand('timeTracker.copyWeekByTicket', { period: 'lastWeek' });
      const lines = (await vscode.env.clipboard.readText()).split('\n');
      assert.match(
        lines[0] ?? '',
        /^Week by ticket, Last Week \(.+\): 3h12m, rounded up to 6 minutes per ticket and day$/,
      );
      assert.deepEqual(lines.slice(1), [
        `${tue} PROJ-1 1h30m Write, Review`,
        `${tue} spike 30m Write`,
        `${tue} PROJ-2 12m Review`,
        `${tue} total 2h12m`,
        `${wed} OPS-9 1h Write`,
        `${wed} total 1h`,
        '',
      ]);
      await vscode.commands.executeCommand('timeTracker.copyWeekByTicketMarkdown', { period: 'lastWeek' });
      const table = (await vscode.env.clipboard.readText()).split('\n');
      assert.deepEqual(table.slice(2), [
        `| Ticket | Tue ${tue.slice(5)} | Wed ${wed.slice(5)} | Total |`,
        '| --- | ---: | ---: | ---: |',
        '| PROJ-1 | 1h30m |  | **1h30m** |',
        '| spike | 30m |  | **30m** |',
        '| PROJ-2 | 12m |  | **12m** |',
        '| OPS-9 |  | 1h | **1h** |',
        '| **Total** | **2h12m** | **1h** | **3h12m** |',
        '',
      ]);
      const file = vscode.Uri.file(join(mkdtempSync(join(tmpdir(), 'ticket-csv-')), 'week.csv'));
      const offered: (vscode.Uri | undefined)[] = [];
      await withSaveDialog(file, offered, () =>
        vscode.commands.executeCommand('timeTracker.exportBranchTimeCsv', { period: 'lastWeek', by: 'ticket' }),
      );
      assert.match(offered[0]?.path ?? '', /\/time-by-ticket-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d\.csv$/);
      const rule = 'rounded up to 6 minutes per ticket and day';
      assert.deepEqual(readFileSync(file.fsPath, 'utf8').split('\r\n'), [
        '\uFEFFdate,ticket,minutes,activities,rounding',
        `${tue},PROJ-1,90,"Write, Review",${rule}`,
        `${tue},spike,30,Write,${rule}`,
        `${tue},PROJ-2,12,Review,${rule}`,
        `${wed},OPS-9,60,Write,${rule}`,
        '',
      ]);
      // Other Days…: a value that is no period keeps the box open with why, the days typed next are copied.
      const boxes: Box[] = [];
      const validations: Validation[] = [];
      await withWizardAnswers(
        { pick: 'Other Days…', typed: ['last week', `${wed} ${tue}`, `${wed}..${wed}`], boxes, validations },
        () => vscode.commands.executeCommand('timeTracker.copyWeekByTicket'),
      );
      assert.match(boxes[0]?.value ?? '', /^\d{4}-\d\d-01 \d{4}-\d\d-\d\d$/, 'this month so far offered');
      assert.deepEqual(
        validations.map(({ message, accepted }) => [message, accepted]),
        [
          ['Type a day such as 2026-12-01, or the first and the last: 2026-11-01 2026-11-30.', false],
          ['The last day must not come before the first.', false],
          [`From ${wed} to ${wed}.`, true],
        ],
      );
      assert.deepEqual((await vscode.env.clipboard.readText()).split('\n'), [
        `Week by ticket, Chosen Days (${wed}): 1h, rounded up to 6 minutes per ticket and day`,
        `${wed} OPS-9 1h Write`,
        `${wed} total 1h`,
        '',
      ]);
    } finally {
      await config().update('branchTime.roundTo', undefined, vscode.ConfigurationTarget.Global);
      await store.update((book) => ({ ...book, rows: book.rows.filter((row) => row.root !== SEEDED_ROOT) }));
    }
  });

  it('copies this week by ticket from the palette with Enter, and says a period without time instead of copying', async () => {
    const SEEDED_ROOT = '/srv/ticket-today-app';
    const atMs = Date.now();
    const today: LedgerRow = {
      day: dayOf(atMs),
      root: SEEDED_ROOT,
      repository: 'ticket-today-app',
      branch: 'feature/TODAY-5-banner',
      activityID: '6F1C1D2E-0A0B-4C0D-8E0F-0000000000D1',
      activityName: 'Banner work',
      ms: 125_000,
      firstMs: atMs - 125_000,
      lastMs: atMs,
    };
    const store = new LedgerStore(storageFolder(api), { now: () => Date.now(), keepDays: () => 90 });
    await store.update((book) => ({ ...book, rows: [...book.rows, today] }));
    try {
      const asked = await answering(() => vscode.commands.executeCommand('timeTracker.copyWeekByTicket'));
      assert.equal(asked[0]?.title, 'Copy Week by Ticket as Text');
      const text = await vscode.env.clipboard.readText();
      assert.match(text, /^Week by ticket, This Week \(/);
      assert.match(text, new RegExp(`^${today.day} TODAY-5 2m Banner work$`, 'm'));
    } finally {
      await store.update((book) => ({ ...book, rows: book.rows.filter((row) => row.root !== SEEDED_ROOT) }));
    }
    await vscode.env.clipboard.writeText('before');
    const shown = await notificationsDuring(() =>
      vscode.commands.executeCommand('timeTracker.copyWeekByTicket', { fromDay: '2001-01-01', toDay: '2001-01-07' }),
    );
    assert.deepEqual(
      shown.map(({ message }) => message),
      ['No time by branch from 2001-01-01 to 2001-01-07: it is counted while the app tracks an activity.'],
    );
    assert.equal(await vscode.env.clipboard.readText(), 'before');
  });

  it("copies the branch a row's context menu is opened on, and only it", async () => {
    const asked = await answering(() =>
      vscode.commands.executeCommand('timeTracker.copyBranchSummary', {
        type: 'branch',
        kind: 'today',
        root,
        branch: 'feature',
      }),
    );
    assert.deepEqual(asked, [], 'no question: the row says what to copy');
    const text = await vscode.env.clipboard.readText();
    assert.match(text, /^feature: /m);
    assert.doesNotMatch(text, /^main\b/m);
  });

  it('exports the period as CSV through the save dialog, and says where, with Open', async () => {
    const file = vscode.Uri.file(join(mkdtempSync(join(tmpdir(), 'branch-csv-')), 'today.csv'));
    const offered: (vscode.Uri | undefined)[] = [];
    const shown = await notificationsDuring(() =>
      withSaveDialog(file, offered, () =>
        vscode.commands.executeCommand('timeTracker.exportBranchTimeCsv', { period: 'today' }),
      ),
    );
    assert.match(offered[0]?.path ?? '', /\/time-by-branch-\d{4}-\d\d-\d\d\.csv$/);
    const lines = readFileSync(file.fsPath, 'utf8').split('\r\n');
    assert.equal(lines[0], '\uFEFFdate,repository,branch,ticket,activity,seconds');
    assert.ok(
      lines.some((line) => /^\d{4}-\d\d-\d\d,[^,]+,feature,,Branch work,\d+$/.test(line)),
      lines.join(' | '),
    );
    assert.ok(
      lines.some((line) => /^\d{4}-\d\d-\d\d,[^,]+,main,,Branch work,\d+$/.test(line)),
      lines.join(' | '),
    );
    assert.deepEqual(
      shown.map(({ buttons }) => buttons),
      [['Open']],
    );
    assert.match(shown[0]?.message ?? '', /^Exported \d+ rows of time by branch \(Today\) to .*today\.csv\.$/);
  });

  it('keeps the history when Clear History is answered with Enter: Cancel is the default', async () => {
    const before = await api.branchTimeSummary('today');
    assert.ok(before.repositories.length > 0, 'there is history to keep');
    const asked = await answering(() => vscode.commands.executeCommand('timeTracker.clearBranchHistory'));
    assert.equal(asked.length, 1);
    assert.equal(asked[0]?.taken, 'Cancel');
    assert.deepEqual(await api.branchTimeSummary('today'), before);
  });

  it('clears every row when Clear History is chosen, and then has nothing to export, without a save dialog', async () => {
    await answering(
      () => vscode.commands.executeCommand('timeTracker.clearBranchHistory'),
      (labels) => labels.find((label) => label.includes('Clear History')),
    );
    assert.deepEqual((await api.branchTimeSummary('today')).repositories, []);
    const offered: (vscode.Uri | undefined)[] = [];
    const shown = await notificationsDuring(() =>
      withSaveDialog(undefined, offered, () =>
        vscode.commands.executeCommand('timeTracker.exportBranchTimeCsv', { period: 'all' }),
      ),
    );
    assert.deepEqual(offered, [], 'no save dialog');
    assert.deepEqual(
      shown.map(({ message }) => message),
      ['No time by branch for All Kept Days: there is nothing to export.'],
    );
  });
});
