// The branch-time ledger as a timesheet is billed from, in real windows of the packaged extension:
// two windows of one code-server (two pages of one browser context, as in ./twoWindows.mjs), each
// on its own git repository, the second with the ledger turned off by its own workspace settings
// (a private repository). Tracking runs in the app; on the way:
//   - a real git switch in the first window's repository;
//   - a stop and a start of another activity in the app between two polls;
//   - the focus on the ledger-off window for a while: that time is recorded nowhere, not given to
//     the window that had the focus before;
//   - the first window's page reloaded (a new extension host) while another page has the focus,
//     so the window that owns the time restarts in the background.
// The ledger must then hold the app's tracked time, less the stretch the ledger-off window owned
// and the seconds the reloaded window was not running, within one poll interval at each edge
// where the app stopped something; nothing on the second repository, and nothing twice.
/* global document */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { repoRoot } from '../host/common.mjs';
import { StatusBarProbe } from '../host/workbench.mjs';
import { bringToFront, firstFocus, gitRepository, ledgerFile, ownersIn, settledRows } from './twoWindows.mjs';

/** The suite's interval (./checks.mjs): a focused window asks every 2 s. */
const POLL_SECONDS = 2;
const FIRST = 'Billable: first task';
const SECOND = 'Billable: second task';
/** A window's first look includes its start and its extension host's, as ./twoWindows.mjs gives it. */
const OPENING_MS = 90_000;

export async function billableTimeCheck({ run, dirs, pageA, gitA, workspaceA, authority, token, port }) {
  const workspaceB = join(run.runDir, 'private-repository');
  gitRepository(workspaceB);
  mkdirSync(join(workspaceB, '.vscode'), { recursive: true });
  writeFileSync(
    join(workspaceB, '.vscode', 'settings.json'),
    `${JSON.stringify({ 'timeTracker.branchTime.enabled': false }, null, 2)}\n`,
  );
  const file = ledgerFile(dirs);
  const context = pageA.context();
  const pageB = await context.newPage();
  pageB.on('pageerror', (error) => console.error(`[private page] ${error.message}`));
  const elsewhere = await context.newPage();
  const { ServiceClient } = createRequire(import.meta.url)(join(repoRoot, 'dist', 'client.js'));
  const client = new ServiceClient({ token, port });
  try {
    await pageB.goto(`http://${authority}/?folder=${encodeURIComponent(workspaceB)}`, {
      waitUntil: 'domcontentloaded',
      timeout: 60_000,
    });
    await new StatusBarProbe(pageB, dirs.screenshots).waitFor(
      / (?:< 1m|\d+m|\d+h(?: \d+m)?) · today|Not tracking/,
      OPENING_MS,
    );
    for (const page of [pageA, pageB]) await realFocus(page);
    await firstFocus(pageA, pageB, file);
    const windowA = ownersIn(file).at(-1)?.window;
    // The branch the checks before left the first repository on.
    const firstBranch = execFileSync('git', ['rev-parse', '--abbrev-ref', 'HEAD'], {
      cwd: workspaceA,
      encoding: 'utf8',
    }).trim();

    const startedAt = Date.now();
    await client.startActivity({ name: FIRST, createIfMissing: true });
    await delay(8_000);
    gitA('checkout', '-q', '-b', 'billable/second-branch');
    await delay(6_000);
    // Between two polls of a window that asks every 2 s: the app's answer alone tells the two apart.
    const { durationSeconds: firstSeconds } = await client.stopActivity();
    await client.startActivity({ name: SECOND, createIfMissing: true });
    await delay(8_000);

    await bringToFront(pageB, pageA, file);
    const privateClaim = ownersIn(file).at(-1);
    if (privateClaim === undefined || privateClaim.window === windowA)
      throw new Error('the ledger-off window did not take the focus in the ledger');
    await delay(10_000);
    await bringToFront(pageA, pageB, file);
    const owners = ownersIn(file);
    const backToA =
      owners[
        owners.findIndex((owner) => owner.window === privateClaim.window && owner.sinceMs === privateClaim.sinceMs) + 1
      ];
    if (backToA === undefined)
      throw new Error(`the first window's claim after the ledger-off one is missing: ${JSON.stringify(owners)}`);
    const privateSeconds = (backToA.sinceMs - privateClaim.sinceMs) / 1000;
    await delay(6_000);

    // The focus goes to something that is no VS Code window: the first window still owns the time.
    await elsewhere.goto('about:blank');
    await elsewhere.bringToFront();
    await pageA.waitForFunction(() => !document.hasFocus(), undefined, { timeout: 5_000, polling: 100 });
    const reloadedAt = Date.now();
    await pageA.reload({ waitUntil: 'domcontentloaded', timeout: 60_000 });
    await new StatusBarProbe(pageA, dirs.screenshots).waitFor(
      new RegExp(`${SECOND} (?:< 1m|\\d+m|\\d+h(?: \\d+m)?)`),
      OPENING_MS,
    );
    const outageSeconds = (Date.now() - reloadedAt) / 1000;
    // Chromium gives a reloaded page the focus back (playwright's emulation of it returns with the
    // new document), so the window's new extension host starts focused and claims the time: the
    // restart of a window in the background, with no claim at all, is held by the unit tests of
    // the ledger's owners. Said in the result, so a change of that shows.
    const reloadedFocused = await pageA.evaluate(() => document.hasFocus());
    await realFocus(pageA);
    await delay(10_000);
    // The last stretch with the first window in front, so that the stop costs one 2 s interval at most.
    await bringToFront(pageA, pageB, file);
    await delay(4_000);
    const { durationSeconds: secondSeconds } = await client.stopActivity();

    for (const page of [pageA, pageB]) await new StatusBarProbe(page, dirs.screenshots).waitFor(/Not tracking/, 30_000);
    // Moves of the focus write what each window kept in memory.
    await bringToFront(pageB, pageA, file);
    await bringToFront(pageA, pageB, file);
    const rows = (await settledRows(file)).filter((row) => row.activityName === FIRST || row.activityName === SECOND);
    const claims = claimsSince(ownersIn(file), startedAt);
    return judge(rows, {
      reloadedFocused,
      claims,
      firstBranch,
      firstSeconds,
      secondSeconds,
      privateSeconds,
      outageSeconds,
      workspaceA,
      workspaceB,
    });
  } finally {
    await client.close();
    await elsewhere.close().catch(() => undefined);
    await pageB.close().catch(() => undefined);
  }
}

/** Turns off playwright's emulation of the focus for the page (see ./twoWindows.mjs): bringToFront moves it. */
async function realFocus(page) {
  const devtools = await page.context().newCDPSession(page);
  await devtools.send('Emulation.setFocusEmulationEnabled', { enabled: false });
}

/**
 * The claims of the focus from `sinceMs` on, for a failure's message: window (its first characters) at seconds since.
 */
function claimsSince(owners, sinceMs) {
  return (
    owners
      .filter((owner) => owner.sinceMs >= sinceMs)
      .map((owner) => `${owner.window.slice(0, 8)} at ${((owner.sinceMs - sinceMs) / 1000).toFixed(1)} s`)
      .join(', ') || 'none'
  );
}

/**
 * Everything on the first repository, both activities there, and the total the app tracked less
 * what the ledger-off window owned and the reload's outage: never more (nothing twice, nothing of
 * the private window's stretch), and less by at most one poll interval at each of the two stops
 * (the seconds between a stop and the poll before it are not seen by any window).
 */
function judge(
  rows,
  {
    reloadedFocused,
    claims,
    firstBranch,
    firstSeconds,
    secondSeconds,
    privateSeconds,
    outageSeconds,
    workspaceA,
    workspaceB,
  },
) {
  const shown =
    rows
      .map((row) => `${row.repository}/${row.branch} ${row.activityName} ${(row.ms / 1000).toFixed(1)} s`)
      .join(', ') || 'no rows';
  const total = rows.reduce((sum, row) => sum + row.ms, 0) / 1000;
  const tracked = firstSeconds + secondSeconds;
  // The app counts whole seconds from a start cut to the second.
  const most = tracked - privateSeconds + 1;
  const least = tracked - privateSeconds - outageSeconds - 2 * POLL_SECONDS - 1;
  const figures = `${total.toFixed(1)} s in the ledger; the app tracked ${tracked} s, the ledger-off window owned ${privateSeconds.toFixed(1)} s, the reload took ${outageSeconds.toFixed(1)} s; claims of the focus since the start: ${claims}; the reloaded page ${reloadedFocused ? 'had' : 'did not have'} the focus`;
  const elsewhere = rows.filter((row) => row.root !== workspaceA);
  if (elsewhere.some((row) => row.root === workspaceB))
    throw new Error(`the ledger-off repository has time (${figures}): ${shown}`);
  if (elsewhere.length > 0) throw new Error(`time on a repository neither window was on: ${shown}`);
  for (const [name, branch] of [
    [FIRST, firstBranch],
    [FIRST, 'billable/second-branch'],
    [SECOND, 'billable/second-branch'],
  ]) {
    if (!rows.some((row) => row.activityName === name && row.branch === branch && row.ms > 0))
      throw new Error(`no time for ${name} on ${branch}: ${shown}`);
  }
  if (!(total >= least && total <= most))
    throw new Error(`${figures} (wanted ${least.toFixed(1)} to ${most.toFixed(1)} s): ${shown}`);
  return `${figures}: ${shown}`;
}
