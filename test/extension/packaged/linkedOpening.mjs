// The links' "a window opening on a linked folder or branch while nothing runs starts it the same
// way", in real windows of the packaged extension: a new page of the workbench's browser context is
// a new window with its own extension host, and a page reload is a window reload. Each window
// opens on a folder whose WORKSPACE settings (.vscode/settings.json) hold `timeTracker.links`, as
// a team's links are kept. What the app saw is the reference server's own request lines (the
// `npm run serve` program prints one per request), what the user saw the window's status bar.
//   - a folder link, nothing running: the linked activity starts exactly once (one POST
//     /activities/start), the item says "(linked to this folder)", and no POST /branch-changed;
//   - a branch link (the folder not linked, its branch under a `{ticket}` link), nothing running:
//     the ticket starts once, "(linked to this branch)";
//   - the folder's window reloaded while another activity runs: the link is left alone (the
//     extension logs that it left what runs), nothing starts, what ran still runs, and the question
//     about the repository's links is not asked again;
//   - the folder's window reloaded after Stop Tracking (from its palette): nothing starts, and the
//     status bar says why.
// A repository's links ask first: each new folder's window shows the question, answered "Use Its
// Links" as a user does.
// The windows share the one app and the one code-server (settings, token) of ./checks.mjs.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { repoRoot } from '../host/common.mjs';
import { StatusBarProbe } from '../host/workbench.mjs';
import { gitRepository } from './twoWindows.mjs';

export const FOLDER_ACTIVITY = 'Linked folder work';
const TICKET_BRANCH = 'fix/PROJ-77-opening';
const TICKET = 'PROJ-77';
/** A window's first look includes its start and its extension host's: as long as ./twoWindows.mjs gives it. */
const OPENING_MS = 90_000;

/**
 * The three checks, as [title, check] pairs for runChecks. `page` is the first window (its
 * context opens the others), `server` the app as spawned (its output holds the request lines).
 */
export function linkedOpeningChecks({ run, dirs, page, authority, token, port, server }) {
  const folderWindow = { folder: join(run.runDir, 'linked-folder'), page: undefined };
  const requests = (method, path) =>
    server
      .text()
      .split('\n')
      .filter((line) => new RegExp(`^\\S+ ${method} ${path} \\d+$`).test(line.trim())).length;
  const counts = () => ({
    starts: requests('POST', '/activities/start'),
    reports: requests('POST', '/branch-changed'),
  });
  const client = () => {
    const { ServiceClient } = createRequire(import.meta.url)(join(repoRoot, 'dist', 'client.js'));
    return new ServiceClient({ token, port });
  };
  /** Resolves once nothing runs in the app, as the first window shows it. */
  const nothingRuns = async () => {
    const app = client();
    try {
      if ((await app.getStatus()).isTracking) await app.stopActivity();
    } finally {
      await app.close();
    }
    await new StatusBarProbe(page, dirs.screenshots).waitFor(/Not tracking/, 20_000);
  };
  const open = async (folder) => {
    const opened = await page.context().newPage();
    opened.on('pageerror', (error) => console.error(`[page ${folder}] ${error.message}`));
    await opened.goto(`http://${authority}/?folder=${encodeURIComponent(folder)}`, {
      waitUntil: 'domcontentloaded',
      timeout: 60_000,
    });
    return opened;
  };
  /** The question a repository's links ask, answered as a user does; resolves to its text. */
  const useItsLinks = async (opened) => {
    const toast = opened.locator('.notifications-toasts .notification-toast', { hasText: 'Use its links?' }).first();
    await toast.waitFor({ state: 'visible', timeout: OPENING_MS });
    const question = ((await toast.locator('.notification-list-item-message').textContent()) ?? '')
      .replace(/\s+/g, ' ')
      .trim();
    await toast.locator('.monaco-button', { hasText: 'Use Its Links' }).click({ timeout: 5_000 });
    return question;
  };
  /** A started link's notice, then the same count of starts once the notice is gone: once, not again. */
  const startedOnce = async (opened, notice, before) => {
    const probe = new StatusBarProbe(opened, dirs.screenshots);
    const { text } = await probe.waitFor(notice, OPENING_MS);
    const after = counts();
    // The notice goes after 8 s (LINK_NOTICE_MS); by then a second start would have gone out.
    await probe.waitFor(/ (?:< 1m|\d+m|\d+h(?: \d+m)?) · today/, 20_000);
    const settled = counts();
    if (after.starts - before.starts !== 1 || settled.starts !== after.starts) {
      throw new Error(
        `the app got ${after.starts - before.starts} POST /activities/start by the notice and ${settled.starts - before.starts} in all, not one`,
      );
    }
    if (settled.reports !== before.reports)
      throw new Error(`the opening sent ${settled.reports - before.reports} POST /branch-changed`);
    return `"${text}"; one POST /activities/start, no POST /branch-changed`;
  };

  return [
    [
      'a window opening on a folder its workspace settings link, while nothing runs, starts the linked activity once and reports no branch',
      async () => {
        await nothingRuns();
        gitRepository(folderWindow.folder);
        writeWorkspaceLinks(folderWindow.folder, [
          { folder: 'linked-folder', activity: FOLDER_ACTIVITY, createIfMissing: true },
        ]);
        const before = counts();
        folderWindow.page = await open(folderWindow.folder);
        const question = await useItsLinks(folderWindow.page);
        if (counts().starts !== before.starts) throw new Error('a start went out before the question was answered');
        return `asked "${question}"; ${await startedOnce(folderWindow.page, new RegExp(`^Tracking ${FOLDER_ACTIVITY} \\(linked to this folder\\)$`), before)}`;
      },
    ],
    [
      'a window opening on a branch a {ticket} link names (the folder not linked), while nothing runs, starts the ticket once',
      async () => {
        await nothingRuns();
        const folder = join(run.runDir, 'ticket-repository');
        const git = gitRepository(folder);
        git('checkout', '-q', '-b', TICKET_BRANCH);
        writeWorkspaceLinks(folder, [
          { folder: 'some-other-folder', activity: 'Not this one', createIfMissing: true },
          { branch: 'fix/**', activity: '{ticket}', createIfMissing: true },
        ]);
        const before = counts();
        const opened = await open(folder);
        try {
          await useItsLinks(opened);
          return await startedOnce(opened, new RegExp(`^Tracking ${TICKET} \\(linked to this branch\\)$`), before);
        } finally {
          await opened.close().catch(() => undefined);
        }
      },
    ],
    [
      "the linked folder's window reloaded while another activity runs: nothing starts, what runs is left running",
      async () => {
        if (folderWindow.page === undefined) throw new Error("the linked folder's window is not open");
        const running = 'Review before the reload';
        const app = client();
        try {
          await app.startActivity({ name: running, createIfMissing: true });
        } finally {
          await app.close();
        }
        const probe = new StatusBarProbe(folderWindow.page, dirs.screenshots);
        await probe.waitFor(new RegExp(`^${running} (?:< 1m|\\d+m|\\d+h(?: \\d+m)?)`), 20_000);
        const before = counts();
        await folderWindow.page.reload({ waitUntil: 'domcontentloaded', timeout: 60_000 });
        // The new extension host's link decided, and logged that it left what runs: the moment a start would have gone
        // out.
        const left = await waitFor(
          () => leftLines(dirs).find((line) => line.includes(FOLDER_ACTIVITY) && line.includes(running)),
          OPENING_MS,
          () =>
            `the reloaded window logged no decision of its folder link; ${counts().starts - before.starts} POST /activities/start since the reload (the extension's logs: ${logFiles(dirs).join(', ') || 'none'})`,
        );
        const { text } = await probe.waitFor(new RegExp(`^${running} (?:< 1m|\\d+m|\\d+h(?: \\d+m)?)`), 20_000);
        const after = counts();
        if (after.starts !== before.starts)
          throw new Error(`the reload sent ${after.starts - before.starts} POST /activities/start`);
        if (after.reports !== before.reports)
          throw new Error(`the reload sent ${after.reports - before.reports} POST /branch-changed`);
        if ((await folderWindow.page.locator('.notifications-toasts', { hasText: 'Use its links?' }).count()) > 0)
          throw new Error('the question was asked again after the reload');
        return `"${text}", no start, not asked again; the log: "${left.replace(/^.*\] /, '')}"`;
      },
    ],
    [
      "the linked folder's window reloaded after Stop Tracking: nothing starts, and the status bar says why",
      async () => {
        if (folderWindow.page === undefined) throw new Error("the linked folder's window is not open");
        const probe = new StatusBarProbe(folderWindow.page, dirs.screenshots);
        await probe.runCommand('Time Tracker: Stop Tracking');
        await probe.waitFor(/Not tracking/, 20_000);
        const before = counts();
        await folderWindow.page.reload({ waitUntil: 'domcontentloaded', timeout: 60_000 });
        const said = await probe.waitFor(new RegExp(`^${FOLDER_ACTIVITY} not started$`), OPENING_MS).catch((error) => {
          const lines = logFiles(dirs).flatMap((file) =>
            readFileSync(file, 'utf8')
              .split('\n')
              .filter((line) => line.includes(FOLDER_ACTIVITY)),
          );
          throw new Error(
            `${error.message}; ${counts().starts - before.starts} POST /activities/start since the reload; the extension's last lines on ${FOLDER_ACTIVITY}: ${lines.slice(-3).join(' | ') || 'none'}`,
          );
        });
        const { text } = said;
        await probe.waitFor(/Not tracking/, 20_000);
        const after = counts();
        if (after.starts !== before.starts)
          throw new Error(`the reload after Stop sent ${after.starts - before.starts} POST /activities/start`);
        await folderWindow.page.close().catch(() => undefined);
        folderWindow.page = undefined;
        return `"${text}", no start`;
      },
    ],
  ];
}

/** `.vscode/settings.json` of `folder` with these links: the workspace settings a team commits. */
function writeWorkspaceLinks(folder, links) {
  mkdirSync(join(folder, '.vscode'), { recursive: true });
  writeFileSync(
    join(folder, '.vscode', 'settings.json'),
    `${JSON.stringify({ 'timeTracker.links': links }, null, 2)}\n`,
  );
}

/**
 * The lines, in the extension's log of every extension host of this code-server
 * (<user-data>/logs/<session>/exthost<N>/<extension id>/), in which a link left what runs at a
 * window's opening (src/extension/links/linkController.ts).
 */
function leftLines(dirs) {
  return logFiles(dirs).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => /the window opened while .* runs, which is left running/.test(line)),
  );
}

/** The extension's log files of every extension host so far. */
function logFiles(dirs) {
  const logs = join(dirs['user-data'], 'logs');
  try {
    return readdirSync(logs, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.log') && name.includes('clessira-time-tracker'))
      .sort()
      .map((name) => join(logs, name));
  } catch {
    return [];
  }
}

/** Polls `find` (a file, not an event, is what tells) until it returns a value; throws `failure()` after `ms`. */
async function waitFor(find, ms, failure) {
  for (const until = Date.now() + ms; ; await delay(250)) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error(failure());
  }
}
