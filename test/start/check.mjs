// The start check: `npm start` does what issue 13 promises. It runs scripts/start.mjs as a user
// would, opens the URL it prints in Debian's chromium (playwright-core), and reads the extension's
// status bar item from the workbench's DOM: the demo activity running for about 25 minutes, with
// today's total, through the capability file alone. Then SIGINT (Ctrl-C) and SIGTERM must leave no
// process, socket, capability file or temporary folder behind, and the port closed. --desktop is
// checked with a stand-in `code` on PATH (none at all: one sentence; one that records what it is
// given: the arguments, the settings and a running demo app). The pure decisions of
// scripts/start/plan.mjs are checked first.
//
// `node test/start/check.mjs [--no-build]` prints one line per check and
// `start-check: N passed, N failed`, and exits 0 only when all pass. `checkStart({ build })`
// resolves to `{ passed, failed, tests: [{ title, ok, error? }] }` for a suite table.
// Every process start.mjs starts carries TT_START_CHECK_ID in its environment, which is how the
// check finds them all, helpers included, to prove them gone.
/* global document */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { desktopArgs, findOnPath, NO_DESKTOP_CODE, parseStartArgs, workbenchUrl } from '../../scripts/start/plan.mjs';
import { chromiumPath } from '../extension/host/common.mjs';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const startScript = join(repoRoot, 'scripts', 'start.mjs');
/** The demo's running activity (src/server/demo.ts, DEMO_RUNNING). */
const RUNNING = 'Write docs';
const STATUS_ITEM = 'clessira-tools.clessira-time-tracker';
/** The one URL start.mjs prints, indented on a line of its own, and what it says after it. */
const URL_LINE = /^ {2}(http:\/\/127\.0\.0\.1:\d+\/\S*)$[^]*and removes \S+\.$/m;

/** What src/server/demo.ts logs today besides the running session: two entries logged at the start (15m + 30m), and a finished session of 45 minutes that ended 5 minutes before the running one began. */
const DEMO_LOGGED_MINUTES = 45;
const DEMO_FINISHED_MINUTES = 45;
const DEMO_FINISHED_ENDS_BEFORE_RUNNING = 5;

/** `1h 55m`, `52m`, `2h` (formatMinutes) in minutes. */
export function minutesOfTotal(text) {
  const parts = /^(?:(\d+)h)? ?(?:(\d+)m)?$/.exec(text);
  if (parts === null || text === '') throw new Error(`"${text}" is not a total`);
  return Number(parts[1] ?? 0) * 60 + Number(parts[2] ?? 0);
}

/**
 * Today's total is the server's local day: the entries always fall in it, but just after midnight
 * part of the running session and the finished one were yesterday (a CI run at 00:07 saw
 * "today 52m"). Away from midnight it must be all of it; near it, anything from the entries alone up.
 */
export function checkDemoToday(todayMinutes, runningMinutes, status, now = new Date()) {
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  const sinceMidnight = (now.getTime() - midnight.getTime()) / 60_000;
  const all = DEMO_LOGGED_MINUTES + runningMinutes + DEMO_FINISHED_MINUTES;
  const wholeDemoIsToday = sinceMidnight > runningMinutes + DEMO_FINISHED_ENDS_BEFORE_RUNNING + DEMO_FINISHED_MINUTES + 1;
  if (wholeDemoIsToday) {
    assert.ok(Math.abs(todayMinutes - all) <= 1, `"${status}": today's total should be about ${all} minutes (the demo's logged time, the running and the finished session)`);
  } else {
    assert.ok(todayMinutes >= DEMO_LOGGED_MINUTES && todayMinutes <= all + 1, `"${status}": ${Math.round(sinceMidnight)} minutes after midnight, today's total should be between ${DEMO_LOGGED_MINUTES} and ${all} minutes`);
  }
}

/**
 * Runs every check in order; one that fails does not stop the others (each starts its own
 * `npm start`). `build: false` passes --no-build (dist/ is fresh); `log` gets one line per check.
 */
export async function checkStart({ build = true, log = (line) => console.log(line) } = {}) {
  const tests = [];
  const scratch = mkdtempSync(join(tmpdir(), 'tt-start-check-'));
  const started = new Set();
  // An interrupted check still stops what it started: Ctrl-C in a terminal reaches start.mjs too,
  // a SIGTERM to this process alone would not.
  const context = { build, scratch, started, first: undefined, browser: undefined, interrupted: false };
  const forward = (signal) => {
    context.interrupted = true;
    for (const start of started) start.child.kill('SIGINT');
    // Ends a wait on the workbench at once, so the check winds down without waiting it out.
    void context.browser?.close().catch(() => undefined);
    process.exitCode = signal === 'SIGINT' ? 130 : 143;
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  try {
    for (const [title, check] of checks) {
      if (context.interrupted) break;
      const began = Date.now();
      try {
        const detail = await check(context);
        tests.push({ title, ok: true });
        log(`  ✔ ${title} (${seconds(began)} s)${detail ? `: ${detail}` : ''}`);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        tests.push({ title, ok: false, error: message });
        log(`  ✘ ${title} (${seconds(began)} s): ${message}`);
      }
    }
  } finally {
    await Promise.all([...started].map((start) => stopLeftover(start)));
    process.off('SIGINT', forward);
    process.off('SIGTERM', forward);
    rmSync(scratch, { recursive: true, force: true });
  }
  const passed = tests.filter((test) => test.ok).length;
  return { passed, failed: tests.length - passed, tests };
}

/** The `start` entry of test/suites.mjs: the launcher has just built dist/. */
export default async function startSuite() {
  const result = await checkStart({ build: false });
  return { passes: result.passed, failures: result.failed };
}

const checks = [
  [
    'arguments: --desktop, --no-build, --verbose, --help; anything else is one sentence',
    () => {
      assert.deepEqual(parseStartArgs([]), { kind: 'run', options: { desktop: false, build: true, verbose: false } });
      assert.deepEqual(parseStartArgs(['--desktop', '--no-build', '--verbose']), { kind: 'run', options: { desktop: true, build: false, verbose: true } });
      assert.deepEqual(parseStartArgs(['--help']), { kind: 'help' });
      for (const argv of [['--port', '3000'], ['folder'], ['--desktop=yes']]) {
        const parsed = parseStartArgs(argv);
        assert.equal(parsed.kind, 'error', argv.join(' '));
        assert.match(parsed.message, /; run `npm start -- --help` for the options\.$/);
      }
    },
  ],
  [
    'the URL opens the repository with the extension from it in development mode',
    () => {
      const url = new URL(workbenchUrl('127.0.0.1:4000', { folder: '/home/me/my repo/', extensionPath: '/home/me/my repo/' }));
      assert.equal(url.origin, 'http://127.0.0.1:4000');
      assert.equal(url.searchParams.get('folder'), '/home/me/my repo');
      assert.deepEqual(JSON.parse(url.searchParams.get('payload')), [['extensionDevelopmentPath', 'vscode-remote://127.0.0.1:4000/home/me/my%20repo']]);
    },
  ],
  [
    'the desktop command line: this checkout in development mode, its own profile, the repository open',
    () => {
      const args = desktopArgs({ repoRoot: '/r/', userDataDir: '/t/user-data', extensionsDir: '/t/extensions' });
      assert.deepEqual(args, [
        '--new-window',
        '--wait',
        '--extensionDevelopmentPath=/r',
        '--user-data-dir',
        '/t/user-data',
        '--extensions-dir',
        '/t/extensions',
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        '/r',
      ]);
      const files = new Set(['/b/code', '/c/code']);
      assert.equal(findOnPath('code', '/a::/b:/c', (path) => files.has(path)), '/b/code');
      assert.equal(findOnPath('code', '/a', (path) => files.has(path)), undefined);
      assert.equal(findOnPath('code', undefined, () => true), undefined);
    },
  ],
  [
    '--desktop without `code` on PATH: one sentence, exit 1, nothing built or started',
    async ({ scratch, started }) => {
      const emptyDir = join(scratch, 'no-code');
      mkdirSync(emptyDir);
      const start = startProcess(['--desktop'], { PATH: emptyDir }, started);
      const { code } = await start.exited;
      assert.equal(code, 1);
      assert.equal(start.stderr(), `${NO_DESKTOP_CODE}\n`);
      assert.doesNotMatch(start.stdout(), /build|demo app/);
      assert.deepEqual(processesOf(start.marker), []);
    },
  ],
  [
    'npm start prints one URL, and the status bar shows the running demo activity at about 25 minutes',
    async (context) => {
      const spawnedAt = Date.now();
      const start = startProcess(context.build ? [] : ['--no-build'], {}, context.started);
      // Stopped by the next check, whatever happens here.
      context.first = start;
      const [, url] = await start.waitFor(URL_LINE, 180_000);
      const urlSeconds = seconds(spawnedAt);
      assert.equal(start.stdout().match(/https?:\/\//g)?.length, 1, `one URL, not:\n${start.stdout()}`);
      if (context.build) assert.ok(statSync(join(repoRoot, 'dist', 'extension.js')).mtimeMs >= spawnedAt - 1000, 'dist/extension.js was built by this start');
      checkAnnouncement(start.stdout());
      const status = await statusBarText(url, context);
      const match = /^Write docs (\d+):\d\d · today (\d+h(?: \d+m)?|\d+m)$/.exec(status);
      assert.ok(match, `the status bar shows "${status}", not "${RUNNING} 25:xx · today …"`);
      const minutes = Number(match[1]);
      assert.ok(minutes >= 25 && minutes < 30, `running for ${minutes} minutes, not about 25`);
      checkDemoToday(minutesOfTotal(match[2]), minutes, status);
      return `URL after ${urlSeconds} s${context.build ? ' (with the build)' : ''}; the status bar says "${status}"`;
    },
  ],
  [
    'Ctrl-C (SIGINT) stops every process it started, removes the socket, the capability file and the temporary folder, and closes the port',
    ({ first }) => {
      if (first === undefined) throw new Error('the check before started nothing');
      return stopAndCheck(first, 'SIGINT');
    },
  ],
  [
    'SIGTERM does the same',
    async ({ started }) => {
      const start = startProcess(['--no-build'], {}, started);
      await start.waitFor(URL_LINE, 120_000);
      return stopAndCheck(start, 'SIGTERM');
    },
  ],
  [
    '--desktop with a `code` on PATH: runs it with the desktop arguments and the capability file in its settings, and stops when it exits',
    async ({ scratch, started }) => {
      const bin = join(scratch, 'bin');
      const report = join(scratch, 'fake-code.json');
      mkdirSync(bin);
      writeFileSync(join(bin, 'code'), fakeCode(report));
      chmodSync(join(bin, 'code'), 0o755);
      const start = startProcess(['--desktop', '--no-build'], { PATH: `${bin}:${dirname(process.execPath)}` }, started);
      const { code } = await start.exited;
      assert.equal(code, 0, `exit ${code}: ${start.stderr()}`);
      assert.match(start.stdout(), /^VS Code closed; stopping the demo app\.$/m);
      const seen = JSON.parse(readFileSync(report, 'utf8'));
      const runDir = temporaryFolder(start.stdout());
      assert.deepEqual(seen.args, desktopArgs({ repoRoot, userDataDir: join(runDir, 'user-data'), extensionsDir: join(runDir, 'extensions') }));
      assert.equal(seen.capabilityFile, join(runDir, 'home', 'Library', 'Containers', 'com.mattes.clessira', 'Data', 'api-endpoint.json'));
      assert.deepEqual(seen.capability, { version: 1, socket: true, token: true, pidRunning: true });
      assert.equal(existsSync(runDir), false, `${runDir} is removed`);
      assert.deepEqual(processesOf(start.marker), []);
    },
  ],
];

/**
 * Sends `signal` to start.mjs and checks what it leaves: no process of its own, no temporary
 * folder (the socket and the capability file are in it), the port closed.
 */
async function stopAndCheck(start, signal) {
  const runDir = temporaryFolder(start.stdout());
  const port = /^ {2}http:\/\/127\.0\.0\.1:(\d+)\//m.exec(start.stdout())?.[1];
  const running = processesOf(start.marker);
  assert.ok(running.length >= 3, `start.mjs, the demo app and code-server run before the ${signal} (found ${running.length})`);
  start.child.kill(signal);
  const { code, signal: killedBy } = await start.exited;
  assert.equal(code, signal === 'SIGINT' ? 130 : 143, `exit ${code ?? killedBy}; stderr: ${start.stderr()}`);
  const left = processesOf(start.marker);
  assert.deepEqual(left, [], `processes left after ${signal}: ${left.join(', ')}`);
  assert.equal(existsSync(runDir), false, `${runDir} (socket, capability file, profile) is removed`);
  await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) }), Error, `port ${port} still answers`);
  return `${running.length} processes before, none after; ${runDir} removed; port ${port} closed`;
}

/**
 * What a failed check left running gets the Ctrl-C a user would give, so that start.mjs tears
 * down what it started; whatever still carries the marker after 10 s is killed.
 */
async function stopLeftover(start) {
  start.child.kill('SIGINT');
  let limit;
  await Promise.race([start.exited, new Promise((resolve) => (limit = setTimeout(resolve, 10_000)))]);
  clearTimeout(limit);
  for (const pid of processesOf(start.marker)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Exited meanwhile.
    }
  }
}

/** The capability file the demo app announced: valid, its socket there, its pid running. The token is never shown. */
function checkAnnouncement(stdout) {
  const path = /announced in (\S+)$/m.exec(stdout)?.[1];
  assert.ok(path !== undefined, 'start.mjs names the capability file');
  assert.equal(path, join(temporaryFolder(stdout), 'home', 'Library', 'Containers', 'com.mattes.clessira', 'Data', 'api-endpoint.json'));
  const capability = JSON.parse(readFileSync(path, 'utf8'));
  assert.equal(capability.version, 1);
  assert.ok(statSync(capability.socketPath).isSocket(), 'the socket is there');
  assert.equal(typeof capability.token === 'string' && capability.token.length > 0, true, 'a token');
  process.kill(capability.pid, 0);
}

/** The status bar item's text once it names the running activity; the browser is kept in `context` while open. */
async function statusBarText(url, context) {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  context.browser = browser;
  try {
    const page = await browser.newPage();
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    const handle = await page
      .waitForFunction(
        ({ prefix, name }) => {
          const item = [...document.querySelectorAll('.statusbar-item')].find((element) => element.id.startsWith(prefix));
          const text = item?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
          return text.startsWith(name) && text.includes('today') ? text : false;
        },
        { prefix: STATUS_ITEM, name: RUNNING },
        { timeout: 90_000, polling: 200 },
      )
      .catch(() => undefined);
    if (handle !== undefined) return await handle.jsonValue();
    const items = await page.evaluate(() => [...document.querySelectorAll('.statusbar-item')].map((element) => `${element.id}: ${element.textContent?.trim()}`));
    throw new Error(`the status bar never showed "${RUNNING}"; its items: ${JSON.stringify(items)}`);
  } finally {
    context.browser = undefined;
    await browser.close();
  }
}

/** `node scripts/start.mjs`, marked so that every process it starts can be found. */
function startProcess(args, env, started) {
  const marker = randomUUID();
  const child = spawn(process.execPath, [startScript, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env, TT_START_CHECK_ID: marker },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const listeners = new Set();
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    out += chunk;
    for (const listener of listeners) listener();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk) => (err += chunk));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const start = {
    child,
    marker,
    exited,
    stdout: () => out,
    stderr: () => err,
    waitFor: (pattern, ms) =>
      new Promise((resolve, reject) => {
        const limit = setTimeout(() => finish(() => reject(new Error(`start.mjs did not print ${pattern} within ${ms / 1000} s:\n${out}${err}`))), ms);
        const finish = (settle) => {
          clearTimeout(limit);
          listeners.delete(check);
          settle();
        };
        const check = () => {
          const match = pattern.exec(out);
          if (match) finish(() => resolve(match));
        };
        void exited.then(({ code, signal }) => finish(() => reject(new Error(`start.mjs exited (${code ?? signal}) before it printed ${pattern}:\n${out}${err}`))));
        listeners.add(check);
        check();
      }),
  };
  started.add(start);
  void exited.then(() => started.delete(start));
  return start;
}

function temporaryFolder(stdout) {
  const dir = /and removes (\/\S+)\.$/m.exec(stdout)?.[1];
  assert.ok(dir !== undefined, `start.mjs names its temporary folder:\n${stdout}`);
  return dir;
}

/** Pids of the processes whose environment carries the marker (this process excluded). */
function processesOf(marker) {
  const needle = `TT_START_CHECK_ID=${marker}`;
  const pids = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${name}/environ`, 'latin1');
      if (environ.split('\0').includes(needle)) pids.push(Number(name));
    } catch {
      // Exited meanwhile.
    }
  }
  return pids;
}

/**
 * A stand-in for a desktop `code`: a Node script that records its arguments, the capability file
 * its settings name, and whether that file announces a running app on a socket (never the token),
 * then exits 0 as `code --wait` does once its window is closed.
 */
function fakeCode(report) {
  return `#!${process.execPath}
const { readFileSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const args = process.argv.slice(2);
const settings = JSON.parse(readFileSync(join(args[args.indexOf('--user-data-dir') + 1], 'User', 'settings.json'), 'utf8'));
const capabilityFile = settings['timeTracker.capabilityFile'];
const file = JSON.parse(readFileSync(capabilityFile, 'utf8'));
let pidRunning = true;
try { process.kill(file.pid, 0); } catch { pidRunning = false; }
const capability = { version: file.version, socket: statSync(file.socketPath).isSocket(), token: typeof file.token === 'string' && file.token !== '', pidRunning };
writeFileSync(${JSON.stringify(report)}, JSON.stringify({ args, capabilityFile, capability }));
`;
}

function seconds(since) {
  return ((Date.now() - since) / 1000).toFixed(1);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const build = !process.argv.includes('--no-build');
  const began = Date.now();
  console.log(`start check (npm start${build ? '' : ' -- --no-build'}, then the URL in chromium)`);
  const result = await checkStart({ build });
  console.log(`\nstart check took ${seconds(began)} s`);
  console.log(`start-check: ${result.passed} passed, ${result.failed} failed`);
  if (process.exitCode === undefined || process.exitCode === 0) process.exitCode = result.failed === 0 && result.passed > 0 ? 0 : 1;
}
