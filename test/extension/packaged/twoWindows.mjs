// The real-host check of the branch-time ledger: TWO windows of one code-server (two pages
// of one browser context, each on its own git repository, each with its own extension host) share
// one user-data dir, so one global storage and one branch-time.json. Tracking runs in the app;
// the user switches branches with real git in each repository and moves between the windows; the
// ledger must then hold time on every branch of both repositories, and its total for the activity
// must be the app's tracked time (less at most the poll or two each end costs), never once per
// window.
//
// Focus in headless chromium: playwright emulates focus for every page (each page's
// document.hasFocus() is true, always), so VS Code's `window.state.focused` never changes. With
// that emulation turned off through the DevTools protocol (Emulation.setFocusEmulationEnabled),
// two pages of ONE context behave as two windows of a desktop browser: page.bringToFront() moves
// the focus, the page left gets `blur` and hasFocus() false, the one brought up `focus` and true
// (two contexts would not do: each keeps its own focus). VS Code's browser host reads exactly
// that (document.hasFocus() on focus, blur and visibilitychange), so the extension hosts see
// onDidChangeWindowState as on a desktop.
/* global document */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { repoRoot } from '../host/common.mjs';
import { extensionId, StatusBarProbe } from '../host/workbench.mjs';

const POLL_SECONDS = 2;
/** A window in the background polls three times less often (src/tracker/model/poller.ts). */
const BACKGROUND_POLL_SECONDS = 3 * POLL_SECONDS;
const activityName = 'Two windows, two repositories';

/** A git repository at `folder` on `main`, with one commit; returns a function running git there. */
export function gitRepository(folder) {
  mkdirSync(folder, { recursive: true });
  const git = (...args) =>
    execFileSync('git', ['-c', 'user.name=Tests', '-c', 'user.email=tests@example.invalid', ...args], {
      cwd: folder,
      stdio: 'ignore',
    });
  git('init', '-q', '-b', 'main');
  git('commit', '-q', '--allow-empty', '-m', 'start');
  return git;
}

/** The ledger file every window of this code-server shares: <user-data>/User/globalStorage/<id>/. */
export function ledgerFile(dirs) {
  return join(dirs['user-data'], 'User', 'globalStorage', extensionId.toLowerCase(), 'branch-time.json');
}

/**
 * The check. `pageA` is the workbench on `workspaceA` (a repository made by gitRepository); a
 * second page opens on a second repository in the same browser context. Resolves to the line for
 * the report; throws saying what the ledger holds when it does not add up.
 */
export async function twoWindowsCheck({ run, dirs, pageA, gitA, workspaceA, authority, token, port }) {
  const workspaceB = join(run.runDir, 'second-repository');
  const gitB = gitRepository(workspaceB);
  const file = ledgerFile(dirs);
  const pageB = await pageA.context().newPage();
  pageB.on('pageerror', (error) => console.error(`[page B] ${error.message}`));
  try {
    await pageB.goto(`http://${authority}/?folder=${encodeURIComponent(workspaceB)}`, {
      waitUntil: 'domcontentloaded',
      timeout: 60_000,
    });
    // Window B's extension host is up once its status bar item shows the app's state.
    await new StatusBarProbe(pageB, dirs.screenshots).waitFor(
      / (?:< 1m|\d+m|\d+h(?: \d+m)?) · today|Not tracking/,
      90_000,
    );
    for (const page of [pageA, pageB]) {
      const devtools = await page.context().newCDPSession(page);
      await devtools.send('Emulation.setFocusEmulationEnabled', { enabled: false });
    }
    const attempts = await firstFocus(pageA, pageB, file);

    const { ServiceClient } = createRequire(import.meta.url)(join(repoRoot, 'dist', 'client.js'));
    const client = new ServiceClient({ token, port });
    let trackedSeconds;
    try {
      await client.startActivity({ name: activityName, createIfMissing: true });
      // A's window on main, then on a branch of its own; B's likewise; then back to A.
      await delay(8_000);
      gitA('checkout', '-q', '-b', 'feature/A-1');
      await delay(8_000);
      await bringToFront(pageB, pageA, file);
      await delay(8_000);
      gitB('checkout', '-q', '-b', 'topic/B-2');
      await delay(8_000);
      await bringToFront(pageA, pageB, file);
      await delay(6_000);
      ({ durationSeconds: trackedSeconds } = await client.stopActivity());
    } finally {
      await client.close();
    }
    // Both windows have seen the app idle; a move of the focus writes what each kept in memory.
    for (const page of [pageA, pageB]) await new StatusBarProbe(page, dirs.screenshots).waitFor(/Not tracking/, 30_000);
    await bringToFront(pageB, pageA, file);
    await bringToFront(pageA, pageB, file);
    const rows = await settledRows(file);
    return `${judge(rows, trackedSeconds, { repositoryA: workspaceA, repositoryB: workspaceB })} (A's first focus: attempt ${attempts})`;
  } finally {
    await pageB.close().catch(() => undefined);
  }
}

/**
 * Brings `front` up and waits until the focus has moved there from `back`, as the pages see it
 * (VS Code reads the same, document.hasFocus() on focus and blur), and until `front`'s window has
 * written its claim of the focus to the ledger (a claim is written even by a window that owned
 * the time already). VS Code shows no mark of a window's focus in the web workbench's DOM: the
 * claim is what tells that its extension host heard of it.
 */
export async function bringToFront(front, back, file, ms = 10_000) {
  const claims = ownersIn(file).length;
  await front.bringToFront();
  // And a click into its editor area, as a user moving to a window does: with no element focused
  // in the page (the walkthrough closed), the window's own focus event alone did not reach VS Code.
  await front.locator('.part.editor').click({ timeout: 5_000 });
  await front.waitForFunction(() => document.hasFocus(), undefined, { timeout: 5_000, polling: 100 });
  await back.waitForFunction(() => !document.hasFocus(), undefined, { timeout: 5_000, polling: 100 });
  await waitUntil(
    () => ownersIn(file).length > claims,
    ms,
    'the window brought to the front did not write its claim of the focus to the ledger',
  );
}

/**
 * The first move of the focus to A after the emulation was turned off. A's workbench believed it
 * had the focus all along; seen with code-server 4.100.3, its first blur and focus after that
 * sometimes never reach its extension host (no claim is written), while every later move does.
 * So B comes up first, and the move is made again, up to three times, until A's claim is written.
 */
export async function firstFocus(pageA, pageB, file) {
  for (let attempt = 1; ; attempt++) {
    await pageB.bringToFront();
    await pageA.waitForFunction(() => !document.hasFocus(), undefined, { timeout: 5_000, polling: 100 });
    // A blur followed at once by a focus is one non-event to the workbench: a second between them.
    await delay(1_000);
    try {
      await bringToFront(pageA, pageB, file, 5_000);
      return attempt;
    } catch (error) {
      if (attempt === 3) throw error;
    }
  }
}

/** The focus claims in the ledger file, oldest first; none before the file exists. */
export function ownersIn(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8')).owners;
  } catch {
    return [];
  }
}

export async function waitUntil(condition, ms, failure) {
  for (const until = Date.now() + ms; !condition(); await delay(100)) {
    if (Date.now() > until) throw new Error(failure);
  }
}

/**
 * The ledger's rows once no window has written for three seconds (the writes the focus moves
 * started have landed), within 30 s.
 */
export async function settledRows(file) {
  const until = Date.now() + 30_000;
  let last;
  let since = Date.now();
  while (Date.now() < until) {
    const stamp = statSync(file, { throwIfNoEntry: false })?.mtimeMs;
    if (stamp !== last) [last, since] = [stamp, Date.now()];
    else if (stamp !== undefined && Date.now() - since >= 3_000) break;
    await delay(250);
  }
  return JSON.parse(readFileSync(file, 'utf8')).rows;
}

/** Every branch of both repositories has time, and the total is the app's, less a poll or two each end. */
function judge(allRows, trackedSeconds, { repositoryA, repositoryB }) {
  const rows = allRows.filter((row) => row.activityName === activityName);
  const seconds = (root, branch) =>
    rows.filter((row) => row.root === root && row.branch === branch).reduce((sum, row) => sum + row.ms, 0) / 1000;
  const wanted = [
    [repositoryA, 'main'],
    [repositoryA, 'feature/A-1'],
    [repositoryB, 'main'],
    [repositoryB, 'topic/B-2'],
  ];
  const shown =
    rows.map((row) => `${row.repository}/${row.branch} ${(row.ms / 1000).toFixed(1)} s`).join(', ') || 'no rows';
  const empty = wanted.filter(([root, branch]) => !(seconds(root, branch) > 0));
  if (empty.length > 0)
    throw new Error(
      `no time on ${empty.map(([root, branch]) => `${root} ${branch}`).join(', ')}; the ledger holds ${shown}`,
    );
  const total = rows.reduce((sum, row) => sum + row.ms, 0) / 1000;
  // The first poll after the start and the last before the stop, each at most a background interval away.
  const least = trackedSeconds - 2 * BACKGROUND_POLL_SECONDS;
  // The app counts whole seconds from a start it cut to the second.
  const most = trackedSeconds + 1;
  if (!(total >= least && total <= most))
    throw new Error(
      `the ledger's total is ${total.toFixed(1)} s for ${trackedSeconds} s tracked (wanted ${least} to ${most} s): ${shown}`,
    );
  return `${shown}; ${total.toFixed(1)} s of ${trackedSeconds} s tracked`;
}
