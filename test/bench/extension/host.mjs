// `npm run bench -- extension` (test/bench/bench.ts hands over to extensionBench below): the
// extension where users feel it, in the real VS Code host the extension tests use (code-server
// 4.100.3, that is VS Code 1.100.3, in Debian's chromium), through the harness's library modules:
// common.mjs (HostRun: folders, processes, cleanup), install.mjs (code-server, via workbench.mjs)
// and workbench.mjs (the .vsix as `npm run package` builds it, its install, the status bar probe).
//
// Three hosts run side by side through the same minutes, so the machine's load falls on all of
// them: two with the packaged extension installed and connected to the reference server (started
// in this process) through the app's VS Code integration, as a user's window finds it (its socket
// and the capability file under the hosts' HOME), one with the time-by-branch ledger on (its default)
// and one with `timeTracker.branchTime.enabled: false`, and one without the extension. Both
// extension hosts' global storage is seeded first with the same week of branch-time history
// (./ledgerHistory.ts, written by the ledger's own code), and the app tracks an activity through
// the window, so the ledger credits the window's branch at every poll. Every host opens the same
// kind of workspace (a git repository on `main`), an empty extension as its development path, and
// the same probe (out/test/bench/extension/probe) as its test path, which reports the extension
// host's pid and its heap after a full GC. Nothing else differs. Measured:
// - activation as VS Code measures it: the Running Extensions editor's "Startup Activation: N ms",
//   which is the extension host's own codeLoadingTime + activateCallTime, read from its DOM;
// - each extension host's CPU (utime + stime from /proc/<pid>/stat) over the window, per hour;
// - each extension host's heap after a full GC, at the window's start and end;
// - what the ledger credited in the window (its file, read back with its own parser);
// - CPU profiles of the two hosts with the extension through the same seconds (V8's sampler, 3 min
//   by default), to say which part of their CPU ran in the extension's bundles: before the window
//   with nothing running, first with a key in each page every 20 s (the windows in use), then after
//   75 s without one (unused: the idle cost), and after the window while tracking;
// - Start and Stop, run by keybindings with arguments (no picker) pressed in the page, until the
//   extension's status bar item shows it: keydown's timeStamp to the MutationObserver callback that
//   sees the new text, both on the page's clock.
/* global document, window, performance, MutationObserver */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { join, sep } from 'node:path';
import { clearInterval, setInterval } from 'node:timers';
import { setTimeout as delay } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { HostRun, repoRoot, stopGroup, timer } from '../../extension/host/common.mjs';
import {
  extensionId,
  installVsix,
  manifest,
  preparePackage,
  StatusBarProbe,
  timed,
} from '../../extension/host/workbench.mjs';
import prepareWorkspace from '../../extension/workspace.mjs';
import { firstTextAfterReload, installPeer, listenAsTheApp, loadedJavaScript, waitForItem } from './peer.mjs';
import { request } from 'undici';

const require = createRequire(import.meta.url);
// The ledger's own code (compiled by `npm run compile`), to seed its file and to read it back.
const { LEDGER_FILE } = require(join(repoRoot, 'out', 'src', 'tracker', 'branchTime', 'ledgerStore.js'));
const { parseBook } = require(join(repoRoot, 'out', 'src', 'tracker', 'branchTime', 'ledgerBook.js'));
const { PERIODS, summarize } = require(join(repoRoot, 'out', 'src', 'tracker', 'branchTime', 'summary.js'));
const { seedHistory, WEEK } = require(join(repoRoot, 'out', 'test', 'bench', 'extension', 'ledgerHistory.js'));

const KEYS = { start: 'Control+Alt+Shift+F7', stop: 'Control+Alt+Shift+F8', runningExtensions: 'Control+Alt+Shift+F9' };
const ACTIVITY = 'Bench';
/** Keybindings with arguments, as a user would bind them: Start and Stop skip the picker. */
const KEYBINDINGS = [
  { key: 'ctrl+alt+shift+f7', command: 'timeTracker.start', args: { name: ACTIVITY, createIfMissing: true } },
  { key: 'ctrl+alt+shift+f8', command: 'timeTracker.stop' },
  { key: 'ctrl+alt+shift+f9', command: 'workbench.action.showRuntimeExtensions' },
];
/** A key in each page this often keeps its window counted as used (VS Code looks every 30 s). */
const KEY_EVERY_MS = 20_000;
/** Past VS Code's longest wait before it counts a window without keys or clicks as unused (30 + 30 + 10 s). */
const UNUSED_AFTER_MS = 75_000;
/** A quick user's pace: one command a second at most, so each starts from a settled state. */
const PACE_MS = 1_000;
const SAMPLE_MS = 60_000;
const HEAP_READINGS = 3;
const HEAP_READING_GAP_MS = 3_000;
/** Reloads of each window for the time to the first correct status bar text, and the pause after each. */
const FIRST_TEXT_ROUNDS = 3;
const FIRST_TEXT_SETTLE_MS = 15_000;
/** The activity's name on an item of either extension, after its icon if it has one. */
const SHOWS_ACTIVITY = new RegExp(`(^|\\) )${ACTIVITY}\\b`);
/** The peer's connection item once its healthcheck passed. */
const PEER_CONNECTED = /^\$\(check\) NowDoing$/;

/**
 * Runs the whole bench and resolves to its raw figures (test/bench/extensionBench.ts reads them):
 * `idleMinutes` of idle polling (default 10), after `settleSeconds` for both hosts to finish
 * starting; a CPU profile over `profileSeconds`; `trials` Starts and as many Stops.
 */
export async function extensionBench({
  idleMinutes = 10,
  settleSeconds = 30,
  profileSeconds = 180,
  trials = 20,
  verbose = false,
  heapSnapshot = undefined,
  peerVsix = undefined,
} = {}) {
  const run = new HostRun({
    name: 'extension bench',
    countLabel: 'bench-extension',
    tempPrefix: 'tt-bench-ext-',
    verbose,
  });
  try {
    return await measure(run, {
      idleMinutes,
      settleSeconds,
      profileMs: profileSeconds * 1000,
      trials,
      heapSnapshot,
      peerVsix,
    });
  } finally {
    await run.cleanup();
  }
}

/**
 * The hosts, side by side: the extension with its ledger on (the default), the same with it off, and
 * none; with a peer, a fourth with the app's own extension (and not ours).
 */
const BASE_HOSTS = ['on', 'off', 'without'];

async function measure(run, { idleMinutes, settleSeconds, profileMs, trials, heapSnapshot, peerVsix }) {
  const hostLabels = peerVsix === undefined ? BASE_HOSTS : [...BASE_HOSTS, 'peer'];
  const withExtension = hostLabels.filter((label) => label !== 'without');
  const probeIndex = join(repoRoot, 'out', 'test', 'bench', 'extension', 'probe', 'index.js');
  if (!existsSync(probeIndex)) throw new Error(`${probeIndex} is missing: run \`npm run compile\` first.`);
  const prepared = await preparePackage(run, { noBuild: true });
  installVsix(run, prepared);
  const { entry, dirs, isolation, configFile } = prepared;

  // The other hosts: their own profile, extensions and workspace folders; the ledger-off one has the extension too.
  const dirsOf = { on: dirs };
  for (const label of hostLabels.filter((one) => one !== 'on')) {
    const base = join(run.runDir, label);
    dirsOf[label] = {
      ...dirs,
      'user-data': join(base, 'user-data'),
      extensions: join(base, 'extensions'),
      workspace: join(base, 'workspace'),
    };
    for (const name of ['user-data', 'extensions', 'workspace']) mkdirSync(dirsOf[label][name], { recursive: true });
  }
  installVsix(run, { ...prepared, dirs: dirsOf.off });
  const peer =
    peerVsix === undefined ? undefined : installPeer(run, { ...prepared, vsix: peerVsix, dirs: dirsOf.peer });
  // A test path needs some development path; this one contributes nothing, in every host.
  const emptyExtension = join(run.runDir, 'empty-extension');
  mkdirSync(emptyExtension);
  writeFileSync(
    join(emptyExtension, 'package.json'),
    JSON.stringify({ name: 'bench-empty', publisher: 'tt-bench', version: '0.0.0', engines: { vscode: '^1.100.0' } }),
  );

  // The same week of history in both hosts with the extension, written by the ledger's own code.
  const seeded = {};
  for (const label of ['on', 'off'])
    seeded[label] = await seedHistory(ledgerFolder(dirsOf[label]), { ...WEEK, todayMs: Date.now() });
  seeded.on = { ...seeded.on, heldBytes: historyHeldBytes(seeded.on.file) };
  console.log(
    `> seeded a week of branch-time history: ${seeded.on.rows} rows, ${seeded.on.bytes} bytes (${seeded.on.spans} spans) in each host with the extension; ${seeded.on.heldBytes} bytes of heap here, read and summed`,
  );

  const { createReferenceServer } = require(join(repoRoot, 'out', 'src', 'server', 'server.js'));
  const token = randomBytes(24).toString('hex');
  // GET /status answered, by all hosts together: the pace each profile saw.
  let statusPolls = 0;
  const server = createReferenceServer({
    token,
    onRequest: (_line, record) => void (record.path === '/status' && statusPolls++),
  });
  // The same app for the peer, as it finds it (PROTOCOL.md §8): a Unix socket announced in the capability
  // file under the peer host's HOME, the X-NowDoing-* headers it signs with. The peer polls GET /current.
  let peerPolls = 0;
  const peerServer =
    peer === undefined
      ? undefined
      : createReferenceServer({
          token,
          headerPrefix: 'NowDoing',
          onRequest: (_line, record) => void (record.path === '/current' && peerPolls++),
        });
  const peerHome = join(run.runDir, 'peer', 'home');
  const peerApp = peerServer === undefined ? undefined : await listenAsTheApp(peerServer, peerHome);
  // Ours reaches the app the same way, through the app's VS Code integration under a HOME of its own:
  // the same job as the peer's, and no token to set up.
  const oursHome = join(run.runDir, 'ours', 'home');
  const oursApp = await listenAsTheApp(server, oursHome);
  const servers = [server, ...(peerServer === undefined ? [] : [peerServer])];
  // Before the heap is read, the host without the extension is profiled with the others: V8 keeps
  // the line ends of every script a profile saw (0.8 MB in a host), which the heap share would
  // otherwise count as the extension's.
  const profiled = async (what, { withoutToo }) => {
    const from = statusPolls;
    const peerFrom = peerPolls;
    const labels = withoutToo ? hostLabels : withExtension;
    const taken = await timed(`> CPU profiles of the hosts ${labels.join(', ')}, ${profileMs / 1000} s ${what}`, () =>
      Promise.all(labels.map((label) => takeProfile(probe[label], profileMs))),
    );
    const byLabel = Object.fromEntries(labels.map((label, index) => [label, taken[index]]));
    return {
      on: byLabel.on,
      off: byLabel.off,
      ...(peer === undefined ? {} : { peer: byLabel.peer, peerPolls: peerPolls - peerFrom }),
      polls: statusPolls - from,
    };
  };
  let probe;
  console.log(`> reference server on the socket ${server.socketPath}, announced in ${oursApp.capabilityFile}`);
  const probes = await listenForProbes(hostLabels);

  try {
    const browser = await run.launchBrowser(isolation);
    const settings = {
      on: {},
      off: { 'timeTracker.branchTime.enabled': false },
      without: {},
      peer: {},
    };
    const hosts = {};
    for (const label of hostLabels)
      hosts[label] = await openHost(run, {
        label,
        entry,
        configFile,
        isolation,
        hostDirs: dirsOf[label],
        settings: settings[label],
        probes,
        emptyExtension,
        probeIndex,
        browser,
        extraEnv: { HOME: label === 'peer' ? peerHome : oursHome },
      });

    probe = Object.fromEntries(
      await Promise.all(hostLabels.map(async (label) => [label, await probes.hello(label, 90_000)])),
    );
    console.log(
      `> extension hosts: pid ${probe.on.pid} ledger on, ${probe.off.pid} ledger off, ${probe.without.pid} without the extension` +
        (peer === undefined ? '' : `, ${probe.peer.pid} the app's own extension`),
    );
    const statusBar = new StatusBarProbe(hosts.on.page, dirs.screenshots);
    const connected = await timed('> the status bar item shows the app connected', () =>
      statusBar.waitFor(/Not tracking/, 90_000),
    );
    console.log(`  "${connected.text}"`);
    // What each had loaded of its own JavaScript once its status bar said the app was there.
    const javaScript = { ours: await loadedJavaScript(probe.on, installedFolder(dirs)) };
    if (peer !== undefined) {
      const shown = await timed("> the app's own extension shows the app connected", () =>
        waitForItem(hosts.peer.page, peer.id, PEER_CONNECTED, 90_000),
      );
      console.log(`  "${shown}"`);
      javaScript.peer = await loadedJavaScript(probe.peer, peer.folder);
    }
    for (const [who, loaded] of Object.entries(javaScript))
      console.log(
        `  ${who}: ${loaded.files.map(({ file, bytes }) => `${file} ${bytes} bytes`).join(', ') || 'nothing'}`,
      );
    // Nothing running first: the idle cost of the ledger, the week of history loaded and shown, the app
    // polled. A window in use (a key now and then) asks at the interval; one nobody uses, three
    // times less often: both are profiled, the second is the idle cost.
    console.log(`> the hosts settle for ${settleSeconds} s`);
    await delay(settleSeconds * 1000);
    const pages = hostLabels.map((label) => hosts[label].page);
    const idleInUse = await withKeys(pages, KEY_EVERY_MS, () =>
      profiled(`with nothing running, the windows in use (a key in each every ${KEY_EVERY_MS / 1000} s)`, {
        withoutToo: true,
      }),
    );
    console.log(
      `> nobody uses the windows for ${UNUSED_AFTER_MS / 1000} s: VS Code counts a window unused 40 to 70 s after its last key`,
    );
    await delay(UNUSED_AFTER_MS);
    const idleUnused = await profiled('with nothing running, the windows unused', { withoutToo: true });
    // Tracking through the window, so that the ledger credits the window's branch at every poll.
    const trackingSinceMs = Date.now();
    for (const app of servers) app.controls.state.start({ name: ACTIVITY, createIfMissing: true });
    if (peer !== undefined) {
      const shown = await timed(`> the app tracks "${ACTIVITY}": the app's own extension shows it`, () =>
        waitForItem(hosts.peer.page, peer.id, SHOWS_ACTIVITY, 60_000),
      );
      console.log(`  "${shown}"`);
    }
    for (const label of ['on', 'off']) {
      const shown = await timed(
        `> the app tracks "${ACTIVITY}": the status bar of the host with the ledger ${label} shows it`,
        () => new StatusBarProbe(hosts[label].page, dirs.screenshots).waitFor(new RegExp(`^${ACTIVITY}\\b`), 60_000),
      );
      console.log(`  "${shown.text}"`);
    }
    console.log(`> the hosts settle for ${settleSeconds} s`);
    await delay(settleSeconds * 1000);

    const idle = await idleWindow(probe, idleMinutes);
    // Where the heap shares go: every host's heap after a full GC, for a tool (DevTools' Memory tab) to compare.
    if (heapSnapshot !== undefined) {
      for (const label of hostLabels) {
        const answer = await fetch(`http://127.0.0.1:${probe[label].port}/snapshot?name=${label}`, {
          signal: AbortSignal.timeout(120_000),
        });
        if (!answer.ok) {
          console.log(`> heap snapshot of the host ${label} failed (${answer.status}: ${await answer.text()})`);
          continue;
        }
        const kept = `${heapSnapshot}-${label}.heapsnapshot`;
        copyFileSync(await answer.text(), kept);
        console.log(`> heap snapshot of the host ${label}: ${kept}`);
      }
    }
    const ledger = {
      on: readLedger(dirsOf.on, trackingSinceMs),
      off: readLedger(dirsOf.off, trackingSinceMs),
      trackedMs: Date.now() - trackingSinceMs,
    };
    console.log(
      `> the ledger on credited ${(ledger.on.creditedMs / 1000).toFixed(0)} s to ${ledger.on.places.join(', ') || 'nothing'} of ${(ledger.trackedMs / 1000).toFixed(0)} s tracked; the ledger off ${(ledger.off.creditedMs / 1000).toFixed(0)} s`,
    );

    // The rest concerns only the hosts with the extension; the other would only add noise.
    await closeHost(hosts.without);
    // After the idle window, whose CPU figures they would otherwise inflate; where the hosts' time goes, through the
    // same seconds.
    const tracked = await profiled('while tracking', { withoutToo: false });
    await closeHost(hosts.off);
    for (const app of servers) app.controls.state.stop();
    await timed('> the app stopped: the status bar shows it', () => statusBar.waitFor(/Not tracking/, 60_000));
    const activation = await timed('> activation, from the Running Extensions editor', () =>
      readActivation(hosts.on.page),
    );
    const latency = await timed(`> ${trials} Starts and ${trials} Stops, keybinding to status bar`, () =>
      startStopLatency(hosts.on.page, statusBar, trials),
    );
    // Last, as it restarts the extension hosts: each window's start to its first correct text, the app tracking.
    for (const app of servers) app.controls.state.start({ name: ACTIVITY, createIfMissing: true });
    const windows = [
      { label: 'ours', page: hosts.on.page, prefix: `${extensionId}.`, pattern: SHOWS_ACTIVITY },
      ...(peer === undefined
        ? []
        : [{ label: 'peer', page: hosts.peer.page, prefix: peer.id, pattern: SHOWS_ACTIVITY }]),
    ];
    const firstText = await timed(
      `> the windows reloaded ${FIRST_TEXT_ROUNDS} times each, the app tracking: start to the first status bar text showing "${ACTIVITY}"`,
      () => firstTextAfterReload(windows, { rounds: FIRST_TEXT_ROUNDS, settleMs: FIRST_TEXT_SETTLE_MS }),
    );
    return {
      idleMinutes,
      settleSeconds,
      ...idle,
      seeded: seeded.on,
      ledger,
      profile: { ms: profileMs, extensionId, ...tracked, idle: idleUnused, idleInUse },
      activation,
      latency,
      firstText,
      javaScript,
      peer: peer === undefined ? undefined : { id: peer.id, version: peer.version },
    };
  } finally {
    await probes.close();
    await oursApp.close();
    await peerApp?.close();
  }
}

/** Where the probes write heap snapshots (`--heap-snapshot`), in the run's folder, removed with it. */
function snapshotFolder(run) {
  const folder = join(run.runDir, 'heap-snapshots');
  mkdirSync(folder, { recursive: true });
  return folder;
}

/** Starts one host's code-server and opens its workspace (a git repository on `main`) in a page of its own. */
async function openHost(
  run,
  { label, entry, configFile, isolation, hostDirs, settings, probes, emptyExtension, probeIndex, browser, extraEnv },
) {
  const { env } = prepareWorkspace(hostDirs.workspace);
  run.writeUserSettings(hostDirs, settings);
  writeFileSync(join(hostDirs['user-data'], 'User', 'keybindings.json'), `${JSON.stringify(KEYBINDINGS, null, 2)}\n`);
  const codeServer = await run.startCodeServer(entry, {
    dirs: hostDirs,
    configFile,
    cwd: hostDirs.workspace,
    env: {
      ...isolation,
      ...env,
      TT_BENCH_PROBE_URL: `${probes.url}/${label}`,
      TT_BENCH_SNAPSHOT_DIR: snapshotFolder(run),
      ...extraEnv,
    },
    until: Date.now() + 60_000,
    announce: (authority) => console.log(`> code-server ${label} on ${authority}`),
  });
  // Tall enough that the Running Extensions editor shows every activated extension at once.
  const context = await browser.newContext({ viewport: { width: 1280, height: 1400 } });
  await codeServer.logIn(context);
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[page ${label}] ${error.message}`));
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    if (type === 'error' || run.verbose)
      console.error(`[host ${label}] ${Array.isArray(args) ? args.join(' ') : String(args)}`);
  });
  const remote = (path) =>
    `vscode-remote://${codeServer.authority}${path.split(sep).map(encodeURIComponent).join('/')}`;
  const payload = [
    ['extensionDevelopmentPath', remote(emptyExtension)],
    ['extensionTestsPath', remote(probeIndex)],
  ];
  await page.goto(
    `http://${codeServer.authority}/?folder=${encodeURIComponent(hostDirs.workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`,
    {
      waitUntil: 'domcontentloaded',
      timeout: 60_000,
    },
  );
  return { codeServer, context, page };
}

async function closeHost(host) {
  await host.context.close();
  await stopGroup(host.codeServer.child);
}

/** Our extension's install folder in a host. */
function installedFolder(hostDirs) {
  const folder = readdirSync(hostDirs.extensions).find((name) => name.startsWith(`${extensionId}-`));
  if (folder === undefined) throw new Error(`${extensionId} is not installed in ${hostDirs.extensions}`);
  return join(hostDirs.extensions, folder);
}

/**
 * The extension's global storage in a host, where its ledger lives (VS Code names the folder by the lower-cased id).
 */
function ledgerFolder(hostDirs) {
  return join(hostDirs['user-data'], 'User', 'globalStorage', extensionId.toLowerCase());
}

/**
 * What the seeded ledger holds in a heap, measured in this process where nothing else moves: its
 * book as read and the three periods' summaries the view and status bar keep, after a full GC.
 */
function historyHeldBytes(file) {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc');
  const text = readFileSync(file, 'utf8');
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const read = parseBook(text);
  const held = 'book' in read ? PERIODS.map((kind) => summarize(read.book.rows, kind, Date.now())) : [];
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  return held.length > 0 && 'book' in read ? after - before : 0;
}

/**
 * The host's ledger as on disk, read with the ledger's own parser: its rows, and what was
 * credited since `sinceMs` (the seeded week all ended before today), on which repositories and
 * branches. By the rows' ends, not their starts: the ledger counts from the start the app gives,
 * which it writes to the second and may be up to a second before `sinceMs`.
 */
function readLedger(hostDirs, sinceMs) {
  const file = join(ledgerFolder(hostDirs), LEDGER_FILE);
  if (!existsSync(file)) return { rows: 0, bytes: 0, creditedMs: 0, places: [], problem: 'no ledger file' };
  const text = readFileSync(file, 'utf8');
  const read = parseBook(text);
  if (!('book' in read)) return { rows: 0, bytes: text.length, creditedMs: 0, places: [], problem: read.problem };
  const fresh = read.book.rows.filter((row) => row.lastMs > sinceMs);
  const places = [...new Set(fresh.map((row) => `${row.repository}/${row.branch}`))];
  return {
    rows: read.book.rows.length,
    bytes: statSync(file).size,
    creditedMs: fresh.reduce((sum, row) => sum + row.ms, 0),
    places,
  };
}

/**
 * A server the probes announce themselves to (POST /<label> with their pid and port), so that the
 * bench awaits each host's probe rather than polling for it.
 */
function listenForProbes(labels) {
  const waiting = new Map(
    labels.map((label) => {
      let resolveHello;
      const hello = new Promise((resolve) => (resolveHello = resolve));
      return [label, { hello, resolveHello }];
    }),
  );
  const server = createServer((incoming, answer) => {
    let body = '';
    incoming.setEncoding('utf8');
    incoming.on('data', (chunk) => (body += chunk));
    incoming.on('end', () => {
      const slot = waiting.get(incoming.url?.slice(1) ?? '');
      if (incoming.method !== 'POST' || slot === undefined) return void answer.writeHead(404).end();
      slot.resolveHello(JSON.parse(body));
      answer.writeHead(204).end();
    });
  });
  return new Promise((resolveServer, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      resolveServer({
        url: `http://127.0.0.1:${server.address().port}`,
        hello: async (label, ms) => {
          const limit = timer(ms);
          const hello = await Promise.race([waiting.get(label).hello, limit.elapsed.then(() => undefined)]);
          limit.cancel();
          if (hello === undefined)
            throw new Error(
              `the probe in the host ${label} the extension did not announce itself within ${ms / 1000} s`,
            );
          return hello;
        },
        close: () => new Promise((resolveClose) => server.close(() => resolveClose())),
      });
    });
  });
}

/** The extension host's CPU time so far, in clock ticks: its own (utime + stime) and its reaped children's. */
function cpuTicks(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may itself hold spaces and parentheses; [0] is field 3.
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return { own: fields[11] + fields[12], children: fields[13] + fields[14] };
}

async function heap(probe) {
  const answer = await fetch(`http://127.0.0.1:${probe.port}/heap`, { signal: AbortSignal.timeout(30_000) });
  if (!answer.ok) throw new Error(`the probe answered GET /heap with ${answer.status}`);
  return answer.json();
}

/** The median of three readings a few seconds apart: one reading of a host's heap after GC varies by a few MB. */
async function steadyHeap(probe) {
  const readings = [];
  for (let reading = 0; reading < HEAP_READINGS; reading++) {
    if (reading > 0) await delay(HEAP_READING_GAP_MS);
    readings.push(await heap(probe));
  }
  return readings.sort((a, b) => a.heapUsed - b.heapUsed)[Math.floor(HEAP_READINGS / 2)];
}

async function takeProfile(probe, ms) {
  // The answer comes when the profile is done: undici's own 300 s header time-out (which fetch
  // cannot change) would cut a longer one off, so the limit is the profile's length plus a minute.
  const limitMs = ms + 60_000;
  const answer = await request(`http://127.0.0.1:${probe.port}/profile?ms=${ms}`, {
    headersTimeout: limitMs,
    bodyTimeout: limitMs,
    signal: AbortSignal.timeout(limitMs),
  });
  if (answer.statusCode !== 200)
    throw new Error(`the probe answered GET /profile with ${answer.statusCode}: ${await answer.body.text()}`);
  return answer.body.json();
}

/**
 * Every host's CPU over the same `minutes`, between two heap readings (whose forced GCs are left
 * out of the window). Samples once a minute for the progress lines.
 */
/** Runs `work` while a Shift key is pressed in every page now and every `everyMs`: the windows stay in use. */
async function withKeys(pages, everyMs, work) {
  const press = () => {
    for (const page of pages) void page.keyboard.press('Shift').catch(() => undefined);
  };
  press();
  const keys = setInterval(press, everyMs);
  try {
    return await work();
  } finally {
    clearInterval(keys);
  }
}

async function idleWindow(probe, minutes) {
  const labels = Object.keys(probe);
  const each = async (work) =>
    Object.fromEntries(await Promise.all(labels.map(async (label) => [label, await work(label)])));
  const ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
  const heapStart = {};
  for (const label of labels) heapStart[label] = await steadyHeap(probe[label]);
  console.log(
    `> polling while tracking for ${minutes} min, every host at once (CPU from /proc/<pid>/stat, ${ticksPerSecond} ticks a second)`,
  );
  const loadStart = loadavg();
  const ticks = () => each((label) => cpuTicks(probe[label].pid));
  const first = { ...(await ticks()), at: performance.now() };
  const windowMs = minutes * 60_000;
  let last = first;
  while (last.at - first.at < windowMs) {
    await delay(Math.min(SAMPLE_MS, windowMs - (last.at - first.at)));
    last = { ...(await ticks()), at: performance.now() };
    const so = labels
      .map((label) => `${((last[label].own - first[label].own) / ticksPerSecond).toFixed(2)} s ${label}`)
      .join(', ');
    console.log(`  ${((last.at - first.at) / 60_000).toFixed(1)} min: CPU so far ${so}`);
  }
  const loadEnd = loadavg();
  const heapEnd = {};
  for (const label of labels) heapEnd[label] = await steadyHeap(probe[label]);
  const used = (label) => ({
    ownTicks: last[label].own - first[label].own,
    childTicks: last[label].children - first[label].children,
  });
  return {
    ticksPerSecond,
    windowSeconds: (last.at - first.at) / 1000,
    cpu: await each(used),
    heap: await each((label) => ({ start: heapStart[label], end: heapEnd[label] })),
    load: { start: loadStart, end: loadEnd },
  };
}

/** The extension's name as the Running Extensions editor shows it (its English display name). */
function displayName() {
  const key = /^%(.+)%$/.exec(manifest.displayName)?.[1];
  if (key === undefined) return manifest.displayName;
  return JSON.parse(readFileSync(join(repoRoot, 'package.nls.json'), 'utf8'))[key] ?? manifest.displayName;
}

/**
 * Opens Developer: Show Running Extensions and reads every row: VS Code's own figure per extension
 * ("Startup Activation: N ms" = codeLoadingTime + activateCallTime, measured by the extension host
 * with Date.now() and sent to the workbench with $onExtensionActivated).
 */
async function readActivation(page) {
  await page.keyboard.press(KEYS.runningExtensions);
  const names = [displayName(), extensionId];
  const rows = await page
    .waitForFunction(
      (wanted) => {
        const read = [...document.querySelectorAll('.runtime-extensions-editor .monaco-list-row')].map((row) => ({
          name: row.querySelector('.name')?.textContent?.trim() ?? '',
          time: row.querySelector('.activation-time')?.textContent?.trim() ?? '',
        }));
        return read.some((row) => wanted.includes(row.name) && /\d+ms/.test(row.time)) ? read : false;
      },
      names,
      { timeout: 30_000, polling: 200 },
    )
    .then((handle) => handle.jsonValue())
    .catch(() => undefined);
  if (rows === undefined)
    throw new Error(
      `the Running Extensions editor did not list ${names.join(' or ')} with an activation time within 30 s`,
    );
  const parsed = rows.map((row) => {
    const match = /(Startup )?Activation: (\d+)ms/.exec(row.time);
    return {
      name: row.name,
      text: row.time,
      ms: match === null ? undefined : Number(match[2]),
      startup: match?.[1] !== undefined,
    };
  });
  return { ours: parsed.find((row) => names.includes(row.name)), all: parsed };
}

/**
 * Start, Stop, Start… `trials` times each. In the page: a capturing keydown listener keeps each
 * key's timeStamp and a MutationObserver on the status bar keeps each new text of the extension's
 * item with performance.now(); the latency is the one minus the other, on the page's clock. The
 * observer fires when the DOM holds the new text, before the next paint.
 */
async function startStopLatency(page, statusBar, trials) {
  await page.evaluate((prefix) => {
    const record = { keys: [], changes: [] };
    window.ttBench = record;
    window.addEventListener(
      'keydown',
      (event) => void (['F7', 'F8'].includes(event.key) && record.keys.push(event.timeStamp)),
      true,
    );
    const read = () =>
      [...document.querySelectorAll('.statusbar-item')]
        .find((element) => element.id.startsWith(prefix))
        ?.textContent?.replace(/\s+/g, ' ')
        .trim() ?? '';
    let last = read();
    new MutationObserver(() => {
      const text = read();
      if (text === last) return;
      last = text;
      record.changes.push({ text, at: performance.now() });
    }).observe(document.querySelector('.part.statusbar'), { subtree: true, childList: true, characterData: true });
  }, extensionId);

  const latency = { start: [], stop: [] };
  for (let trial = 0; trial < trials * 2; trial++) {
    const kind = trial % 2 === 0 ? 'start' : 'stop';
    const shows = kind === 'start' ? `^${ACTIVITY}\\b` : 'Not tracking';
    const paced = delay(PACE_MS);
    const from = await page.evaluate(() => ({
      keys: window.ttBench.keys.length,
      changes: window.ttBench.changes.length,
    }));
    await page.keyboard.press(KEYS[kind]);
    const ms = await page
      .waitForFunction(
        ({ from, shows }) => {
          const { keys, changes } = window.ttBench;
          const pressed = keys[from.keys];
          const shown = changes.slice(from.changes).find((change) => new RegExp(shows).test(change.text));
          return pressed !== undefined && shown !== undefined ? shown.at - pressed : false;
        },
        { from, shows },
        { timeout: 20_000 },
      )
      .then((handle) => handle.jsonValue())
      .catch(() => undefined);
    if (ms === undefined) {
      const now = await statusBar.item();
      throw new Error(
        `${kind} #${Math.floor(trial / 2) + 1}: the status bar item did not show /${shows}/ within 20 s; it shows "${now?.text ?? 'nothing'}"`,
      );
    }
    latency[kind].push(ms);
    await paced;
  }
  return latency;
}
