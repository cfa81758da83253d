// `npm run soak -- --minutes N`: the extension in a real VS Code extension host (code-server in
// Debian's chromium, as `npm run test:extension` runs it, through ./suite.mjs) for N minutes
// against the reference server while a fault injector restarts and crashes the app, resets
// connections, loses answers, flips the license, locks everyone out, takes breaks, unwires
// endpoints and switches git branches, and a simulated user logs time. The in-host part is
// test/extension/soak/ (soak.test.ts); its checks at the end are one test each:
//   every fault kind injected; no unhandled rejection or uncaught exception; no notification storm
//   (one per Log Time, at most one per other command or background cause); heap and open handles
//   flat; the offline queue drained by itself; every entry logged or queued on the server exactly
//   once, queued ones in order; no entry twice, whatever the user was told; every branch switch
//   handled once.
// This script adds one more: every notification of the extension the workbench showed (read from
// its DOM while the soak runs) was counted by the host, so the host's count misses nothing.
// It prints a summary (faults by kind, entries logged/queued/delivered, heap and handles,
// notifications by text), then `soak-tests: N passed, N failed`; the exit code is 0 only when all
// pass. Everything stays on 127.0.0.1; the run is bounded by N minutes plus 5 for start-up,
// draining and the checks.
//
// Options:
//   --minutes N     how long faults are injected, 0.5 to 240 (default 2)
//   --seed N        the PRNG seed for faults, user actions and waits (default: TT_SOAK_SEED, else
//                   random; printed either way)
//   --faults LIST   comma-separated fault kinds (default all; also TT_SOAK_FAULTS), e.g. restart,license
//   --no-build      skip esbuild and tsc (test/run.mjs has just run them)
//   TT_CHROMIUM_PATH, TT_EXTENSION_VERBOSE=1 as for run.mjs
/* global document, setInterval, clearInterval */
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, HostRun, prefixLines, repoRoot } from './common.mjs';
import { runSuiteInHost } from './suite.mjs';

const MAX_MINUTES = 240;
/** Start-up (code-server, chromium), draining the queue (up to 90 s), quiet time and the checks. */
const MARGIN_SECONDS = 300;
const FAULT_KINDS = ['restart', 'reset', 'answerLost', 'crashAfterCommit', 'license', 'lockout', 'break', 'unwired', 'branch'];

const options = readOptions();
const run = new HostRun({ name: 'soak', countLabel: 'soak-tests', tempPrefix: 'tt-soak-', verbose: process.env.TT_EXTENSION_VERBOSE === '1' });

function readOptions() {
  const fail = (sentence) => {
    console.error(`soak: ${sentence}`);
    process.exit(2);
  };
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        minutes: { type: 'string', default: '2' },
        seed: { type: 'string', default: process.env.TT_SOAK_SEED },
        faults: { type: 'string', default: process.env.TT_SOAK_FAULTS ?? FAULT_KINDS.join(',') },
        'no-build': { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    fail(`${error.message.split('\n')[0].replace(/\.$/, '')} (options: --minutes N, --seed N, --faults LIST, --no-build).`);
  }
  const minutes = Number(values.minutes);
  if (!/^\d+(\.\d+)?$/.test(values.minutes) || minutes < 0.5 || minutes > MAX_MINUTES) fail(`--minutes must be a number from 0.5 to ${MAX_MINUTES}, not "${values.minutes}".`);
  const seed = values.seed === undefined ? randomInt(1, 2 ** 31) : Number(values.seed);
  if (!Number.isSafeInteger(seed) || seed < 0) fail(`--seed must be a whole number of 0 or more, not "${values.seed}".`);
  const faults = values.faults.split(',').map((kind) => kind.trim()).filter((kind) => kind !== '');
  const unknown = faults.filter((kind) => !FAULT_KINDS.includes(kind));
  if (faults.length === 0 || unknown.length > 0) fail(`--faults takes a comma-separated list of ${FAULT_KINDS.join(', ')}; not "${unknown.join(',') || values.faults}".`);
  return { minutes, seed, faults, noBuild: values['no-build'] };
}

async function main() {
  const { minutes, seed, faults, noBuild } = options;
  console.log(`> soak: ${minutes} min, seed ${seed} (repeat with --seed ${seed}), faults ${faults.join(', ')}`);
  // Hex: a base64url token may start with "-", which reads as an option.
  const token = randomBytes(24).toString('hex');
  const port = await freePort();
  const toasts = new ToastWatch();
  let tail;
  let summary;
  let events = [];
  let outcome;
  try {
    outcome = await runSuiteInHost(run, {
      suiteIndex: join(repoRoot, 'out', 'test', 'extension', 'soak', 'index.js'),
      label: 'soak',
      noBuild,
      timeoutSeconds: Math.ceil(minutes * 60) + MARGIN_SECONDS,
      timeoutHint: `--minutes ${minutes} plus ${MARGIN_SECONDS} s`,
      // The proxy the soak starts in the host listens on `port`; the poll interval is the shortest allowed.
      settings: { 'timeTracker.port': port, 'timeTracker.pollIntervalSeconds': 2 },
      // The token as a user without a stored one gives it: no first-run notice, connected at once.
      env: (dirs) => ({
        SERVICE_TOKEN: token,
        TT_SOAK_MINUTES: String(minutes),
        TT_SOAK_SEED: String(seed),
        TT_SOAK_FAULTS: faults.join(','),
        TT_SOAK_PORT: String(port),
        TT_SOAK_USER_DATA: dirs['user-data'],
      }),
      onPage: (page, { resultFile }) => {
        toasts.start(page);
        tail = tailFile(`${resultFile}.progress`, '[soak] ');
      },
      afterVerdict: async ({ resultFile }) => {
        toasts.stop();
        tail?.stop();
        summary = readJson(`${resultFile}.soak.json`);
        // The host's own record of faults and actions, shown when something failed.
        if (existsSync(`${resultFile}.events`)) events = readFileSync(`${resultFile}.events`, 'utf8').trimEnd().split('\n');
        await toasts.settled();
        if (summary !== undefined) printSummary(summary, toasts);
      },
    });
  } finally {
    // Nothing of this script may keep the process alive after a failure.
    toasts.stop();
    tail?.stop();
  }
  if (run.interrupted) return outcome;
  if (outcome.failures > 0 && events.length > 0) {
    console.log(`\nlast events in the host (of ${events.length}):\n${prefixLines('  ', events.slice(-40).join('\n'))}`);
  }
  // The check of this script: nothing the workbench showed escaped the host's count.
  const title = 'every notification of the extension the workbench showed was counted in the host';
  if (summary === undefined) {
    console.log(`  - ${title}: not run (the host wrote no summary)`);
    return { passes: outcome.passes, failures: outcome.failures + 1 };
  }
  const counted = new Set(summary.notifications.map((shown) => shown.message));
  const missed = [...toasts.messages()].filter((message) => !counted.has(message));
  if (missed.length > 0) {
    console.error(`  ✘ ${title}: the DOM showed ${missed.length} the host did not count:\n${prefixLines('      ', missed.join('\n'))}`);
    return { passes: outcome.passes, failures: outcome.failures + 1 };
  }
  console.log(`  ✔ ${title} (${toasts.count} toasts of the extension in the DOM, ${toasts.messages().size} distinct texts)`);
  return { passes: outcome.passes + 1, failures: outcome.failures };
}

/**
 * Reads the workbench's notification toasts once a second: each toast element is marked when
 * first seen, and its message kept if its source is this extension. A lower bound of what was
 * shown (the workbench merges identical notifications and drops toasts beyond three in 800 ms),
 * used only to check that the host's count is complete.
 */
class ToastWatch {
  constructor() {
    this.seen = [];
    this.timer = undefined;
    this.busy = Promise.resolve();
    this.extensionName = displayName();
  }

  get count() {
    return this.seen.length;
  }

  messages() {
    return new Set(this.seen.map((toast) => toast.message));
  }

  start(page) {
    this.timer = setInterval(() => {
      this.busy = this.busy.then(() => this.read(page));
    }, 1_000);
  }

  stop() {
    clearInterval(this.timer);
  }

  settled() {
    return this.busy;
  }

  async read(page) {
    const found = await page
      .evaluate(() =>
        [...document.querySelectorAll('.notification-toast-container')]
          .filter((toast) => !toast.hasAttribute('data-soak-seen'))
          .map((toast) => {
            toast.setAttribute('data-soak-seen', '');
            const text = (selector) => toast.querySelector(selector)?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
            return { message: text('.notification-list-item-message'), source: text('.notification-list-item-source'), label: toast.querySelector('.monaco-list-row')?.getAttribute('aria-label') ?? '' };
          }),
      )
      .catch(() => []);
    for (const toast of found) {
      if (`${toast.source} ${toast.label}`.includes(this.extensionName)) this.seen.push(toast);
    }
  }
}

/** The extension's name as the workbench shows it as a notification's source (English). */
function displayName() {
  const { displayName: name } = readJson(join(repoRoot, 'package.json'));
  const key = /^%(.+)%$/.exec(name)?.[1];
  return key === undefined ? name : readJson(join(repoRoot, 'package.nls.json'))?.[key] ?? name;
}

/** Prints lines appended to `file` as they come, every 2 s, until stopped. */
function tailFile(file, prefix) {
  let printed = 0;
  const print = () => {
    if (!existsSync(file)) return;
    const text = readFileSync(file, 'utf8');
    const fresh = text.slice(printed);
    const complete = fresh.lastIndexOf('\n') + 1;
    if (complete === 0) return;
    process.stdout.write(prefixLines(prefix, fresh.slice(0, complete)));
    printed += complete;
  };
  const timer = setInterval(print, 2_000);
  return {
    stop: () => {
      clearInterval(timer);
      print();
    },
  };
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function printSummary(summary, toasts) {
  const list = (record) =>
    Object.entries(record)
      .map(([key, value]) => `${key} ${value}`)
      .join(', ') || 'none';
  const { entries, injected } = summary;
  const total = Object.values(injected).reduce((sum, n) => sum + n, 0);
  const lines = [
    `soak summary: ${summary.minutes} min, seed ${summary.seed}`,
    `  faults injected (${total}): ${list(injected)}${'crashAfterCommit' in injected ? `; crashAfterCommit fired ${summary.crashesAfterCommit}×` : ''}`,
    `  the app: ${summary.instances} server instances; ${summary.resets} connections reset by faults; ${summary.branchReports} branch reports received`,
    `  user actions: ${list(summary.actions)}`,
    `  entries: ${entries.logged} logged with Log Time: ${entries.delivered} delivered, ${entries.queued} queued, ${entries.failed} failed ` +
      `(${entries.failedButOnServer} of those reached the app: answer lost); ${entries.onServer} soak entries on the server; ` +
      `queue at the end: ${list(entries.queueAtEnd)}`,
    `  queue drained ${summary.drainedAfterMs === null || summary.drainedAfterMs === undefined ? 'NOT within the limit' : `${(summary.drainedAfterMs / 1000).toFixed(1)} s`} after the faults ended; status bar then: "${summary.statusBar}"`,
    `  heap used: ${summary.heapMB.warm} MB after warm-up, ${summary.heapMB.end} MB at the end (rss ${summary.rssMB.warm} → ${summary.rssMB.end} MB)`,
    `  active handles: ${summary.handles.warm} after warm-up (${list(summary.handles.warmByType)}), ${summary.handles.end} at the end (${list(summary.handles.endByType)})`,
    `  branch switches: ${summary.branch.switches}, handled: ${list(summary.branch.handled)}`,
    `  unhandled rejections / uncaught exceptions: ${summary.problems.length === 0 ? 'none' : summary.problems.map((problem) => `${problem.kind}${problem.ours ? '' : ' (another extension)'}: ${problem.text.split('\n')[0]}`).join('; ')}`,
    `  notifications counted in the host (${summary.notifications.length}; numbers as #):`,
  ];
  const byText = new Map();
  for (const shown of summary.notifications) {
    const key = `${shown.severity.padEnd(7)} ${shown.action === null ? '[background] ' : ''}${shown.message.replace(/\d+/g, '#')}`;
    byText.set(key, (byText.get(key) ?? 0) + 1);
  }
  for (const [text, count] of [...byText].sort((a, b) => b[1] - a[1])) lines.push(`    ${String(count).padStart(4)}× ${text}`);
  lines.push(`  the workbench's DOM showed ${toasts.count} toasts of the extension (${toasts.messages().size} distinct texts)`);
  console.log(`\n${lines.join('\n')}`);
}

// Last: the classes above are not hoisted.
await run.execute(main);
