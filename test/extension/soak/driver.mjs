// The soak's part outside the host: the `driver` of the `soak` entry in test/suites.mjs, called
// by the launcher (../host/launch.mjs) around the in-host suite (./soak.test.ts). It picks the
// seed, the port and the token, gives the host its parameters (minutes, seed, faults, port, user
// data folder) and settings (`timeTracker.port`, poll interval 2 s), reads the workbench's
// notification toasts from the DOM while the soak runs, prints the host's progress and, at the
// end, the summary (faults by kind, entries logged/queued/delivered, heap and handles,
// notifications by text). It adds one check of its own: every notification of the extension the
// workbench showed was counted by the host, so the host's count misses nothing. On a failure it
// prints the host's last 40 events. The run is bounded by the soak's minutes plus the entry's own.
/* global document, setInterval, clearInterval */
import { randomBytes, randomInt } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, prefixLines, repoRoot } from '../host/common.mjs';

const MAX_MINUTES = 240;
const FAULT_KINDS = [
  'restart',
  'reset',
  'answerLost',
  'crashAfterCommit',
  'license',
  'lockout',
  'break',
  'unwired',
  'branch',
];

/**
 * Checks the command line's soak options before anything starts; throws one sentence.
 * `duration` is --soak-minutes (or the entry's), `seed` and `faults` the strings given, if any.
 */
export function readOptions({ duration, seed, faults }) {
  if (!Number.isFinite(duration) || duration < 0.5 || duration > MAX_MINUTES)
    throw new Error(`--soak-minutes must be a number from 0.5 to ${MAX_MINUTES}, not "${duration}".`);
  const seedNumber = seed === undefined ? randomInt(1, 2 ** 31) : Number(seed);
  if (!Number.isSafeInteger(seedNumber) || seedNumber < 0)
    throw new Error(`--seed must be a whole number of 0 or more, not "${seed}".`);
  const kinds = (faults ?? FAULT_KINDS.join(','))
    .split(',')
    .map((kind) => kind.trim())
    .filter((kind) => kind !== '');
  const unknown = kinds.filter((kind) => !FAULT_KINDS.includes(kind));
  if (kinds.length === 0 || unknown.length > 0)
    throw new Error(
      `--faults takes a comma-separated list of ${FAULT_KINDS.join(', ')}; not "${unknown.join(',') || faults}".`,
    );
  return { minutes: duration, seed: seedNumber, faults: kinds };
}

/** The hooks ../host/launch.mjs calls around runSuiteInHost; `options` come from readOptions. */
export default async function soakDriver({ options }) {
  const { minutes, seed, faults } = options;
  console.log(`> soak: ${minutes} min, seed ${seed} (repeat with --seed ${seed}), faults ${faults.join(', ')}`);
  // Hex: a base64url token may start with "-", which reads as an option.
  const token = randomBytes(24).toString('hex');
  const port = await freePort();
  const toasts = new ToastWatch();
  let tail;
  let summary;
  let events = [];
  return {
    // The proxy the soak starts in the host listens on `port`; the poll interval is the shortest allowed.
    settings: { 'timeTracker.port': port, 'timeTracker.pollIntervalSeconds': 2 },
    // The token as a user without a stored one gives it: no first-run notice, connected at once.
    env: () => ({ SERVICE_TOKEN: token }),
    params: (dirs) => ({ minutes, seed, faults: faults.join(','), port, userData: dirs['user-data'] }),
    onPage: (page, { resultFile }) => {
      toasts.start(page);
      tail = tailFile(`${resultFile}.progress`, '[soak] ');
    },
    afterVerdict: async ({ resultFile }) => {
      toasts.stop();
      tail?.stop();
      summary = readJson(`${resultFile}.soak.json`);
      // The host's own record of faults and actions, shown when something failed.
      if (existsSync(`${resultFile}.events`))
        events = readFileSync(`${resultFile}.events`, 'utf8').trimEnd().split('\n');
      await toasts.settled();
      if (summary !== undefined) printSummary(summary, toasts);
    },
    /** Nothing of the driver may keep the process alive after a failure. */
    stop: () => {
      toasts.stop();
      tail?.stop();
    },
    /** The suite's outcome with this driver's own check added. */
    finish: (outcome) => {
      if (outcome.failures > 0 && events.length > 0) {
        console.log(
          `\nlast events in the host (of ${events.length}):\n${prefixLines('  ', events.slice(-40).join('\n'))}`,
        );
      }
      const title = 'every notification of the extension the workbench showed was counted in the host';
      if (summary === undefined) {
        console.log(`  - ${title}: not run (the host wrote no summary)`);
        return { passes: outcome.passes, failures: outcome.failures + 1 };
      }
      const counted = new Set(summary.notifications.map((shown) => shown.message));
      const missed = [...toasts.messages()].filter((message) => !counted.has(message));
      if (missed.length > 0) {
        console.error(
          `  ✘ ${title}: the DOM showed ${missed.length} the host did not count:\n${prefixLines('      ', missed.join('\n'))}`,
        );
        return { passes: outcome.passes, failures: outcome.failures + 1 };
      }
      console.log(
        `  ✔ ${title} (${toasts.count} toasts of the extension in the DOM, ${toasts.messages().size} distinct texts)`,
      );
      return { passes: outcome.passes + 1, failures: outcome.failures };
    },
  };
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
            return {
              message: text('.notification-list-item-message'),
              source: text('.notification-list-item-source'),
              label: toast.querySelector('.monaco-list-row')?.getAttribute('aria-label') ?? '',
            };
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
  return key === undefined ? name : (readJson(join(repoRoot, 'package.nls.json'))?.[key] ?? name);
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
  for (const [text, count] of [...byText].sort((a, b) => b[1] - a[1]))
    lines.push(`    ${String(count).padStart(4)}× ${text}`);
  lines.push(
    `  the workbench's DOM showed ${toasts.count} toasts of the extension (${toasts.messages().size} distinct texts)`,
  );
  console.log(`\n${lines.join('\n')}`);
}
