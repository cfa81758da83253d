// `npm run test:packaged`: the PACKAGED extension, checked as a user would see it. Builds the .vsix
// as `npm run package` does (offline), checks what is inside, installs it into a clean code-server
// (fresh user data and extensions folders), starts the reference server as `npm run serve` would,
// opens the workbench in chromium WITHOUT any extension development or test path, and watches the
// real status bar item:
//   1. "Not tracking" while the app runs and nothing is tracked;
//   2. the activity's name with a ticking time, once a script starts it through the signed API;
//   3. "offline" once the app is gone.
// Each is one test; the last line is `packaged-tests: N passed, N failed`, the exit code 0 only
// when all pass. A problem with the package itself (wrong contents, over 1 MiB) fails the run.
//
// The token reaches the extension as a user without a stored one would give it: SERVICE_TOKEN in
// code-server's environment (the extension falls back to it when SecretStorage has none).
//
// Options:
//   --no-build                 skip esbuild (test/run.mjs has just run it); the .vsix is always built
//   --screenshots              also copy the status bar screenshots to media/screenshots/
//   TT_CHROMIUM_PATH           default /usr/bin/chromium
//   TT_EXTENSION_VERBOSE=1     also print code-server's and the server's own output
/* global document */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build, chromiumPath, freePort, HostRun, repoRoot, stopGroup } from './common.mjs';
import { ensureCodeServer, isInstalled, missingPrerequisites } from './install.mjs';
import { inspectVsix, packageVsix } from './vsix.mjs';

const { values: options } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    screenshots: { type: 'boolean', default: false },
  },
});
const verbose = process.env.TT_EXTENSION_VERBOSE === '1';
const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
/** The status bar item's DOM id starts with the extension's id. */
const extensionId = `${manifest.publisher}.${manifest.name}`;
const activityName = 'Review packaged build';
const screenshotsOut = join(repoRoot, 'media', 'screenshots');

const run = new HostRun({ name: 'packaged tests', countLabel: 'packaged-tests', tempPrefix: 'tt-vsix-', verbose });

async function main() {
  const problems = missingPrerequisites({ browser: chromiumPath, build: !isInstalled() });
  if (problems.length > 0) throw new Error(`missing prerequisites:\n  ${problems.join('\n  ')}`);
  const { entry } = ensureCodeServer();
  if (!options['no-build']) build('build (esbuild)', process.execPath, ['esbuild.mjs']);
  for (const file of ['server.js', 'client.js']) {
    if (!existsSync(join(repoRoot, 'dist', file))) throw new Error(`dist/${file} is missing: run \`npm run build\` first.`);
  }

  const { runDir, dirs, isolation, configFile } = run.makeDirs(['workspace', 'screenshots']);
  const vsix = join(runDir, 'x.vsix');
  await timed('> package the .vsix (vsce package, with its vscode:prepublish)', () => packageVsix(repoRoot, join(runDir, 'package'), vsix));
  checkContents(vsix);

  // Hex: a base64url token may start with "-", which reads as an option.
  const token = randomBytes(24).toString('hex');
  const port = await freePort();
  const server = await timed(`> reference server: node dist/server.js --port ${port} --token …`, async () => {
    const started = run.spawnOwned('server', process.execPath, [join(repoRoot, 'dist', 'server.js'), '--port', String(port), '--token', token], { cwd: repoRoot, env: {} });
    try {
      await started.waitFor(/^listening on \S+$/m, 10_000);
    } catch (error) {
      started.show();
      throw error;
    }
    return started;
  });

  await timed('> install the .vsix into a clean code-server', () => installVsix(entry, vsix, { dirs, configFile, isolation }));
  run.writeUserSettings(dirs, {
    'timeTracker.port': port,
    // The shortest allowed interval, so each change shows within seconds rather than ten.
    'timeTracker.pollIntervalSeconds': 2,
  });
  const codeServer = await run.startCodeServer(entry, {
    dirs,
    configFile,
    cwd: dirs.workspace,
    env: { ...isolation, SERVICE_TOKEN: token },
    until: Date.now() + 60_000,
    announce: (authority) => console.log(`> code-server on ${authority}, no extension development path: only the installed .vsix`),
  });

  const browser = await run.launchBrowser(isolation);
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  page.on('pageerror', (error) => console.error(`[page] ${error.message}`));
  await page.goto(`http://${codeServer.authority}/?folder=${encodeURIComponent(dirs.workspace)}`, { waitUntil: 'domcontentloaded', timeout: 60_000 });

  const statusBar = new StatusBarProbe(page, dirs.screenshots);
  const tests = [
    [
      'shows "Not tracking" with today\'s total while the app runs idle',
      async () => {
        // The first look includes the workbench's start and the extension's activation.
        const { text } = await statusBar.waitFor(/Not tracking/, 45_000);
        if (!/today 0m/.test(text)) throw new Error(`expected today's total "today 0m" in "${text}"`);
        return statusBar.screenshot('statusbar-idle.png', text);
      },
    ],
    [
      'shows the activity a script started, with a ticking time',
      async () => {
        const { ServiceClient } = createRequire(import.meta.url)(join(repoRoot, 'dist', 'client.js'));
        const client = new ServiceClient({ token, port });
        try {
          await client.startActivity({ name: activityName, createIfMissing: true });
        } finally {
          await client.close();
        }
        const tracking = new RegExp(`${activityName} (\\d+:\\d\\d)`);
        const { match } = await statusBar.waitFor(tracking, 15_000);
        // Ticking: the time changes on its own, between polls.
        const { text } = await statusBar.waitFor(tracking, 5_000, { changedFrom: match[1] });
        return statusBar.screenshot('statusbar-tracking.png', text);
      },
    ],
    [
      'shows "offline" once the app is gone',
      async () => {
        await stopGroup(server.child);
        const { text } = await statusBar.waitFor(/offline/, 20_000);
        return statusBar.screenshot('statusbar-offline.png', text);
      },
    ],
  ];

  const outcome = { passes: 0, failures: 0 };
  console.log('\n  packaged extension in the workbench');
  for (const [title, test] of tests) {
    // The signal handler reports and exits; what follows would only describe the teardown.
    if (run.interrupted) return outcome;
    if (outcome.failures > 0) {
      // Each state builds on the one before; waiting for it again would only add time.
      console.log(`    - ${title}: not run (an earlier check failed)`);
      outcome.failures++;
      continue;
    }
    const started = Date.now();
    try {
      const detail = await test();
      console.log(`    ✔ ${title} (${((Date.now() - started) / 1000).toFixed(1)} s): ${detail}`);
      outcome.passes++;
    } catch (error) {
      outcome.failures++;
      if (run.interrupted) return outcome;
      console.error(`    ✘ ${title}: ${error instanceof Error ? error.message : String(error)}`);
      console.error(`      status bar: ${JSON.stringify(await statusBar.allItems().catch(() => []))}`);
      await page.screenshot({ path: join(dirs.screenshots, 'failure.png') }).catch(() => undefined);
      codeServer.show();
      server.show();
    }
  }
  if (options.screenshots) copyScreenshots(dirs.screenshots);
  return outcome;
}

function checkContents(vsix) {
  const { bytes, entries, problems } = inspectVsix(vsix, { publisher: manifest.publisher, name: manifest.name });
  const files = entries.filter((entry) => !entry.name.endsWith('/'));
  console.log(`  ${files.length} files, ${(bytes / 1024).toFixed(0)} KiB:`);
  for (const { name, size } of files) console.log(`    ${String(size).padStart(8)}  ${name}`);
  if (problems.length > 0) {
    const shown = problems.slice(0, 10);
    if (problems.length > shown.length) shown.push(`and ${problems.length - shown.length} more`);
    throw new Error(`the .vsix is not fit to ship:\n  ${shown.join('\n  ')}`);
  }
}

function installVsix(entry, vsix, { dirs, configFile, isolation }) {
  const result = spawnSync(process.execPath, [entry, ...run.codeServerArgs({ dirs, configFile }), '--install-extension', vsix, '--force'], {
    encoding: 'utf8',
    env: { ...process.env, ...isolation, EXTENSIONS_GALLERY: '{}' },
    timeout: 60_000,
  });
  const said = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
  if (verbose) console.log(said);
  const installed = readdirSync(dirs.extensions).find((name) => name.startsWith(`${extensionId}-`));
  if (result.status !== 0 || installed === undefined) {
    throw new Error(`code-server --install-extension failed (${result.status ?? result.signal ?? result.error?.message}): ${said}`);
  }
  console.log(`  installed as ${installed}`);
}

/** Reads the extension's status bar item from the workbench's DOM, as it is on screen. */
class StatusBarProbe {
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
          const item = [...document.querySelectorAll('.statusbar-item')].find((element) => element.id.startsWith(prefix));
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
    throw new Error(`the status bar item did not show ${wanted} within ${ms / 1000} s; it shows ${now === undefined ? 'nothing (no such item)' : `"${now.text}"`}`);
  }

  async item() {
    return (await this.allItems()).find((item) => item.id.startsWith(extensionId));
  }

  allItems() {
    return this.page.evaluate(() => [...document.querySelectorAll('.statusbar-item')].map((element) => ({ id: element.id, text: element.textContent?.replace(/\s+/g, ' ').trim() ?? '' })));
  }

  /** The whole status bar, as a user sees it; returns a line for the test's report. */
  async screenshot(name, text) {
    const file = join(this.screenshotsDir, name);
    await this.page.locator('.part.statusbar').screenshot({ path: file });
    return `"${text}" (${name})`;
  }
}

function copyScreenshots(from) {
  mkdirSync(screenshotsOut, { recursive: true });
  for (const name of readdirSync(from).filter((file) => file.endsWith('.png'))) copyFileSync(join(from, name), join(screenshotsOut, name));
  console.log(`  screenshots copied to ${screenshotsOut}`);
}

async function timed(title, work) {
  console.log(title);
  const started = Date.now();
  const result = await work();
  console.log(`  done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return result;
}

// Last, so that the class above is initialised before main() uses it.
await run.execute(main);
