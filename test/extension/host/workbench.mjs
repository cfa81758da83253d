// What the packaged suite (test/extension/packaged/checks.mjs) and scripts/screenshots.mjs (the
// README's status bar screenshots) share: the .vsix built as `npm run package` builds it, its
// contents listed and checked, installed into a clean code-server, the workbench opened in
// chromium without any extension development or test path, and a probe of the extension's status
// bar item as it is on screen, and of the extension's "Get Started" walkthrough as its page shows it.
/* global document, window */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, chromiumPath, repoRoot } from './common.mjs';
import { ensureCodeServer, isInstalled, missingPrerequisites } from './install.mjs';
import { inspectVsix, packageVsix } from './vsix.mjs';

export const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
/** The status bar item's DOM id starts with the extension's id. */
export const extensionId = `${manifest.publisher}.${manifest.name}`;
const itemSelector = `.statusbar-item[id^="${extensionId}."]`;

export async function timed(title, work) {
  console.log(title);
  const started = Date.now();
  const result = await work();
  console.log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

/**
 * Everything before the app starts: prerequisites, code-server, the bundles (esbuild unless
 * `noBuild`), the run's folders, and the .vsix packaged on a copy of the tree, then listed and
 * checked (it throws when the package is not fit to ship).
 */
export async function preparePackage(run, { noBuild }) {
  const problems = missingPrerequisites({ browser: chromiumPath, build: !isInstalled() });
  if (problems.length > 0) throw new Error(`missing prerequisites:\n  ${problems.join('\n  ')}`);
  const { entry } = ensureCodeServer();
  if (!noBuild) build('build (esbuild)', process.execPath, ['esbuild.mjs']);
  for (const file of ['server.js', 'client.js']) {
    if (!existsSync(join(repoRoot, 'dist', file)))
      throw new Error(`dist/${file} is missing: run \`npm run build\` first.`);
  }
  const { runDir, dirs, isolation, configFile } = run.makeDirs(['workspace', 'screenshots']);
  const vsix = join(runDir, 'x.vsix');
  await timed('> package the .vsix (vsce package, with its vscode:prepublish)', () =>
    packageVsix(repoRoot, join(runDir, 'package'), vsix),
  );
  checkContents(vsix);
  return { entry, dirs, isolation, configFile, vsix };
}

/** Lists every file of the .vsix with its size; throws with what is wrong when it is not fit to ship. */
function checkContents(vsix) {
  const { bytes, entries, problems } = inspectVsix(vsix, { publisher: manifest.publisher, name: manifest.name });
  const files = entries.filter((entry) => !entry.name.endsWith('/'));
  console.log(`  ${files.length} files, ${bytes} bytes (${(bytes / 1024).toFixed(0)} KiB):`);
  for (const { name, size } of files) console.log(`    ${String(size).padStart(8)}  ${name}`);
  if (problems.length > 0) {
    const shown = problems.slice(0, 10);
    if (problems.length > shown.length) shown.push(`and ${problems.length - shown.length} more`);
    throw new Error(`the .vsix is not fit to ship:\n  ${shown.join('\n  ')}`);
  }
}

/**
 * Installs the .vsix into the run's clean extensions folder, writes the user settings (the base
 * ones and `settings`), starts code-server with `env`, and opens the workbench on the workspace
 * folder. Settings that turn Workspace Trust on open it in Restricted Mode. A second call (other
 * `dirs`) opens a second window in the run's browser. Resolves to the page, code-server and a
 * probe of the status bar item.
 */
export async function openWorkbench(run, prepared, { settings, env, deviceScaleFactor = 1, colorScheme = 'light' }) {
  const { entry, dirs, isolation, configFile } = prepared;
  await timed('> install the .vsix into a clean code-server', () => installVsix(run, prepared));
  // Machine-scoped settings go to the Machine settings too (HostRun.writeUserSettings says why).
  run.writeUserSettings(dirs, settings);
  const codeServer = await run.startCodeServer(entry, {
    dirs,
    configFile,
    cwd: dirs.workspace,
    env: { ...isolation, ...env },
    until: Date.now() + 60_000,
    workspaceTrust: settings['security.workspace.trust.enabled'] === true,
    announce: (authority) =>
      console.log(`> code-server on ${authority}, no extension development path: only the installed .vsix`),
  });
  const browser = run.browser ?? (await run.launchBrowser(isolation));
  // A context of its own rather than browser.newPage's: a check may open a second window in it.
  const context = await browser.newContext({ viewport: { width: 1280, height: 720 }, deviceScaleFactor, colorScheme });
  await codeServer.logIn(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[page] ${error.message}`));
  await page.goto(`http://${codeServer.authority}/?folder=${encodeURIComponent(dirs.workspace)}`, {
    waitUntil: 'domcontentloaded',
    timeout: 60_000,
  });
  return { page, codeServer, statusBar: new StatusBarProbe(page, dirs.screenshots) };
}

export function installVsix(run, { entry, vsix, dirs, configFile, isolation }) {
  const result = spawnSync(
    process.execPath,
    [entry, ...run.codeServerArgs({ dirs, configFile }), '--install-extension', vsix, '--force'],
    {
      encoding: 'utf8',
      env: { ...process.env, ...isolation, EXTENSIONS_GALLERY: '{}' },
      timeout: 60_000,
    },
  );
  const said = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  if (run.verbose) console.log(said);
  const installed = readdirSync(dirs.extensions).find((name) => name.startsWith(`${extensionId}-`));
  if (result.status !== 0 || installed === undefined) {
    throw new Error(
      `code-server --install-extension failed (${result.status ?? result.signal ?? result.error?.message}): ${said}`,
    );
  }
  console.log(`  installed as ${installed}`);
}

/**
 * Runs `checks` (pairs of title and async function resolving to a line for the report) in order,
 * one line each. Each builds on the state the one before left, so after a failure the rest are
 * not run; `onFailure` shows what helps (the status bar's items are always printed). Resolves to
 * `{ passes, failures }` for HostRun.execute.
 */
export async function runChecks(run, { heading, checks, statusBar, onFailure }) {
  const outcome = { passes: 0, failures: 0 };
  console.log(`\n  ${heading}`);
  for (const [title, check] of checks) {
    // The signal handler reports and exits; what follows would only describe the teardown.
    if (run.interrupted) return outcome;
    if (outcome.failures > 0) {
      console.log(`    - ${title}: not run (an earlier check failed)`);
      outcome.failures++;
      continue;
    }
    const started = Date.now();
    try {
      const detail = await check();
      console.log(`    ✔ ${title} (${((Date.now() - started) / 1000).toFixed(1)} s): ${detail}`);
      outcome.passes++;
    } catch (error) {
      outcome.failures++;
      if (run.interrupted) return outcome;
      console.error(`    ✘ ${title}: ${error instanceof Error ? error.message : String(error)}`);
      console.error(`      status bar: ${JSON.stringify(await statusBar.allItems().catch(() => []))}`);
      await statusBar.page.screenshot({ path: join(statusBar.screenshotsDir, 'failure.png') }).catch(() => undefined);
      onFailure();
    }
  }
  return outcome;
}

/** Reads the extension's status bar item from the workbench's DOM, as it is on screen. */
export class StatusBarProbe {
  constructor(page, screenshotsDir) {
    this.page = page;
    this.screenshotsDir = screenshotsDir;
  }

  /**
   * Waits, polling the DOM, until the item's text matches `pattern` (with its first group other
   * than `changedFrom`, when given); resolves with the text and the match. Rejects after `ms`,
   * saying what the item shows instead.
   */
  async waitFor(pattern, ms, { changedFrom } = {}) {
    const handle = await this.page
      .waitForFunction(
        ({ prefix, source, changedFrom }) => {
          const item = [...document.querySelectorAll('.statusbar-item')].find((element) =>
            element.id.startsWith(prefix),
          );
          const text = item?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
          const match = new RegExp(source).exec(text);
          return match !== null && (changedFrom === undefined || match[1] !== changedFrom) ? text : false;
        },
        { prefix: extensionId, source: pattern.source, changedFrom },
        { timeout: ms, polling: 100 },
      )
      .catch(() => undefined);
    if (handle !== undefined) {
      const text = await handle.jsonValue();
      return { text, match: pattern.exec(text) };
    }
    const now = await this.item();
    const wanted = `${String(pattern)}${changedFrom === undefined ? '' : ` with a time other than ${changedFrom}`}`;
    throw new Error(
      `the status bar item did not show ${wanted} within ${ms / 1000} s; it shows ${now === undefined ? 'nothing (no such item)' : `"${now.text}"`}`,
    );
  }

  async item() {
    return (await this.allItems()).find((item) => item.id.startsWith(extensionId));
  }

  allItems() {
    return this.page.evaluate(() =>
      [...document.querySelectorAll('.statusbar-item')].map((element) => ({
        id: element.id,
        text: element.textContent?.replace(/\s+/g, ' ').trim() ?? '',
      })),
    );
  }

  /**
   * Everything the item tells without being opened: its text, every label and title in it (what
   * a screen reader speaks), and its hover (the tooltip), shown by pointing at it as a user does.
   * The pointer is moved away after, so the hover closes.
   */
  async told() {
    const { text, labels } = await this.page.evaluate((prefix) => {
      const item = [...document.querySelectorAll('.statusbar-item')].find((element) => element.id.startsWith(prefix));
      const elements = item === undefined ? [] : [item, ...item.querySelectorAll('*')];
      const labels = elements.flatMap((element) =>
        ['aria-label', 'title']
          .map((name) => element.getAttribute(name))
          .filter((value) => value !== null && value !== ''),
      );
      return { text: item?.textContent?.replace(/\s+/g, ' ').trim() ?? '', labels };
    }, extensionId);
    const hover = await this.pointAt();
    const tooltip = ((await hover.textContent()) ?? '').replace(/\s+/g, ' ').trim();
    await this.pointAway();
    return { text, labels, tooltip };
  }

  /** Points at the item, as a user does, and resolves to its hover (the tooltip) once it is on screen. */
  async pointAt() {
    await this.page.locator(itemSelector).hover({ timeout: 5_000 });
    const hover = this.page.locator('.workbench-hover, .monaco-hover').filter({ hasText: /\S/ }).first();
    await hover.waitFor({ state: 'visible', timeout: 10_000 });
    return hover;
  }

  /** Moves the pointer off the item, so its hover closes. */
  async pointAway() {
    await this.page.mouse.move(640, 360);
    await this.page.keyboard.press('Escape');
  }

  /** Runs a command from the palette by its title, as a user does. */
  async runCommand(title) {
    await this.page.mouse.click(640, 360);
    await this.page.keyboard.press('F1');
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill(`>${title}`);
    await this.page
      .locator('.quick-input-widget .monaco-list-row', { hasText: title })
      .first()
      .waitFor({ timeout: 10_000 });
    await input.press('Enter');
  }

  /** Clicks the item, as a user does; it opens the item's menu, in every state. */
  async click() {
    await this.page.locator(itemSelector).click({ timeout: 5_000 });
  }

  /**
   * Clicks the item and picks the menu entry whose label contains `label`, as a user does.
   * Resolves to the menu's placeholder and the labels it listed.
   */
  async chooseInMenu(label) {
    await this.click();
    const rows = this.page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
    await rows.first().waitFor({ state: 'visible', timeout: 10_000 });
    const placeholder = await this.page
      .locator('.quick-input-widget .quick-input-box input')
      .getAttribute('placeholder');
    const labels = (await rows.allTextContents()).map((text) => text.replace(/\s+/g, ' ').trim());
    if (label === undefined) await this.page.keyboard.press('Escape');
    else await rows.filter({ hasText: label }).first().click({ timeout: 5_000 });
    return { placeholder, labels };
  }

  /**
   * Whether the item's text ends inside the item's box, as laid out on screen: VS Code clips an
   * item wider than its limit, and what is clipped (the time, after a long name) is not seen
   * although it is still in the DOM's text. Resolves to the pixels the text runs past the edge.
   */
  textOverflow() {
    return this.page.evaluate((prefix) => {
      const item = [...document.querySelectorAll('.statusbar-item')].find((element) => element.id.startsWith(prefix));
      if (item === undefined) return Number.POSITIVE_INFINITY;
      const range = document.createRange();
      range.selectNodeContents(item);
      const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
      const textRight = Math.max(...rects.map((rect) => rect.right));
      // The edges that clip it: the item's own (VS Code limits an item's width), the status bar's, the window's.
      const statusBar = item.closest('.part.statusbar');
      const edge = Math.min(
        item.getBoundingClientRect().right,
        statusBar?.getBoundingClientRect().right ?? Number.POSITIVE_INFINITY,
        window.innerWidth,
      );
      return Math.max(0, Math.round(textRight - edge));
    }, extensionId);
  }

  /**
   * The item alone, as a user sees it (its own padding and background, nothing around it), with
   * the pointer moved away and the focus taken off it first (a click leaves it focused, and the
   * Set Token box gives the focus back to it), so that no hover background, tooltip or focus
   * outline is in the picture. Resolves to the PNG's size in bytes.
   */
  async screenshotItem(file) {
    await this.page.mouse.move(640, 360);
    await this.page.evaluate(() => {
      const focused = document.activeElement;
      if (focused?.closest('.part.statusbar') && 'blur' in focused) focused.blur();
    });
    const png = await this.page
      .locator(itemSelector)
      .screenshot({ path: file, animations: 'disabled', timeout: 5_000 });
    return png.length;
  }

  /**
   * The item and its hover (the tooltip) in one picture, as a user pointing at it sees them: the page clipped to the
   * box around both. Resolves to the PNG's size in bytes; the pointer is moved away after, so the hover closes.
   */
  async screenshotItemWithHover(file) {
    const hover = await this.pointAt();
    const boxes = [await this.page.locator(itemSelector).boundingBox(), await hover.boundingBox()];
    if (boxes.includes(null)) throw new Error('the status bar item or its hover has no box on screen');
    const x = Math.min(...boxes.map((box) => box.x)) - 4;
    const y = Math.min(...boxes.map((box) => box.y)) - 4;
    const right = Math.max(...boxes.map((box) => box.x + box.width)) + 4;
    const bottom = Math.max(...boxes.map((box) => box.y + box.height));
    const clip = { x, y, width: right - x, height: bottom - y };
    const png = await this.page.screenshot({ path: file, clip, animations: 'disabled' });
    await this.pointAway();
    return png.length;
  }
}

/** A step of the getting-started page. */
const STEP_SELECTOR = '.gettingStartedContainer button.getting-started-step[data-step-id]';

/**
 * The extension's walkthrough as a user opens it (the palette's "Welcome: Open Walkthrough...",
 * then its title in the list) and as its page shows it: each step's id (the part after the last
 * "#") and whether its checkbox is ticked. The getting-started page is workbench DOM, not a
 * webview: a step is a `button.getting-started-step` whose codicon `[data-done-step-id]` carries
 * `complete` (and `aria-checked="true"`) when VS Code counts the step done.
 */
/**
 * Closes every notification as a user does: the pointer over a toast shows its close button, a
 * click closes it. Waits until none is on screen.
 */
export async function clearNotifications(page) {
  const toasts = page.locator('.notifications-toasts .notification-toast');
  for (let left = 20; left > 0 && (await toasts.count()) > 0; left--) {
    const toast = toasts.first();
    await toast.hover({ timeout: 5_000 });
    await toast.locator('.codicon-notifications-clear').click({ timeout: 5_000 });
  }
  if ((await toasts.count()) > 0) throw new Error('the notifications did not close');
}

export class WalkthroughProbe {
  /** The manifest's one walkthrough: its English title (package.nls.json) and its steps' ids. */
  static manifestWalkthrough() {
    const [walkthrough] = manifest.contributes.walkthroughs;
    const strings = JSON.parse(readFileSync(join(repoRoot, 'package.nls.json'), 'utf8'));
    return {
      title: strings[walkthrough.title.replace(/^%|%$/g, '')],
      stepIds: walkthrough.steps.map((step) => step.id),
    };
  }

  constructor(page, title) {
    this.page = page;
    this.title = title;
  }

  async open() {
    await this.page.mouse.click(640, 360);
    await this.page.keyboard.press('F1');
    const input = this.page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: 10_000 });
    await input.fill('>Welcome: Open Walkthrough...');
    await this.page
      .locator('.quick-input-widget .monaco-list-row', { hasText: 'Open Walkthrough...' })
      .first()
      .waitFor({ timeout: 10_000 });
    await input.press('Enter');
    await this.page
      .locator('.quick-input-widget .monaco-list-row', { hasText: this.title })
      .first()
      .waitFor({ timeout: 15_000 });
    await input.fill(this.title);
    await input.press('Enter');
    await this.page.locator(STEP_SELECTOR).first().waitFor({ timeout: 15_000 });
  }

  /**
   * The page alone, as a user sees it in a window wide and tall enough for the steps beside
   * their text (the viewport is put back after), with the notifications closed as a user closes
   * them and the pointer moved off it. Resolves to the PNG's size in bytes.
   */
  async screenshot(file) {
    const viewport = this.page.viewportSize();
    await clearNotifications(this.page);
    await this.page.setViewportSize({ width: 1600, height: 1000 });
    try {
      await this.page.mouse.move(0, 0);
      await this.mediaShown(10_000);
      const png = await this.page
        .locator('.gettingStartedContainer')
        .screenshot({ path: file, animations: 'disabled', timeout: 5_000 });
      return png.length;
    } finally {
      if (viewport !== null) await this.page.setViewportSize(viewport);
    }
  }

  /**
   * Resolves once the selected step's media (markdown, drawn in a webview: an iframe in an
   * iframe) shows a heading, or after `ms` without one (the picture then has the steps alone).
   */
  async mediaShown(ms) {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      for (const frame of this.page.frames()) {
        if (frame === this.page.mainFrame()) continue;
        const heading = await frame.evaluate(() => document.querySelector('h1, h2')?.textContent ?? '').catch(() => '');
        if (heading.trim() !== '') return;
      }
      await this.page
        .waitForEvent('framenavigated', { timeout: Math.max(1, Math.min(500, until - Date.now())) })
        .catch(() => undefined);
    }
    console.log("  the walkthrough's media showed no heading in time; the picture has the steps alone");
  }

  /**
   * Closes the walkthrough's editor as a user does, with its tab's close button. Left open, the
   * page takes the focus back now and then (it focuses its selected step when it draws itself
   * again), and VS Code hides a quick input that loses the focus: a command palette or picker
   * opened after it may close before anything is chosen in it.
   */
  async close() {
    const tab = this.page.locator('.tabs-container .tab', { hasText: 'Walkthrough' });
    await tab.hover({ timeout: 5_000 });
    await tab.locator('.codicon-close').click({ timeout: 5_000 });
    await this.page.locator('.gettingStartedContainer').waitFor({ state: 'detached', timeout: 10_000 });
  }

  /** Each step the page lists, in order: `{ id, done }`. */
  steps() {
    return this.page.evaluate(
      (selector) =>
        [...document.querySelectorAll(selector)].map((step) => {
          const box = step.querySelector('[data-done-step-id]');
          return {
            id: (step.getAttribute('data-step-id') ?? '').split('#').pop(),
            done: box?.classList.contains('complete') === true && box.getAttribute('aria-checked') === 'true',
          };
        }),
      STEP_SELECTOR,
    );
  }

  /**
   * Waits, polling the DOM, until the page shows every step of `ids` ticked; rejects after `ms`
   * saying which steps it shows and how.
   */
  async waitForDone(ids, ms) {
    const done = await this.page
      .waitForFunction(
        ({ wanted, selector }) => {
          const shown = [...document.querySelectorAll(selector)];
          return wanted.every((id) =>
            shown.some(
              (step) =>
                step.getAttribute('data-step-id')?.endsWith(`#${id}`) &&
                step.querySelector('[data-done-step-id].complete') !== null,
            ),
          );
        },
        { wanted: ids, selector: STEP_SELECTOR },
        { timeout: ms, polling: 100 },
      )
      .then(() => true)
      .catch(() => false);
    const steps = await this.steps();
    if (!done) {
      const shown = steps.map(({ id, done }) => `${id} ${done ? 'ticked' : 'not ticked'}`).join(', ');
      throw new Error(
        `the walkthrough did not show ${ids.join(', ')} ticked within ${ms / 1000} s; it shows ${shown || 'no steps'}`,
      );
    }
    return steps;
  }
}
