// `npm run screenshots`: the README's pictures of the status bar item, one per state, taken from the real workbench in
// the tests' browser rather than drawn. Packages the .vsix as `npm run package` does (its contents listed and checked),
// installs it into a clean code-server without any token, starts the reference server in this process (its controls set
// the license, break, unwired endpoints and clock as the application would), and walks the item through every state the
// way a user and the application get there: no token → a wrong token typed into the Set Token box of the item's menu
// (and Stop there: its error) → the right one → idle → tracking (and the "Get Started" walkthrough opened then,
// every step ticked) → time by branch
// (and a branch row's context menu, This Week's Copy Summary pasted into a new editor, This Week exported as CSV and
// opened, the week by ticket pasted, Log Time's note offered from two commits) → a long name (after time by branch,
// which would show it) → a git switch to a ticket branch that a `{ticket}`
// link starts (its notice, then the menu with Undo Automatic Start once the notice is gone), and Unlink's question
// there → a switch to a branch the repository's own link names, its question waiting in the status bar → private (the
// icon and the state only) → on break → a session started 9 hours ago (the warning colour) → license locked (and Log
// Time then) → a 500-character name typed into Start →
// status not available → clock off → locked
// out (a tool with a wrong token fails until the app locks everyone out) → offline, and the menu a click opens there →
// Start Tracking with the app away (the token cleared, the app's VS Code integration turned on and the app quitting):
// its message. Then a second window, in Restricted Mode: `npm start -- --restricted`'s sample repository (two links in
// its .vscode/settings.json) opened untrusted, with user data of its own, and Use This Repository's Links… there: its
// message, with Manage Workspace Trust. Each state is waited for by reading the item's text in the DOM, then the item
// alone (the walkthrough: its page; the menu: its widget; a message: its toast) is saved (device scale 2, VS Code's
// default dark theme) as media/screenshots/<state>.png. Nothing in media/ changes unless every state was reached; the
// last line is `screenshots: N passed, N failed`.
//
// Time by branch shows a seeded fortnight (test/fixtures/screenshotHistory.ts, written by the
// ledger's own code into the extension's global storage before code-server starts) on three
// repositories, the live window's among them, so its own seconds add to rows that have minutes.
// Every process of the run keeps its clock in the early afternoon (TZ, below), so that today
// has a morning of that history behind it whatever the hour here.
//
// It is an asset tool, not a test: it lives in scripts/ and borrows the host tests' harness
// (test/extension/host/: code-server, chromium, the .vsix and the status bar probe).
//
// Options:
//   --no-build     skip esbuild (dist/ is fresh); the .vsix is always built
//   --verbose      also print code-server's own output
// TT_CHROMIUM_PATH names another chromium than /usr/bin/chromium, as for `npm test`.
/* global document */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';
import { HostRun, repoRoot, stopGroup } from '../test/extension/host/common.mjs';
import { relativeImages } from '../test/extension/host/vsix.mjs';
import {
  clearNotifications,
  extensionId,
  openWorkbench,
  preparePackage,
  runChecks,
  timed,
  WalkthroughProbe,
} from '../test/extension/host/workbench.mjs';
import { RESTRICTED_SETTINGS } from './start/plan.mjs';
import { prepareSampleRepository } from './start/sampleRepository.mjs';

const { values: options } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    verbose: { type: 'boolean', default: false },
  },
});
const { verbose } = options;
const target = join(repoRoot, 'media', 'screenshots');
const require = createRequire(import.meta.url);

// A fixed offset (Etc/GMT-N is UTC+N) that puts local time in the 14:00 hour now: the run's
// processes (code-server, its extension host, chromium, the reference server here) inherit it.
const hoursAhead = 14 - new Date().getUTCHours();
process.env.TZ = `Etc/GMT${hoursAhead >= 0 ? '-' : '+'}${Math.abs(hoursAhead)}`;

const run = new HostRun({ name: 'screenshots', countLabel: 'screenshots', tempPrefix: 'tt-shots-', verbose });

async function main() {
  const prepared = await preparePackage(run, { noBuild: options['no-build'] });
  const { dirs } = prepared;
  const { ServiceClient } = require(join(repoRoot, 'dist', 'client.js'));

  // The reference server in this process, for its controls; bundled fresh from src/ (no tsc needed).
  const { createReferenceServer } = await timed(
    '> reference server, in this process (bundled from src/server/server.ts)',
    async () => {
      const outfile = join(run.runDir, 'reference-server.cjs');
      await esbuild.build({
        entryPoints: [join(repoRoot, 'src', 'server', 'server.ts')],
        outfile,
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node20',
        logLevel: 'warning',
      });
      return require(outfile);
    },
  );
  const { ACTIVITY_NAMES, seedScreenshotHistory } = await timed(
    '> the seeded history, bundled from test/fixtures/screenshotHistory.ts',
    async () => {
      const outfile = join(run.runDir, 'screenshot-history.cjs');
      await esbuild.build({
        entryPoints: [join(repoRoot, 'test', 'fixtures', 'screenshotHistory.ts')],
        outfile,
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node20',
        logLevel: 'warning',
      });
      return require(outfile);
    },
  );
  const token = randomBytes(24).toString('hex');
  const server = createReferenceServer({ token });
  const port = await server.listen(0);
  console.log(`  listening on ${server.url}`);
  // Short: a Unix socket path has room for 107 bytes.
  const integrationDir = mkdtempSync(join(tmpdir(), 'tt-shot-'));
  const capabilityFile = join(integrationDir, 'api-endpoint.json');

  try {
    // A git repository, so that time by branch has branches to show; named as a project would be.
    const workspace = join(dirs.workspace, 'shop-web');
    mkdirSync(workspace);
    const git = (...args) => execFileSync('git', args, { cwd: workspace, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    // The repository's own identity: the note Log Time offers holds your commits only, as git names you here.
    git('config', 'user.name', 'Screenshots');
    git('config', 'user.email', 'screenshots@example.invalid');
    // Made a day before: the note Log Time offers from the last hour's commits is the two the note's picture makes.
    const dayBefore = `@${Math.floor(Date.now() / 1000) - 86_400} +0000`;
    process.env.GIT_COMMITTER_DATE = process.env.GIT_AUTHOR_DATE = dayBefore;
    git('commit', '-q', '--allow-empty', '-m', 'start');
    delete process.env.GIT_COMMITTER_DATE;
    delete process.env.GIT_AUTHOR_DATE;
    // The repository's own link, for release branches: asked about the first time a switch would start it.
    mkdirSync(join(workspace, '.vscode'));
    writeFileSync(
      join(workspace, '.vscode', 'settings.json'),
      `${JSON.stringify({ 'timeTracker.links': [{ branch: 'release/**', activity: 'Release {ticket}' }] }, null, 2)}\n`,
    );
    // The history's activities are the app's, with its ids, so the live window's time joins their rows.
    const activities = Object.fromEntries(ACTIVITY_NAMES.map((name) => [name, server.controls.seedActivity(name)]));
    const storage = join(dirs['user-data'], 'User', 'globalStorage', extensionId.toLowerCase());
    mkdirSync(storage, { recursive: true });
    const seeded = await seedScreenshotHistory(storage, { nowMs: Date.now(), workspaceRoot: workspace, activities });
    console.log(
      `> seeded ${seeded.rows} rows of branch-time history into ${seeded.file} (local time ${new Date().toTimeString()})`,
    );
    const { page, codeServer, statusBar } = await openWorkbench(
      run,
      { ...prepared, dirs: { ...dirs, workspace } },
      {
        // The shortest allowed interval, so each change shows within seconds rather than ten.
        // VS Code's default dark theme, whatever the browser prefers.
        // One `{ticket}` link, for fix branches only: the feature branch of time by branch stays unlinked.
        settings: {
          'timeTracker.port': port,
          'timeTracker.pollIntervalSeconds': 2,
          'workbench.colorTheme': 'Default Dark Modern',
          'timeTracker.links': [{ branch: 'fix/**', activity: '{ticket}', createIfMissing: true }],
          // Rounded as invoices are, for the week by ticket's picture.
          'timeTracker.branchTime.roundTo': 6,
          // A pasted line wider than the editor wraps rather than running off the picture (the week's heading).
          'editor.wordWrap': 'on',
          'editor.minimap.enabled': false,
          // Where the app's VS Code integration announces itself: nothing there until the app-away picture.
          'timeTracker.capabilityFile': capabilityFile,
        },
        // No token anywhere: the first state a new user sees.
        env: { SERVICE_TOKEN: '' },
        deviceScaleFactor: 2,
        colorScheme: 'dark',
      },
    );

    /** The file of the picture `name`, counted as taken: every check takes one. */
    const taken = [];
    const picture = (name) => {
      taken.push(`${name}.png`);
      return join(dirs.screenshots, `${name}.png`);
    };
    /** The box of the Time by Branch pane down to its last row (the pane has room to spare below). */
    const branchTimeBox = async (pane) => {
      const box = await pane.boundingBox();
      const last = await pane.locator('.monaco-list-row').last().boundingBox();
      if (box === null || last === null) throw new Error('the Time by Branch view has no box on screen');
      return { ...box, height: Math.min(box.height, last.y + last.height + 8 - box.y) };
    };
    /** Runs a command from the Command Palette (F1), as a user does. */
    const runCommand = async (title) => {
      await page.keyboard.press('F1');
      const input = page.locator('.quick-input-widget .quick-input-box input');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(`>${title}`);
      await page
        .locator('.quick-input-widget .monaco-list-row', { hasText: title })
        .first()
        .waitFor({ timeout: 10_000 });
      await input.press('Enter');
    };
    /**
     * Pastes the clipboard (Ctrl+V) into a new untitled editor, as a user does, and returns that editor once it shows
     * `text`. The palette row is clicked by its exact title: Enter would take whichever row ranks first (Compare New
     * Untitled Text Files, say).
     */
    const pasteIntoNewEditor = async (text) => {
      await page.keyboard.press('F1');
      await page.locator('.quick-input-widget .quick-input-box input').fill('>New Untitled Text File');
      await page
        .locator('.quick-input-widget .monaco-list-row', { hasText: 'File: New Untitled Text File' })
        .first()
        .click({ timeout: 10_000 });
      const editor = page.locator('.editor-group-container.active');
      await editor.locator('.monaco-editor.focused').waitFor({ timeout: 10_000 });
      await page.keyboard.press('Control+V');
      await editor.locator('.view-lines', { hasText: text }).waitFor({ timeout: 10_000 });
      await page.mouse.move(640, 700);
      return editor;
    };
    /** The quick input's widget, once it lists `text`, with the pointer off its rows. */
    const screenshotQuickInput = async (name, text) => {
      const widget = page.locator('.quick-input-widget');
      await widget
        .locator('.quick-input-list .monaco-list-row', { hasText: text })
        .first()
        .waitFor({ state: 'visible', timeout: 15_000 });
      await page.mouse.move(640, 700);
      const bytes = (await widget.screenshot({ path: picture(name), animations: 'disabled' })).length;
      await page.keyboard.press('Escape');
      return bytes;
    };
    /** Waits for the item to show `pattern`, saves it as <state>.png, and returns the report line. */
    const capture = async (state, pattern, ms = 20_000) => {
      const { text } = await statusBar.waitFor(pattern, ms);
      const bytes = await statusBar.screenshotItem(picture(state));
      return `"${text}" → ${state}.png (${bytes} bytes)`;
    };
    /** A click on the item opens its menu; Set Token there opens the token's input box. */
    const typeToken = async (value) => {
      await statusBar.chooseInMenu('Set Token');
      const input = page.locator('.quick-input-widget .quick-input-box input[type="password"]');
      await input.waitFor({ state: 'visible', timeout: 10_000 });
      await input.fill(value);
      await input.press('Enter');
    };
    const withClient = async (clientToken, work) => {
      const client = new ServiceClient({ token: clientToken, port });
      try {
        return await work(client);
      } finally {
        await client.close();
      }
    };
    const activity = 'Write docs';
    const longName = 'An activity name far longer than the status bar has room for, cut with an ellipsis';
    const tracking = new RegExp(`${activity} (?:< 1m|\\d+m|\\d+h(?: \\d+m)?)`);
    /** Back to the activity the pictures after a detour (a long name, a linked switch) expect. */
    const trackAgain = async () => {
      await withClient(token, (client) => client.startActivity({ name: activity }));
      await statusBar.waitFor(tracking, 20_000);
    };

    const checks = [
      ['no token', () => capture('no-token', /set token/, 45_000)],
      [
        'token rejected (a wrong token typed into Set Token)',
        async () => {
          await typeToken('not-the-token-from-the-app');
          return capture('token-rejected', /token rejected/);
        },
      ],
      [
        'a failed Stop while the token is rejected: an error with Set Token as its button',
        async () => {
          await runCommand('Time Tracker: Stop Tracking');
          const toast = page
            .locator('.notifications-toasts .notification-toast', { hasText: 'Tracking was not stopped' })
            .first();
          await toast
            .locator('.monaco-button', { hasText: 'Set Token' })
            .waitFor({ state: 'visible', timeout: 15_000 });
          await page.mouse.move(640, 200);
          const bytes = (await toast.screenshot({ path: picture('stop-failed'), animations: 'disabled' })).length;
          await clearNotifications(page);
          return `the error → stop-failed.png (${bytes} bytes)`;
        },
      ],
      [
        'idle (the right token; time logged earlier today)',
        async () => {
          await withClient(token, (client) =>
            client.logEntry({ name: 'Code review', durationMinutes: 200, createIfMissing: true }),
          );
          await typeToken(token);
          return capture('idle', /Not tracking/);
        },
      ],
      [
        'tracking (started in the app), its running time in whole minutes',
        async () => {
          await withClient(token, (client) => client.startActivity({ name: activity, createIfMissing: true }));
          await statusBar.waitFor(new RegExp(`${activity} < 1m`), 20_000);
          return capture('tracking', tracking);
        },
      ],
      [
        'the "Get Started" walkthrough opened while tracking: every step ticked',
        async () => {
          const { title, stepIds } = WalkthroughProbe.manifestWalkthrough();
          const walkthrough = new WalkthroughProbe(page, title);
          await walkthrough.open();
          await walkthrough.waitForDone(stepIds, 10_000);
          const bytes = await walkthrough.screenshot(picture('walkthrough'));
          await walkthrough.close();
          return `${stepIds.length} steps ticked → walkthrough.png (${bytes} bytes)`;
        },
      ],
      [
        'time by branch: tracked on main, then on a ticket branch (and the picker opened once, so the app named its activities)',
        async () => {
          await runCommand('Time Tracker: Start Tracking');
          await page
            .locator('.quick-input-widget .monaco-list-row', { hasText: 'Code review' })
            .first()
            .waitFor({ timeout: 15_000 });
          await page.keyboard.press('Escape');
          git('checkout', '-q', '-b', 'feature/PROJ-142-export');
          await runCommand('Focus on Time by Branch View');
          const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Time by Branch' }) });
          await pane
            .locator('.monaco-list-row', { hasText: 'feature/PROJ-142-export' })
            .first()
            .waitFor({ timeout: 120_000 });
          // A taller window, as on a desktop, so that the view shows its three periods whole.
          const viewport = page.viewportSize();
          await page.setViewportSize({ width: 1280, height: 1000 });
          // The folder's section folded, so that the view has the room; one branch open, to show its activities.
          await page.locator('.pane-header', { hasText: 'shop-web' }).first().click();
          await pane
            .locator('.monaco-list-row', { hasText: 'feature/PAY-87-refunds' })
            .first()
            .locator('.monaco-tl-twistie')
            .click();
          await pane.locator('.monaco-list-row', { hasText: 'Code review' }).first().waitFor({ timeout: 10_000 });
          await page.mouse.move(640, 900);
          const bytes = (
            await page.screenshot({
              path: picture('branch-time'),
              clip: await branchTimeBox(pane),
              animations: 'disabled',
            })
          ).length;
          if (viewport !== null) await page.setViewportSize(viewport);
          return `the view → branch-time.png (${bytes} bytes)`;
        },
      ],
      [
        "time by branch: a branch row's context menu (Copy Summary of that branch, plain or Markdown)",
        async () => {
          const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Time by Branch' }) });
          const viewport = page.viewportSize();
          await page.setViewportSize({ width: 1280, height: 1000 });
          const row = pane.locator('.monaco-list-row', { hasText: 'feature/PROJ-142-export' }).first();
          await row.click({ button: 'right' });
          const menu = page.locator('.context-view .monaco-menu').first();
          await menu
            .locator('.action-label', { hasText: 'Copy Summary as Markdown' })
            .first()
            .waitFor({ state: 'visible', timeout: 10_000 });
          // The pane and the menu over it, in one picture.
          const [paneBox, menuBox] = [await branchTimeBox(pane), await menu.boundingBox()];
          if (paneBox === null || menuBox === null)
            throw new Error('the view or its context menu has no box on screen');
          const x = Math.min(paneBox.x, menuBox.x);
          const y = Math.min(paneBox.y, menuBox.y);
          const clip = {
            x,
            y,
            width: Math.max(paneBox.x + paneBox.width, menuBox.x + menuBox.width) - x,
            height: Math.max(paneBox.y + paneBox.height, menuBox.y + menuBox.height) - y,
          };
          const bytes = (await page.screenshot({ path: picture('branch-time-menu'), clip, animations: 'disabled' }))
            .length;
          await page.keyboard.press('Escape');
          await menu.waitFor({ state: 'hidden', timeout: 10_000 });
          if (viewport !== null) await page.setViewportSize(viewport);
          return `the branch row's context menu → branch-time-menu.png (${bytes} bytes)`;
        },
      ],
      [
        "time by branch: Copy Summary from This Week's context menu, pasted (Ctrl+V) into a new editor",
        async () => {
          const pane = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Time by Branch' }) });
          await page
            .context()
            .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: `http://${codeServer.authority}` });
          const viewport = page.viewportSize();
          await page.setViewportSize({ width: 1280, height: 1000 });
          // Today folded, so that the pane's list has This Week's row on screen.
          await pane.locator('.monaco-list-row', { hasText: 'Today' }).first().click();
          await pane.locator('.monaco-list-row', { hasText: 'This Week' }).first().click({ button: 'right' });
          const menu = page.locator('.context-view .monaco-menu').first();
          await menu
            .locator('.action-label', { hasText: /^Copy Summary as Text$/ })
            .first()
            .hover();
          await page.keyboard.press('Enter');
          await menu.waitFor({ state: 'hidden', timeout: 10_000 });
          if (viewport !== null) await page.setViewportSize(viewport);
          const editor = await pasteIntoNewEditor('Time by branch, This Week');
          const bytes = (await editor.screenshot({ path: picture('branch-time-summary'), animations: 'disabled' }))
            .length;
          await runCommand('View: Revert and Close Editor');
          return `the pasted summary → branch-time-summary.png (${bytes} bytes)`;
        },
      ],
      [
        'time by branch: Export Time by Branch as CSV… for This Week, saved through the save dialog, opened from its message',
        async () => {
          await runCommand('Time Tracker: Export Time by Branch as CSV…');
          await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'This Week' }).first().click();
          await page
            .locator('.quick-input-widget .monaco-list-row', { hasText: 'By Day, Branch and Activity' })
            .first()
            .click({ timeout: 10_000 });
          // code-server's save dialog is a quick input holding the proposed path: a path typed there, Enter saves.
          const input = page.locator('.quick-input-widget .quick-input-box input');
          await page.waitForFunction(
            (selector) => document.querySelector(selector)?.value.endsWith('.csv') === true,
            '.quick-input-widget .quick-input-box input',
            { timeout: 10_000 },
          );
          const exports = join(run.runDir, 'exports');
          mkdirSync(exports);
          const file = join(exports, basename(await input.inputValue()));
          await input.fill(file);
          await page.locator('.quick-input-widget .monaco-button', { hasText: /^OK$/ }).click();
          const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Exported' });
          await toast.locator('.monaco-button', { hasText: 'Open' }).click({ timeout: 15_000 });
          const editor = page.locator('.editor-group-container.active');
          await editor
            .locator('.view-lines', { hasText: 'date,repository,branch,ticket,activity,seconds' })
            .waitFor({ timeout: 10_000 });
          await clearNotifications(page);
          await page.mouse.move(640, 700);
          const bytes = (await editor.screenshot({ path: picture('branch-time-csv'), animations: 'disabled' })).length;
          await runCommand('View: Close Editor');
          const rows =
            readFileSync(file, 'utf8')
              .split('\r\n')
              .filter((line) => line !== '').length - 1;
          return `${basename(file)}, ${rows} rows → branch-time-csv.png (${bytes} bytes)`;
        },
      ],
      [
        'Copy Week by Ticket as Text for This Week (rounded up to 6 minutes), pasted (Ctrl+V) into a new editor',
        async () => {
          await runCommand('Time Tracker: Copy Week by Ticket as Text');
          // This Week is the active row: Enter takes it, as a user presses it.
          await page
            .locator('.quick-input-widget .monaco-list-row', { hasText: 'This Week' })
            .first()
            .waitFor({ timeout: 10_000 });
          await page.keyboard.press('Enter');
          const editor = await pasteIntoNewEditor('Week by ticket, This Week');
          const bytes = (await editor.screenshot({ path: picture('week-by-ticket'), animations: 'disabled' })).length;
          await runCommand('View: Revert and Close Editor');
          return `the pasted week → week-by-ticket.png (${bytes} bytes)`;
        },
      ],
      [
        'Log Time after two commits on the branch: the note box offers their subjects',
        async () => {
          for (const subject of ['Export the week by ticket as CSV', 'Round each ticket and day up to 6 minutes'])
            git('commit', '-q', '--allow-empty', '-m', subject);
          await runCommand('Time Tracker: Log Time');
          await page
            .locator('.quick-input-widget .monaco-list-row', { hasText: 'Code review' })
            .first()
            .click({ timeout: 15_000 });
          const input = page.locator('.quick-input-widget .quick-input-box input');
          await page
            .locator('.quick-input-widget', { hasText: 'how long on Code review' })
            .waitFor({ timeout: 10_000 });
          await input.fill('45');
          await input.press('Enter');
          const widget = page.locator('.quick-input-widget', { hasText: 'note for 45m on Code review' });
          await widget.waitFor({ state: 'visible', timeout: 15_000 });
          const said = await widget.innerText();
          if (!said.includes('The subjects of 2 commits'))
            throw new Error(`the note box offers no commits: ${JSON.stringify(said)}, ${await input.inputValue()}`);
          await page.mouse.move(640, 700);
          const bytes = (await widget.screenshot({ path: picture('note-from-commits'), animations: 'disabled' }))
            .length;
          await page.keyboard.press('Escape');
          return `the note box → note-from-commits.png (${bytes} bytes)`;
        },
      ],
      [
        'a long name (cut at timeTracker.statusBar.maxNameLength, 40), the time still in view',
        async () => {
          await withClient(token, (client) => client.startActivity({ name: longName, createIfMissing: true }));
          const line = await capture('long-name', /… (?:< 1m|\d+m|\d+h(?: \d+m)?) · today/);
          await trackAgain();
          return line;
        },
      ],
      [
        'a linked switch: git checkout of a ticket branch under the {ticket} link, the notice up (8 s)',
        async () => {
          git('checkout', '-q', '-b', 'fix/PROJ-123-login');
          return capture('linked-switch', /^Tracking PROJ-123 \(linked to this branch\)$/);
        },
      ],
      [
        "the menu after the linked switch's notice is gone (a click on the item): Undo Automatic Start first, until what runs changes",
        async () => {
          await statusBar.waitFor(/PROJ-123 (?:< 1m|\d+m|\d+h(?: \d+m)?)/, 20_000);
          await statusBar.click();
          const bytes = await screenshotQuickInput('linked-undo-menu', 'Undo Automatic Start');
          // Typed as a user would: "Time Tracker: Undo" + Enter runs it, and what ran before runs again.
          await runCommand('Time Tracker: Undo');
          await statusBar.waitFor(tracking, 20_000);
          return `the menu → linked-undo-menu.png (${bytes} bytes); "Time Tracker: Undo" + Enter restarted ${activity}`;
        },
      ],
      [
        'Unlink on that branch, which the fix/** pattern matched: the question (the pattern for every branch, or only this branch)',
        async () => {
          // Still on fix/PROJ-123-login; Escape in screenshotQuickInput leaves the link as it is.
          await runCommand('Time Tracker: Unlink');
          const bytes = await screenshotQuickInput('unlink-pattern', 'stop only fix/PROJ-123-login');
          return `the question → unlink-pattern.png (${bytes} bytes)`;
        },
      ],
      [
        "a switch to a branch the repository's own link names: its question waits, and the status bar says so",
        async () => {
          git('checkout', '-q', '-b', 'release/SHOP-7');
          const line = await capture('link-question-waiting', /Use its links\?$/);
          // Not Now, on the question itself: the repository's link stays unused in this window.
          const toast = page
            .locator('.notifications-toasts .notification-toast', { hasText: 'Use its links?' })
            .first();
          await toast.locator('.monaco-button', { hasText: 'Not Now' }).click({ timeout: 15_000 });
          await statusBar.waitFor(new RegExp(`^(?!.*Use its links)(?=.*${tracking.source})`), 20_000);
          // Left on this branch: a switch back would start the user's own fix/** link again.
          return line;
        },
      ],
      [
        'private (Toggle Private Status Bar while tracking): the icon and the state only',
        async () => {
          await runCommand('Time Tracker: Toggle Private Status Bar');
          const line = await capture('private', /^Tracking$/);
          await runCommand('Time Tracker: Toggle Private Status Bar');
          await statusBar.waitFor(tracking, 20_000);
          return line;
        },
      ],
      [
        'on break',
        async () => {
          server.controls.setBreak(true);
          const line = await capture('on-break', /On break/);
          server.controls.setBreak(false);
          await statusBar.waitFor(tracking, 20_000);
          return line;
        },
      ],
      [
        'a session started 9 hours ago, past timeTracker.statusBar.longSessionHours: the warning colour, and the tooltip pointed at',
        async () => {
          server.controls.state.startAgo({ name: 'Release notes', createIfMissing: true }, (9 * 60 + 12) * 60_000);
          const { text } = await statusBar.waitFor(/^Release notes 9h 1\dm/, 20_000);
          const bytes = await statusBar.screenshotItemWithHover(picture('long-session'));
          await trackAgain();
          return `"${text}" and its tooltip → long-session.png (${bytes} bytes)`;
        },
      ],
      [
        'license locked',
        async () => {
          server.controls.setLicense('locked');
          const line = await capture('license-locked', /license locked/);
          server.controls.setLicense('valid');
          await statusBar.waitFor(tracking, 20_000);
          return line;
        },
      ],
      [
        'Log Time with the license locked: said before the first step, the entry to be queued',
        async () => {
          server.controls.setLicense('locked');
          await statusBar.waitFor(/license locked/, 20_000);
          await runCommand('Time Tracker: Log Time');
          const bytes = await screenshotQuickInput('log-time-license-locked', 'Code review');
          server.controls.setLicense('valid');
          await statusBar.waitFor(tracking, 20_000);
          return `the picker → log-time-license-locked.png (${bytes} bytes)`;
        },
      ],
      [
        'Start Tracking with a 500-character name pasted: the limit said as it is typed, nothing to create',
        async () => {
          await runCommand('Time Tracker: Start Tracking');
          const input = page.locator('.quick-input-widget .quick-input-box input');
          await input.waitFor({ state: 'visible', timeout: 10_000 });
          await input.fill(`${'Notes from the planning meeting: '.repeat(16).slice(0, 499)}.`);
          const bytes = await screenshotQuickInput('picker-name-too-long', 'At most 200 characters: 500 typed');
          return `the picker → picker-name-too-long.png (${bytes} bytes)`;
        },
      ],
      [
        'status not available (GET /status unwired: 503)',
        async () => {
          server.controls.setUnwired('/status');
          const line = await capture('status-not-available', /status not available/);
          server.controls.setUnwired('/status', false);
          await statusBar.waitFor(tracking, 20_000);
          return line;
        },
      ],
      [
        "clock off (the app's clock 125 s ahead); Check Connection from the item's menu checks again once it is right",
        async () => {
          const now = Date.now;
          server.controls.setClock(() => now() + 125_000);
          const line = await capture('clock-off', /clock is off by \d+ s/);
          server.controls.setClock(now);
          await statusBar.chooseInMenu('Check Connection');
          await statusBar.waitFor(tracking, 20_000);
          return line;
        },
      ],
      [
        'locked out (a tool with a wrong token failed until the app locked everyone out)',
        async () => {
          const failures = await withClient('a-wrong-token-in-some-tool', async (client) => {
            for (let attempt = 1; attempt <= 20; attempt++) {
              const status = await client.getStatus().then(
                () => 200,
                (error) => error.status,
              );
              if (status === 429) return attempt - 1;
              if (status !== 401) throw new Error(`a request with a wrong token got ${status}, not 401 or 429`);
            }
            throw new Error('20 requests with a wrong token did not start a lockout');
          });
          return `${await capture('locked-out', /locked out \(\d+ s\)/)} after ${failures} failed requests`;
        },
      ],
      [
        "offline (the app quit); Check Connection from the item's menu checks at once",
        async () => {
          await server.close();
          await statusBar.chooseInMenu('Check Connection');
          return capture('offline', /offline/);
        },
      ],
      [
        'the menu while offline (a click on the item): Log Time first',
        async () => {
          await statusBar.click();
          const widget = page.locator('.quick-input-widget');
          await widget
            .locator('.quick-input-list .monaco-list-row')
            .first()
            .waitFor({ state: 'visible', timeout: 10_000 });
          const bytes = await screenshotQuickInput('offline-menu', 'Log Time');
          return `the menu → offline-menu.png (${bytes} bytes)`;
        },
      ],
      [
        'Start Tracking while offline: the activities the app named before, and why',
        async () => {
          await runCommand('Time Tracker: Start Tracking');
          const bytes = await screenshotQuickInput('picker-offline', activity);
          return `the picker → picker-offline.png (${bytes} bytes)`;
        },
      ],
      [
        "Start Tracking with the app away (its VS Code integration's file gone, no token): why, and Log Time",
        async () => {
          await runCommand('Time Tracker: Clear Token');
          await statusBar.waitFor(/set token/, 20_000);
          // Its "Removed the token" may still be sliding in: closed by the workbench's own command.
          await runCommand('Notifications: Clear All Notifications');
          // The app with its VS Code integration on, then quitting: its socket and its file go.
          const app = createReferenceServer({ token: randomBytes(24).toString('hex') });
          await app.listenOnSocket(join(integrationDir, 'app.sock'), { capabilityFile });
          try {
            await statusBar.waitFor(/Not tracking/, 20_000);
          } finally {
            await app.close();
          }
          await statusBar.waitFor(/offline/, 20_000);
          // Found in the palette by its title: not hidden in this state.
          await runCommand('Time Tracker: Start Tracking');
          const toast = page
            .locator('.notifications-toasts .notification-toast', { hasText: 'The app is not running' })
            .first();
          await toast.locator('.monaco-button', { hasText: 'Log Time' }).waitFor({ state: 'visible', timeout: 15_000 });
          await page.mouse.move(640, 200);
          const bytes = (await toast.screenshot({ path: picture('start-app-away'), animations: 'disabled' })).length;
          await clearNotifications(page);
          return `the message → start-app-away.png (${bytes} bytes)`;
        },
      ],
      [
        "Use This Repository's Links… in a second window, npm start --restricted's sample repository opened untrusted: why its 2 links are not read",
        async () => {
          // Its own user data and extensions, so that only Workspace Trust differs from a new user's window.
          const own = (name) => join(run.runDir, 'restricted', name);
          for (const name of ['user-data', 'extensions']) mkdirSync(own(name), { recursive: true });
          const window = await openWorkbench(
            run,
            {
              ...prepared,
              dirs: {
                ...dirs,
                'user-data': own('user-data'),
                extensions: own('extensions'),
                workspace: prepareSampleRepository(own('workspace')),
              },
            },
            {
              settings: { ...RESTRICTED_SETTINGS, 'workbench.colorTheme': 'Default Dark Modern' },
              env: { SERVICE_TOKEN: '' },
              deviceScaleFactor: 2,
              colorScheme: 'dark',
            },
          );
          try {
            await window.statusBar.waitFor(/set token/, 45_000);
            await window.statusBar.runCommand("Time Tracker: Use This Repository's Links…");
            const toast = window.page
              .locator('.notifications-toasts .notification-toast', { hasText: 'Restricted Mode' })
              .first();
            await toast
              .locator('.monaco-button', { hasText: 'Manage Workspace Trust' })
              .waitFor({ state: 'visible', timeout: 15_000 });
            await window.page.mouse.move(640, 200);
            const message = (await toast.locator('.notification-list-item-message').textContent())?.trim();
            const bytes = (await toast.screenshot({ path: picture('restricted-links'), animations: 'disabled' }))
              .length;
            return `"${message}" → restricted-links.png (${bytes} bytes)`;
          } finally {
            await window.page.context().close();
            await stopGroup(window.codeServer.child);
          }
        },
      ],
    ];

    const outcome = await runChecks(run, {
      heading: 'status bar item, state by state',
      checks,
      statusBar,
      onFailure: () => codeServer.show(),
    });
    if (outcome.failures === 0 && !run.interrupted) publish(dirs.screenshots, taken);
    return outcome;
  } finally {
    await server.close();
    rmSync(integrationDir, { recursive: true, force: true });
  }
}

/** Replaces media/screenshots/ with this run's pictures, only once every state was captured. */
function publish(from, taken) {
  const pictures = readdirSync(from).filter((name) => name.endsWith('.png') && name !== 'failure.png');
  const notTaken = taken.filter((name) => !pictures.includes(name));
  if (notTaken.length > 0 || pictures.length !== taken.length)
    throw new Error(`expected ${taken.join(', ')}; found ${pictures.join(', ')}`);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  for (const name of pictures) copyFileSync(join(from, name), join(target, name));
  console.log(`\n  ${pictures.length} pictures written to media/screenshots/`);
  const shown = relativeImages(readFileSync(join(repoRoot, 'README.md'), 'utf8')).filter((path) =>
    path.startsWith('media/screenshots/'),
  );
  const unshown = pictures.filter((name) => !shown.includes(`media/screenshots/${name}`));
  const missing = shown.filter((path) => !pictures.includes(path.slice('media/screenshots/'.length)));
  if (unshown.length > 0) console.log(`  README.md does not show ${unshown.join(', ')}`);
  if (missing.length > 0) throw new Error(`README.md shows ${missing.join(', ')}, which this run did not take`);
}

await run.execute(main);
