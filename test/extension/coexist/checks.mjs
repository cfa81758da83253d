// The `coexist` entry of test/suites.mjs: the packaged extension and the app's own VS Code extension
// (NowDoing.nowdoing-vscode: the real one from TT_PEER_VSIX, else the stand-in, ./peer.mjs) installed
// side by side in one code-server window, both reaching the same app as the app's own extension finds
// it: the reference server on a Unix socket, announced in the capability file under the window's
// HOME, with the X-NowDoing-* headers (test/bench/extension/peer.mjs listenAsTheApp). The workspace is
// a real git repository, switched with git from outside, as a user's terminal would:
//   1. ours says once that the app's own extension reports branch switches, with Open Settings;
//   2. a switch reaches the app once (the app's own extension reports it; ours steps aside);
//   3. the user's settings file is as the window opened with it: no extension wrote another's
//      settings, nor its own.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { repoRoot } from '../host/common.mjs';
import { openWorkbench, runChecks, timed } from '../host/workbench.mjs';
import { installPeer, listenAsTheApp } from '../../bench/extension/peer.mjs';
import { gitRepository } from '../packaged/twoWindows.mjs';
import { peerVsix } from './peer.mjs';

const SAID = 'reports branch switches in this window, so this one does not';
/** The settings an extension would write to settle who reports branches or shows the activity. */
const CHOICES = /^(nowdoing|clessira)\.(enabled|show\w+)$|^timeTracker\.(git\.reportBranchChanges|statusBar\.format)$/;
/** The app's extension waits this long after a switch (nowdoing.debounceMs, set for the test). */
const DEBOUNCE_MS = 300;
/**
 * After the reports a switch should bring, how long nothing more may come: the debounce and the
 * git extension's own delay in noticing HEAD, with room. A report that never comes cannot be awaited.
 */
const QUIET_MS = DEBOUNCE_MS + 5000;

export default async function coexistChecks(run, prepared) {
  const { dirs } = prepared;
  const peer = await timed("> the app's own extension to install beside ours", () => peerVsix(run.runDir));
  console.log(`  ${peer.which}`);
  const { createReferenceServer } = createRequire(import.meta.url)(join(repoRoot, 'out', 'src', 'server', 'server.js'));
  const reports = [];
  const server = createReferenceServer({
    token: randomBytes(24).toString('hex'),
    headerPrefix: 'NowDoing',
    onRequest: (_line, record) =>
      void (record.method === 'POST' && record.path === '/branch-changed' && reports.push(record)),
  });
  const home = join(run.runDir, 'home');
  const app = await listenAsTheApp(server, home);
  try {
    const git = gitRepository(dirs.workspace);
    const installed = installPeer(run, { ...prepared, vsix: peer.vsix });
    const { page, statusBar } = await openWorkbench(run, prepared, {
      settings: { 'timeTracker.headerPrefix': 'NowDoing', 'nowdoing.debounceMs': DEBOUNCE_MS },
      env: { HOME: home },
    });
    const settingsFile = join(dirs['user-data'], 'User', 'settings.json');
    const opened = readFileSync(settingsFile, 'utf8');
    const switchTo = async (branch, expected) => {
      const before = reports.length;
      git('checkout', '-q', '-b', branch);
      await until(
        () => reports.length >= before + expected,
        30_000,
        () => `${reports.length - before} reports`,
      );
      await delay(QUIET_MS);
      const got = reports.length - before;
      if (got !== expected) throw new Error(`the switch to ${branch} reached the app ${got} times, not ${expected}`);
      return `${got} POST /branch-changed (${reports
        .slice(before)
        .map((record) => record.status)
        .join(', ')})`;
    };
    const checks = [
      [
        'both extensions run in the window, ours connected to the app the other finds',
        async () => {
          const { text } = await statusBar.waitFor(/Not tracking/, 90_000);
          // The git extension shows the branch once it has opened the repository: the app's extension
          // follows it from then.
          await page.locator('.statusbar-item', { hasText: 'main' }).first().waitFor({ timeout: 60_000 });
          return `ours: "${text}"; installed beside it: ${installed.id} ${installed.version}`;
        },
      ],
      ["ours says once that the app's own extension reports branch switches", () => saidOnce(page)],
      ['a switch reaches the app once', () => switchTo('feature-beside', 1)],
      [
        "the user's settings are as the window opened with them",
        () => {
          const now = readFileSync(settingsFile, 'utf8');
          if (JSON.stringify(JSON.parse(now)) !== JSON.stringify(JSON.parse(opened)))
            throw new Error(`the user settings changed:\n${opened}\n→\n${now}`);
          // What the question of earlier versions wrote, even before the window had opened.
          const chosen = Object.keys(readJson(settingsFile)).filter((key) => CHOICES.test(key));
          if (chosen.length > 0) throw new Error(`the user settings hold ${chosen.join(', ')}`);
          return `${Object.keys(JSON.parse(now)).length} settings, none changed`;
        },
      ],
    ];
    return await runChecks(run, {
      heading: `coexist: ours beside ${peer.which}`,
      checks,
      statusBar,
      onFailure: () => console.error(`      the app got ${reports.length} POST /branch-changed in all`),
    });
  } finally {
    await app.close();
  }
}

/** The message's toast, once, with its button to the setting. */
async function saidOnce(page) {
  const toast = page.locator('.notifications-toasts .notification-toast', { hasText: SAID });
  await toast.first().waitFor({ timeout: 60_000 });
  const count = await page.locator('.notification-list-item', { hasText: SAID }).count();
  if (count !== 1) throw new Error(`the message shows ${count} times`);
  const buttons = (await toast.first().locator('.monaco-button').allTextContents()).map((text) => text.trim());
  if (!buttons.includes('Open Settings')) throw new Error(`its buttons are ${JSON.stringify(buttons)}`);
  return JSON.stringify(buttons);
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return {};
  }
}

/** Waits for `condition` (polled: the app's requests arrive in this process), else throws saying what there was. */
async function until(condition, ms, said) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms / 1000} s: ${said()}`);
    await delay(100);
  }
}
