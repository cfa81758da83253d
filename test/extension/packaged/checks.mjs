// The `packaged` entry of test/suites.mjs: the PACKAGED extension, checked as a user would see it.
// The launcher (../host/launch.mjs) has built the .vsix as `npm run package` does, listed and
// checked its contents (a package holding sources, tests, maps or node_modules, or of 1 MB or
// more, fails the suite) and made a clean code-server (../host/workbench.mjs preparePackage).
// These checks install it, start the reference server as `npm run serve` would, open the workbench
// in chromium WITHOUT any extension development or test path, and watch the real status bar item:
//   0. the suite's own code-server answers nothing but its login page without the password;
//   1. "Not tracking" while the app runs and nothing is tracked;
//   1b. a window nobody uses asks six times less often while nothing runs, and at once when used;
//   2. the activity's name with its time counting on, once a script starts it through the signed API;
//   2b. with Toggle Private Status Bar (the palette), no name and no digit in the item's text, its
//      labels or its hover; toggled back, the name again;
//   3. the "Get Started" walkthrough, opened only now, shows all four steps ticked (each was
//      true before the page opened: the app answers, a token, connected, tracking);
//   4. a 105-character name cut with "…", the time still inside the item as laid out on screen;
//   5. two windows (a second page on a second git repository, ./twoWindows.mjs) share the
//      branch-time ledger: real git switches in both and the focus traded between them leave time
//      on all four branches, and the total is the app's tracked time, counted once;
//   5a. two windows, the second with the ledger off by its workspace settings, a stop and a start
//      in the app between polls and a reload of the first in the background: the ledger holds the
//      app's time less the ledger-off window's stretch, on the first repository only
//      (./billableTime.mjs);
//   5b. windows opening on a folder, then a branch, that workspace settings link start the linked
//      activity once while nothing runs, and a reload while something else runs starts nothing
//      (./linkedOpening.mjs);
//   6. "offline" once the app is gone;
//   7. a click on the item opens its menu there, with Log Time in it.
// Each is one test, and the result is data (`{ passes, failures }`), as from a mocha suite.
// `npm run screenshots` (scripts/screenshots.mjs) walks the same packaged extension through every
// state for the README's pictures.
//
// The token reaches the extension as a user without a stored one would give it: SERVICE_TOKEN in
// code-server's environment (the extension falls back to it when SecretStorage has none).
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { freePort, repoRoot, stopGroup } from '../host/common.mjs';
import { MAX_VSIX_BYTES, shippingProblems } from '../host/vsix.mjs';
import { openWorkbench, runChecks, timed, WalkthroughProbe } from '../host/workbench.mjs';
import { linkedOpeningChecks } from './linkedOpening.mjs';
import { loginCheck } from './login.mjs';
import { billableTimeCheck } from './billableTime.mjs';
import { gitRepository, twoWindowsCheck } from './twoWindows.mjs';

const activityName = 'Review packaged build';
/** 105 characters: longer than VS Code lets an item be at 1280 px, were it not cut. */
const longName =
  'Prepare the quarterly report with every figure the board asked for and the notes of the last two meetings';

/** Runs the checks in `run` (a HostRun) on the package `prepared` by preparePackage. */
export default async function packagedChecks(run, prepared) {
  // Hex: a base64url token may start with "-", which reads as an option.
  const token = randomBytes(24).toString('hex');
  const port = await freePort();
  const server = await timed(`> reference server: node dist/server.js --port ${port} --token …`, async () => {
    const started = run.spawnOwned(
      'server',
      process.execPath,
      [join(repoRoot, 'dist', 'server.js'), '--port', String(port), '--token', token],
      { cwd: repoRoot, env: {} },
    );
    try {
      await started.waitFor(/^listening on \S+$/m, 10_000);
    } catch (error) {
      started.show();
      throw error;
    }
    return started;
  });

  // A repository, for the branch-time ledger's two windows.
  const gitA = gitRepository(prepared.dirs.workspace);
  const { page, codeServer, statusBar } = await openWorkbench(run, prepared, {
    // The shortest allowed interval, so each change shows within seconds rather than ten.
    settings: { 'timeTracker.port': port, 'timeTracker.pollIntervalSeconds': 2 },
    env: { SERVICE_TOKEN: token },
  });

  const checks = [
    ['the package check refuses source maps, tests, sources, node_modules, other files and 1 MB', checkTheCheck],
    [
      "the suite's code-server asks for its password: without it / redirects to the login, with the browser's session the workbench",
      () => loginCheck({ page, authority: codeServer.authority, folder: prepared.dirs.workspace }),
    ],
    [
      'shows "Not tracking" with today\'s total while the app runs idle',
      async () => {
        // The first look includes the workbench's start and the extension's activation.
        const { text } = await statusBar.waitFor(/Not tracking/, 45_000);
        if (!/today 0m/.test(text)) throw new Error(`expected today's total "today 0m" in "${text}"`);
        return `"${text}"`;
      },
    ],
    [
      'a window nobody uses asks at a sixth of the pace while nothing runs, and at once when it is used again',
      () => unusedWindowCheck({ page, server }),
    ],
    [
      'shows the activity a script started, its time counting on in whole minutes',
      async () => {
        const { ServiceClient } = createRequire(import.meta.url)(join(repoRoot, 'dist', 'client.js'));
        const client = new ServiceClient({ token, port });
        try {
          await client.startActivity({ name: activityName, createIfMissing: true });
        } finally {
          await client.close();
        }
        const tracking = new RegExp(`${activityName} (< 1m|\\d+m|\\d+h(?: \\d+m)?) ·`);
        const { match } = await statusBar.waitFor(tracking, 15_000);
        // Counting on: the time changes on its own, at its next whole minute.
        const { text } = await statusBar.waitFor(tracking, 65_000, { changedFrom: match[1] });
        return `"${text}"`;
      },
    ],
    [
      'with Toggle Private Status Bar, neither the text, nor a label, nor the hover holds the name or a time',
      async () => {
        await statusBar.runCommand('Time Tracker: Toggle Private Status Bar');
        await statusBar.waitFor(/^Tracking$/, 10_000);
        const { text, labels, tooltip } = await statusBar.told();
        // The hover's last paragraph names the port the app answers on: digits, but no time.
        const words = [text, ...labels, tooltip.replace(/Connected through .*$/, '')];
        const telling = words.filter((said) => /Review|\d/.test(said));
        if (telling.length > 0) throw new Error(`the private item still tells: ${JSON.stringify(telling)}`);
        if (!/private/.test(tooltip)) throw new Error(`the hover does not say the item is private: "${tooltip}"`);
        await statusBar.runCommand('Time Tracker: Toggle Private Status Bar');
        await statusBar.waitFor(new RegExp(`${activityName} (?:< 1m|\\d+m|\\d+h(?: \\d+m)?)`), 10_000);
        return `"${text}", labels ${JSON.stringify(labels)}, hover "${tooltip}"`;
      },
    ],
    [
      'the "Get Started" walkthrough opened now shows the four steps done before it opened as ticked',
      async () => {
        const { title, stepIds } = WalkthroughProbe.manifestWalkthrough();
        const probe = new WalkthroughProbe(page, title);
        await probe.open();
        const steps = await probe.waitForDone(stepIds, 5_000);
        // Left open, it takes the focus back from the menu the last check opens.
        await probe.close();
        return steps.map(({ id, done }) => `${id} ${done ? '✔' : '✘'}`).join(', ');
      },
    ],
    [
      'cuts a 105-character name so that the time stays in view',
      async () => {
        const { ServiceClient } = createRequire(import.meta.url)(join(repoRoot, 'dist', 'client.js'));
        const client = new ServiceClient({ token, port });
        try {
          await client.startActivity({ name: longName, createIfMissing: true });
        } finally {
          await client.close();
        }
        const { text } = await statusBar.waitFor(
          /Prepare the quarterly report with every… (?:< 1m|\d+m|\d+h(?: \d+m)?) · today \d+m$/,
          15_000,
        );
        const overflow = await statusBar.textOverflow();
        if (overflow > 0) throw new Error(`the item's text runs ${overflow} px past its visible edge: "${text}"`);
        return `"${text}", all of it inside the item`;
      },
    ],
    [
      'two windows on two repositories, real git switches and the focus traded: time on every branch, counted once',
      () =>
        twoWindowsCheck({
          run,
          dirs: prepared.dirs,
          pageA: page,
          gitA,
          workspaceA: prepared.dirs.workspace,
          authority: codeServer.authority,
          token,
          port,
        }),
    ],
    [
      "two windows, one with the ledger off, a stop and a start between polls and a reload: the ledger holds the app's time, less what the ledger-off window owned",
      () =>
        billableTimeCheck({
          run,
          dirs: prepared.dirs,
          pageA: page,
          gitA,
          workspaceA: prepared.dirs.workspace,
          authority: codeServer.authority,
          token,
          port,
        }),
    ],
    ...linkedOpeningChecks({ run, dirs: prepared.dirs, page, authority: codeServer.authority, token, port, server }),
    [
      'shows "offline" once the app is gone',
      async () => {
        await stopGroup(server.child);
        const { text } = await statusBar.waitFor(/offline/, 20_000);
        return `"${text}"`;
      },
    ],
    [
      'opens the menu on a click while offline, with Log Time first',
      async () => {
        const { placeholder, labels } = await statusBar.chooseInMenu(undefined);
        if (!/^Log Time…/.test(labels[0] ?? '')) throw new Error(`the menu lists ${JSON.stringify(labels)}`);
        if (!/^Choose what to do while the app is not answering/.test(placeholder ?? ''))
          throw new Error(`the menu's placeholder is "${placeholder}"`);
        return `"${placeholder}": ${labels.join(' | ')}`;
      },
    ],
  ];

  return runChecks(run, {
    heading: 'packaged extension',
    checks,
    statusBar,
    onFailure: () => {
      codeServer.show();
      server.show();
    },
  });
}

/**
 * The poll's pace in a focused window (the page) while nothing runs, read from the reference
 * server's request lines: VS Code counts a window unused (`WindowState.active`) 40 to 70 s after
 * its last key, click or touch (its workbench looks every 30 s, then waits 10 s more), and from
 * then on the extension asks every 12 s instead of every 2 s; a key makes it ask within the
 * interval, and at the interval while keys follow.
 */
async function unusedWindowCheck({ page, server }) {
  const statusPolls = () => (server.text().match(/GET \/status\b/g) ?? []).length;
  /**
   * When the first poll after the `seen`-th came (counted now unless given: a poll may land before the wait begins).
   */
  const nextPoll = async (ms, seen = statusPolls()) => {
    // Anchored, and each step stops at the next request line: no backtracking over the log.
    await server.waitFor(new RegExp(`^(?:(?:(?!GET /status\\b)[\\s\\S])*GET /status\\b){${seen + 1}}`), ms);
    return Date.now();
  };
  let last = await nextPoll(10_000);
  // Until the pace has slowed (no input has come since the page opened, but when it opened is not ours to know).
  const slowBy = Date.now() + 120_000;
  for (;;) {
    const at = await nextPoll(20_000);
    const gap = at - last;
    last = at;
    if (gap >= 5_000) break;
    if (at > slowBy) throw new Error(`polls still came ${gap} ms apart two minutes into a window nobody used`);
  }
  const unusedGaps = [];
  for (let i = 0; i < 2; i++) {
    const at = await nextPoll(20_000);
    unusedGaps.push(at - last);
    last = at;
  }
  if (unusedGaps.some((gap) => gap < 10_000))
    throw new Error(`unused, polls came ${unusedGaps.join(', ')} ms apart, not about 12 s`);
  // A key 3 s after the last poll: at the interval (2 s) a poll is due, so it asks now, not 3 s later.
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, last + 3_000 - Date.now())));
  const seenBeforeKey = statusPolls();
  const pressed = Date.now();
  await page.keyboard.press('Shift');
  const answered = (await nextPoll(5_000, seenBeforeKey)) - pressed;
  if (answered > 2_000)
    throw new Error(`used again 3 s after a poll, the next poll came ${answered} ms after the key, not at once`);
  const usedFrom = statusPolls();
  for (let i = 0; i < 9; i++) {
    await page.keyboard.press('Shift');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  const used = statusPolls() - usedFrom;
  if (used < 3) throw new Error(`with a key every second for 9 s, the extension asked ${used} times, not every 2 s`);
  return `unused: polls ${unusedGaps.join(' and ')} ms apart; a key 3 s after a poll: asked ${answered} ms later; used for 9 s: ${used} polls`;
}

/**
 * The contents check above passed the real package; this shows it would refuse a bad one: each
 * name below, added to a good package, must be the one problem found, and so must the size limit.
 */
function checkTheCheck() {
  const good = [
    'extension.vsixmanifest',
    '[Content_Types].xml',
    'extension/package.json',
    'extension/dist/extension.js',
    'extension/readme.md',
    'extension/media/icon.png',
  ];
  const bad = [
    'extension/dist/extension.js.map',
    'extension/src/extension/extension.ts',
    'extension/test/extension/host/vsix.mjs',
    'extension/out/test/unit/tracker/poller.test.js',
    'extension/lib/poller.test.js',
    'extension/types/index.d.ts',
    'extension/node_modules/undici/index.js',
    'extension/dist/server.js',
    'extension/dist/transport.js',
    'extension/esbuild.mjs',
  ];
  const wrong = [];
  if (shippingProblems(good, MAX_VSIX_BYTES - 1).length > 0)
    wrong.push(`a good package of ${MAX_VSIX_BYTES - 1} bytes was refused`);
  if (shippingProblems(good, MAX_VSIX_BYTES).length !== 1)
    wrong.push(`a package of ${MAX_VSIX_BYTES} bytes was not refused`);
  for (const name of bad) {
    if (shippingProblems([...good, name], 1000).length !== 1) wrong.push(`a package holding ${name} was not refused`);
  }
  if (wrong.length > 0) throw new Error(wrong.join('; '));
  return `refused ${bad.length} packages with a file that must not ship, and one of 1 MB`;
}
