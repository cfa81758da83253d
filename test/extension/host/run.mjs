// `npm run test:extension`: runs out/test/extension/suite/ inside a real VS Code extension host,
// offline. @vscode/test-electron cannot download VS Code here, so the host is code-server (VS
// Code's server from the npm registry, installed by ./install.mjs) and the workbench is opened in
// Debian's chromium, driven by playwright-core. The extension runs in the remote (workspace)
// extension host with the real `vscode` API.
//
// The verdict is the result file the in-host runner writes (TT_EXTENSION_RESULT_FILE); the
// browser's `codeAutomationExit` only says that the suite has settled. The last line is
// `extension-tests: N passed, N failed`; the exit code is 0 only with failures 0 and passes > 0.
//
// Options (flag or environment variable):
//   --no-build                     skip esbuild and tsc (test/run.mjs has just run them)
//   --workspace <dir>              TT_EXTENSION_WORKSPACE: open this folder instead of an empty one
//   --prepare-workspace <module>   TT_EXTENSION_WORKSPACE_SETUP: module whose default export gets
//                                  the empty workspace folder first (e.g. to make a git repository)
//                                  and may return `{ env }` for the extension host
//   TT_EXTENSION_TIMEOUT_SECONDS   limit from code-server's start to the verdict, default 300
//   TT_CHROMIUM_PATH               default /usr/bin/chromium
//   TT_EXTENSION_VERBOSE=1         also print code-server's own output
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { format, parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { ensureCodeServer, isInstalled, missingPrerequisites } from './install.mjs';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const suiteIndex = join(repoRoot, 'out', 'test', 'extension', 'suite', 'index.js');
const chromiumPath = process.env.TT_CHROMIUM_PATH ?? '/usr/bin/chromium';
const timeoutSeconds = Number(process.env.TT_EXTENSION_TIMEOUT_SECONDS ?? 300);
const verbose = process.env.TT_EXTENSION_VERBOSE === '1';
// Marks every process of this run, so the final sweep finds even those that left the group.
const runId = randomUUID();

const { values: options } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    workspace: { type: 'string', default: process.env.TT_EXTENSION_WORKSPACE },
    'prepare-workspace': { type: 'string', default: process.env.TT_EXTENSION_WORKSPACE_SETUP },
  },
});

/** Fresh user settings: nothing on screen or on the network that a test did not ask for. */
const settings = {
  'telemetry.telemetryLevel': 'off',
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.welcomePage.walkthroughs.openOnInstall': false,
  'workbench.enableExperiments': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'git.autofetch': false,
  'git.openRepositoryInParentFolders': 'never',
};

const state = { runDir: undefined, codeServer: undefined, browser: undefined, cleaning: undefined, interrupted: false };
const started = Date.now();
const seconds = () => ((Date.now() - started) / 1000).toFixed(1);

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    state.interrupted = true;
    console.error(`\nextension tests: ${signal}, cleaning up...`);
    void cleanup().finally(() => {
      console.log('extension-tests: 0 passed, 1 failed');
      process.exit(signal === 'SIGINT' ? 130 : 143);
    });
  });
}
// Last resort if something above exits without awaiting cleanup(): nothing may outlive the run.
process.on('exit', () => {
  killGroup(state.codeServer, 'SIGKILL');
  sweep();
  if (state.runDir !== undefined) rmSync(state.runDir, { recursive: true, force: true });
});

let outcome;
try {
  outcome = await main();
} catch (error) {
  // The message carries the fix (an apt package, a missing build); the stack only with TT_EXTENSION_VERBOSE=1.
  const text = error instanceof Error ? ((verbose ? error.stack : undefined) ?? error.message) : String(error);
  if (!state.interrupted) console.error(`\nextension tests could not run: ${text}`);
  outcome = { passes: 0, failures: 1 };
} finally {
  await cleanup();
}
console.log(`\nextension tests took ${seconds()} s`);
console.log(`extension-tests: ${outcome.passes} passed, ${outcome.failures} failed`);
process.exitCode = outcome.failures === 0 && outcome.passes > 0 ? 0 : 1;

async function main() {
  const problems = missingPrerequisites({ browser: chromiumPath, build: !isInstalled() });
  if (problems.length > 0) throw new Error(`missing prerequisites:\n  ${problems.join('\n  ')}`);
  const { entry } = ensureCodeServer();

  if (!options['no-build']) {
    build('build (esbuild)', process.execPath, ['esbuild.mjs']);
    build('compile (tsc)', process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.']);
  }
  if (!existsSync(suiteIndex)) throw new Error(`${suiteIndex} is missing: run \`npm run compile\` first.`);
  if (!existsSync(join(repoRoot, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing: run `npm run build` first.');

  const runDir = mkdtempSync(join(tmpdir(), 'tt-ext-'));
  state.runDir = runDir;
  const dirs = Object.fromEntries(['tmp', 'config', 'data', 'cache', 'user-data', 'extensions', 'workspace'].map((name) => [name, join(runDir, name)]));
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  const isolation = {
    // VS Code's IPC sockets, playwright's browser profile and chromium's crash reports land here
    // instead of piling up in /tmp and ~/.config.
    TMPDIR: dirs.tmp,
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    XDG_CACHE_HOME: dirs.cache,
    XDG_RUNTIME_DIR: dirs.tmp,
    TT_EXTENSION_RUN_ID: runId,
  };
  // os.tmpdir() reads TMPDIR on each call; playwright makes its profile folder there.
  process.env.TMPDIR = dirs.tmp;

  const workspace = options.workspace !== undefined ? resolve(options.workspace) : dirs.workspace;
  let hostEnv = {};
  if (options['prepare-workspace'] !== undefined) {
    const setup = await import(pathToFileURL(resolve(options['prepare-workspace'])).href);
    const prepared = await setup.default(workspace);
    hostEnv = prepared?.env ?? {};
  }

  mkdirSync(join(dirs['user-data'], 'User'));
  writeFileSync(join(dirs['user-data'], 'User', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
  const resultFile = join(runDir, 'result.json');
  const configFile = join(runDir, 'config.yaml');
  writeFileSync(configFile, '');

  // The limit is for the run itself; a first-time install of code-server comes on top.
  const deadline = Date.now() + timeoutSeconds * 1000;
  const port = await freePort();
  const authority = `127.0.0.1:${port}`;
  console.log(`> extension tests in code-server on ${authority}, workspace ${workspace}`);
  const output = [];
  const child = spawn(
    process.execPath,
    [
      entry,
      '--config', configFile,
      '--auth', 'none',
      '--bind-addr', authority,
      '--user-data-dir', dirs['user-data'],
      '--extensions-dir', dirs.extensions,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      '--ignore-last-opened',
    ],
    {
      cwd: workspace,
      // Its own process group, so one kill reaches the extension host and every helper.
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ...isolation,
        ...hostEnv,
        // No marketplace lookups: the machine is offline and the tests must not depend on it.
        EXTENSIONS_GALLERY: '{}',
        TT_EXTENSION_RESULT_FILE: resultFile,
        TT_EXTENSION_HOST: 'code-server',
      },
    },
  );
  state.codeServer = child;
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk) => {
      output.push(chunk);
      if (verbose) process.stdout.write(prefixLines('[code-server] ', chunk));
    });
  }
  const exited = new Promise((resolveExit) => child.once('exit', (code, signal) => resolveExit({ code, signal })));
  const showServerOutput = () => {
    const text = output.join('').replace(/\n\s*\n/g, '\n').trim();
    if (!verbose && text !== '') console.log(prefixLines('[code-server] ', text));
  };

  try {
    await waitForHealth(`http://${authority}/healthz`, exited, Math.min(deadline, Date.now() + 60_000));
  } catch (error) {
    showServerOutput();
    throw error;
  }

  state.browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    env: { ...process.env, ...isolation },
    // This script kills code-server on these signals; playwright must not exit the process first.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const page = await state.browser.newPage();
  let settle;
  const settled = new Promise((resolveSettled) => (settle = resolveSettled));
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const line = (Array.isArray(args) ? printf(args) : String(args)).trimEnd();
    if (line !== '') (type === 'error' ? console.error : console.log)(prefixLines('[host] ', line));
  });
  await page.exposeFunction('codeAutomationExit', (code) => settle({ code }));
  page.on('pageerror', (error) => console.error(`[page] ${error.message}`));
  page.on('crash', () => settle({ error: 'the workbench page crashed' }));

  const remote = (path) => `vscode-remote://${authority}${path.split(sep).map(encodeURIComponent).join('/')}`;
  const payload = [
    ['extensionDevelopmentPath', remote(repoRoot.replace(/\/$/, ''))],
    ['extensionTestsPath', remote(suiteIndex)],
  ];
  const url = `http://${authority}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });

  const limit = timer(Math.max(0, deadline - Date.now()));
  const verdict = await Promise.race([
    settled,
    exited.then(({ code, signal }) => ({ error: `code-server exited early (${code ?? signal})` })),
    limit.elapsed.then(() => ({ error: `no verdict within ${timeoutSeconds} s (TT_EXTENSION_TIMEOUT_SECONDS)` })),
  ]);
  limit.cancel();
  // The signal handler reports and exits; what follows would only describe the teardown.
  if (state.interrupted) return { passes: 0, failures: 1 };

  const progressFile = `${resultFile}.log`;
  const progress = existsSync(progressFile) ? readFileSync(progressFile, 'utf8').trimEnd() : '';
  if (progress !== '') console.log(`\n${progress}`);
  const result = readResult(resultFile);
  if (verdict.error !== undefined) {
    console.error(`\nextension tests: ${verdict.error}.`);
    showServerOutput();
  }
  if (result === undefined) {
    console.error(`extension tests: the in-host runner wrote no result (${resultFile}); the suite did not run to its end.`);
    if (verdict.error === undefined) showServerOutput();
    return { passes: 0, failures: 1 };
  }
  if (result.failures > 0) console.error(`\nfailed in the extension host:\n  ${result.failed.join('\n  ')}`);
  // A verdict that disagrees with the result file is a harness problem worth one failure.
  const harnessFailed = verdict.error !== undefined || (verdict.code !== 0 && result.failures === 0);
  return { passes: result.passes, failures: result.failures + (harnessFailed ? 1 : 0) };
}

function readResult(file) {
  try {
    const result = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof result.passes === 'number' && typeof result.failures === 'number') {
      return { passes: result.passes, failures: result.failures, failed: Array.isArray(result.failed) ? result.failed : [] };
    }
  } catch {
    // Missing or half-written: reported by the caller.
  }
  return undefined;
}

function build(title, command, args) {
  console.log(`> ${title}`);
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${title} failed`);
}

function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

async function waitForHealth(url, exited, until) {
  let gone;
  void exited.then(({ code, signal }) => (gone = `code-server exited before it was ready (${code ?? signal})`));
  while (Date.now() < until) {
    if (gone !== undefined) throw new Error(gone);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await delay(100);
  }
  throw new Error(`code-server did not answer ${url} in time`);
}

/** The workbench forwards console calls in printf form: a format string and its arguments. */
function printf(args) {
  const [first, ...rest] = args;
  if (typeof first !== 'string') return format(...args);
  // %c takes a CSS argument that means nothing in a terminal.
  let text = first.replace(/%c/g, () => {
    rest.shift();
    return '';
  });
  text = format(text, ...rest);
  return text;
}

/** A delay for Promise.race that can be cancelled, so a pending limit does not hold the process open. */
function timer(ms) {
  const controller = new AbortController();
  const elapsed = delay(ms, undefined, { signal: controller.signal }).then(
    () => true,
    () => new Promise(() => {}),
  );
  return { elapsed, cancel: () => controller.abort() };
}

function prefixLines(prefix, text) {
  return text.replace(/^(?=.)/gm, prefix);
}

/** By group, not by leader: helpers may outlive a code-server that has already exited. */
function killGroup(child, signal) {
  if (child?.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** Processes that carry this run's id in their environment: code-server, chromium, and helpers. */
function ownProcesses() {
  const needle = `TT_EXTENSION_RUN_ID=${runId}`;
  const pids = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').split('\0').includes(needle)) pids.push(Number(name));
    } catch {
      // Exited meanwhile, or not ours to read.
    }
  }
  return pids;
}

/** Kills what escaped the process group (a shell in its own session, say). */
function sweep() {
  const pids = ownProcesses();
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Exited meanwhile.
    }
  }
  return pids.length;
}

/** Killed children stay in the process table until reaped; wait so that a `ps` afterwards is clean. */
async function waitUntilGone(pids, ms) {
  const until = Date.now() + ms;
  while (pids.some((pid) => existsSync(`/proc/${pid}`)) && Date.now() < until) await delay(100);
}

function cleanup() {
  state.cleaning ??= (async () => {
    const started = ownProcesses();
    const browser = state.browser;
    state.browser = undefined;
    if (browser !== undefined) {
      const limit = timer(5000);
      await Promise.race([browser.close().catch(() => undefined), limit.elapsed]);
      limit.cancel();
    }
    const child = state.codeServer;
    if (child !== undefined) {
      const gone = new Promise((resolveGone) => {
        if (child.exitCode !== null || child.signalCode !== null) resolveGone();
        else child.once('exit', () => resolveGone());
      });
      killGroup(child, 'SIGTERM');
      const limit = timer(3000);
      await Promise.race([gone, limit.elapsed]);
      limit.cancel();
      killGroup(child, 'SIGKILL');
    }
    const stragglers = sweep();
    if (stragglers > 0) console.error(`extension tests: killed ${stragglers} leftover process(es) of this run.`);
    await waitUntilGone(started, 5000);
    if (state.runDir !== undefined) {
      rmSync(state.runDir, { recursive: true, force: true });
      state.runDir = undefined;
    }
  })();
  return state.cleaning;
}
