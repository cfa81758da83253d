/**
 * The soak, inside the real extension host: the extension against the reference server (behind a
 * proxy on a fixed port) for the given minutes while the fault injector (faults.ts) restarts and
 * crashes the app, resets connections, loses answers, locks the license, locks everyone out,
 * takes breaks, unwires endpoints and switches git branches, and the user (user.ts) logs time.
 * Then every fault is put back, the offline queue is given time to drain by itself, and each check
 * below is one test. The launcher starts it (`npm run soak -- --soak-minutes N`, the entry in
 * test/suites.mjs) and ./driver.mjs prints the summary this writes beside the result file.
 *
 * Parameters (../launch.ts, set by ./driver.mjs): minutes, seed, faults (comma-separated kinds,
 * default all), port (the extension's timeTracker.port), userData (where the queue file lives);
 * SERVICE_TOKEN in the environment is the token the extension falls back to.
 */
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { HandledSwitch } from '../../../src/extension/branchReporter';
import type { QueuedEntry } from '../../../src/tracker/queue/queueFormat';
import { requiredParam, suiteLaunch } from '../launch';
import { SoakApp } from './app';
import { FAULT_KINDS, FaultInjector, type FaultKind } from './faults';
import { ProcessWatch, sample, type ProcessProblem, type Sample } from './monitor';
import { Rng } from '../../fuzz/generator';
import { NotificationSpy, type Shown } from './spy';
import { nextStateOr, until as untilState } from '../suite/states';
import { SoakUser, type UserAction } from './user';

const extensionId = 'clessira-tools.clessira-time-tracker';
const repoRoot = join(__dirname, '..', '..', '..', '..');
const { params, resultFile } = suiteLaunch();
const minutes = Number(params.minutes ?? 2);
const seed = Number(params.seed ?? 1);
const kinds = String(params.faults ?? FAULT_KINDS.join(','))
  .split(',')
  .filter((kind): kind is FaultKind => (FAULT_KINDS as readonly string[]).includes(kind));
const QUEUE_FILE = 'queued-entries.json';
/** The queue's own warning after a send whose fate is unknown, or refused (offlineQueue.ts). */
const QUEUE_DECISION = /Decide in Show Queued Entries\.$/;
/** The queue's word that a flush sent what waited (offlineQueue.ts): once per flush that sent something. */
const QUEUE_SENT = /^Sent .*\(?(logged|queued) while the app/;
/** After the faults: the poller backs off to at most 60 s, so a queue still waiting after that is stuck. */
const DRAIN_MS = 90_000;
/** Long enough for idle keep-alive connections (client 2–4 s, server 5 s) to close. */
const QUIET_MS = 8_000;
const PROGRESS_EVERY_MS = 30_000;
const HEAP_FACTOR = 2;
const HEAP_SLACK_MB = 20;
const HANDLE_SLACK = 10;

/** Everything the checks read, gathered once the soak is over. */
interface Outcome {
  readonly actions: readonly UserAction[];
  readonly shown: readonly Shown[];
  /** Notes of the soak's entries on the server, in the order it logged them. */
  readonly serverNotes: readonly string[];
  readonly queue: readonly QueuedEntry[];
  readonly drainedAfterMs: number | undefined;
  readonly problems: readonly ProcessProblem[];
  readonly warm: Sample;
  readonly end: Sample;
  readonly injected: Readonly<Record<FaultKind, number>>;
  readonly crashes: number;
  readonly injectorErrors: readonly string[];
  readonly switches: readonly string[];
  readonly handled: readonly HandledSwitch[];
}

const log = (file: string | undefined, line: string): void => {
  if (file !== undefined) appendFileSync(file, `${new Date().toISOString()} ${line}\n`);
};
const event = (line: string): void => log(resultFile && `${resultFile}.events`, line);
const progress = (line: string): void => log(resultFile && `${resultFile}.progress`, line);

describe(`soak: ${minutes} min of faults against the reference server`, function () {
  // The soak itself, draining, quiet time and start-up, with room to spare.
  this.timeout(minutes * 60_000 + DRAIN_MS + QUIET_MS + 120_000);
  let app: SoakApp | undefined;
  let spy: NotificationSpy | undefined;
  let watch: ProcessWatch | undefined;
  const subscriptions: vscode.Disposable[] = [];
  let outcome: Outcome;

  before(async () => {
    assert.ok(
      Number.isFinite(minutes) && minutes > 0,
      `the soak's minutes must be a positive number, not ${String(params.minutes)}`,
    );
    assert.ok(kinds.length > 0, `the soak's faults name no fault kind of ${FAULT_KINDS.join(', ')}`);
    const token = process.env.SERVICE_TOKEN;
    const port = requiredParam('port', 'soak');
    const userData = requiredParam('userData', 'soak');
    assert.ok(token !== undefined, 'run the soak with `npm run soak`: it sets SERVICE_TOKEN');
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root !== undefined, 'the soak needs a workspace folder (a git repository)');
    const random = new Rng(seed);
    const api = (await vscode.extensions.getExtension(extensionId)!.activate()) as TimeTrackerApi;
    const queueFile = join(userData, 'User', 'globalStorage', extensionId, QUEUE_FILE);
    const readQueue = async (): Promise<QueuedEntry[]> => {
      try {
        return (JSON.parse(await readFile(queueFile, 'utf8')) as { entries: QueuedEntry[] }).entries;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
    };

    // driver.mjs set timeTracker.port to this port and the poll interval to 2 s.
    app = new SoakApp(token, Number(port));
    await app.up();
    await untilState(
      api,
      (state) => state.kind === 'idle' || state.kind === 'tracking',
      "the extension connected to the soak's app",
      30_000,
    );
    assert.deepEqual(await api.branchWatchReady(), [root]);

    // The spy must see what the extension shows: a refused argument shows exactly one error.
    spy = new NotificationSpy();
    await spy.during(0, () =>
      Promise.resolve(vscode.commands.executeCommand('timeTracker.log', { name: 'Soak review', durationMinutes: '0' })),
    );
    assert.equal(
      spy.of(0).length,
      1,
      `the notification spy saw ${spy.of(0).length} notifications for a refused argument, not 1: it does not see what the extension shows`,
    );

    watch = new ProcessWatch(repoRoot);
    const handled: HandledSwitch[] = [];
    subscriptions.push(api.onDidHandleBranchSwitch((change) => handled.push(change)));
    const switches: string[] = [];
    const git = async (...args: string[]): Promise<string> =>
      (await promisify(execFile)('git', args, { cwd: root, timeout: 10_000 })).stdout;
    const switchBranch = async (): Promise<string> => {
      const current = (await git('branch', '--show-current')).trim();
      const target = random.pick(['main', 'feature', 'other'].filter((branch) => branch !== current));
      await git('checkout', '-q', target);
      switches.push(target);
      return target;
    };

    const user = new SoakUser({
      random,
      spy,
      isQueued: async (note) => (await readQueue()).some((entry) => entry.request.note === note),
      event,
    });
    const injector = new FaultInjector({
      app,
      random,
      kinds,
      maxLockouts: Math.max(1, Math.floor(minutes / 2)),
      switchBranch,
      onArmed: () => user.nudge(),
      event,
    });
    // Whenever the app goes away, the user logs at once: those entries must be queued.
    app.onDown = () => user.nudge();

    const started = Date.now();
    const until = started + minutes * 60_000;
    const warmAt = started + Math.min(30_000, (minutes * 60_000) / 4);
    let warm: Sample | undefined;
    const sampler = setTimeout(() => (warm = sample()), warmAt - started);
    const reporter = setInterval(() => {
      const logs = user.actions.filter((action) => action.command === 'log');
      const count = (outcome: string): number => logs.filter((action) => action.outcome === outcome).length;
      const faults = Object.values(injector.injected).reduce((sum, n) => sum + n, 0);
      const now = sample();
      progress(
        `${Math.round((Date.now() - started) / 1000)}/${minutes * 60} s: ${faults} faults, ${logs.length} entries logged ` +
          `(${count('delivered')} delivered, ${count('queued')} queued, ${count('failed')} failed), heap ${now.heapUsedMB} MB, ` +
          `${now.handles} handles, status bar "${api.text}"`,
      );
    }, PROGRESS_EVERY_MS);
    progress(
      `soak started: ${minutes} min, seed ${seed}, faults ${kinds.join(', ')}; the app on 127.0.0.1:${port}, status bar "${api.text}"`,
    );
    try {
      await Promise.all([injector.run(until), user.run(until)]);
    } finally {
      clearTimeout(sampler);
      clearInterval(reporter);
      user.stop();
      await injector.stop();
    }
    warm ??= sample();

    progress('faults over: every control back to normal; waiting for the queue to drain by itself');
    await app.heal();
    const drainStarted = Date.now();
    let drainedAfterMs: number | undefined;
    while (Date.now() - drainStarted < DRAIN_MS) {
      const queue = await readQueue();
      const busy = queue.some((entry) => entry.status === 'waiting' || entry.status === 'sending');
      if (!busy && api.queuedEntries === queue.length) {
        drainedAfterMs = Date.now() - drainStarted;
        break;
      }
      await nextStateOr(api, 1_000);
    }
    await delay(QUIET_MS);
    const end = sample();

    outcome = {
      actions: user.actions,
      shown: spy.shown,
      serverNotes: app.state
        .listEntries()
        .filter((entry) => entry.note?.startsWith('soak-') ?? false)
        .map((entry) => entry.note!),
      queue: await readQueue(),
      drainedAfterMs,
      problems: watch.problems(),
      warm,
      end,
      injected: injector.injected,
      crashes: injector.crashes,
      injectorErrors: injector.errors,
      switches,
      handled,
    };
    writeSummary(outcome, {
      activities: app.state.listActivities().length,
      instances: app.instances,
      resets: app.proxy.resets,
      branchReports: app.branchReports().length,
      statusBar: api.text,
    });
  });

  after(async () => {
    for (const subscription of subscriptions) subscription.dispose();
    spy?.dispose();
    watch?.dispose();
    await app?.stop();
  });

  const crashes = kinds.includes('crashAfterCommit');
  it(`kept the pace (a fault and a user action every 4 s at least) and injected every fault kind${crashes ? ', crashing right after logging' : ''}`, () => {
    const faults = Object.values(outcome.injected).reduce((sum, n) => sum + n, 0);
    const least = Math.floor((minutes * 60) / 4);
    assert.ok(
      faults >= least && outcome.actions.length >= least,
      `${faults} faults and ${outcome.actions.length} user actions in ${minutes} min; at least ${least} of each expected`,
    );
    const missing = kinds.filter((kind) => outcome.injected[kind] === 0);
    assert.deepEqual(missing, [], `never injected: ${missing.join(', ')}`);
    assert.deepEqual(outcome.injectorErrors, [], 'the fault injector itself failed');
    if (crashes) assert.ok(outcome.crashes > 0, 'no crashAfterCommit fault found an entry in flight');
  });

  it('has no unhandled rejection or uncaught exception in the extension host', () => {
    const ours = outcome.problems.filter((problem) => problem.ours);
    assert.deepEqual(
      ours.map((problem) => `${problem.kind}: ${problem.text}`),
      [],
    );
  });

  it('shows no notification storm: one per Log Time, at most one per other command, one per queued entry needing a decision or sent', () => {
    const faults: string[] = [];
    // What the queue says when it sends or needs a decision belongs to its flush, whichever action runs meanwhile.
    const ofQueue = (shown: Shown): boolean => QUEUE_DECISION.test(shown.message) || QUEUE_SENT.test(shown.message);
    const byAction = (action: UserAction): Shown[] =>
      outcome.shown.filter((shown) => shown.action === action.n && !ofQueue(shown));
    for (const action of outcome.actions) {
      const shown = byAction(action);
      const allowed = action.command === 'log' && action.outcome !== 'hung' ? [1] : [0, 1];
      if (!allowed.includes(shown.length))
        faults.push(
          `${action.command} #${action.n} (${action.outcome}) showed ${shown.length}: ${shown.map((s) => s.message).join(' | ')}`,
        );
    }
    const sent = outcome.shown.filter((shown) => QUEUE_SENT.test(shown.message)).length;
    const queued = outcome.actions.filter((action) => action.outcome === 'queued').length;
    if (sent > queued)
      faults.push(`${sent} "Sent … logged while the app was offline" messages for ${queued} queued entries`);
    const background = outcome.shown.filter(
      (shown) => (shown.action === undefined || QUEUE_DECISION.test(shown.message)) && !QUEUE_SENT.test(shown.message),
    );
    const decisions = background.filter((shown) => QUEUE_DECISION.test(shown.message)).length;
    const causes = outcome.queue.filter((entry) => entry.status === 'unknown' || entry.status === 'refused').length;
    if (decisions > causes)
      faults.push(`${decisions} "Decide in Show Queued Entries" warnings for ${causes} entries needing a decision`);
    for (const [message, count] of countBy(
      background.filter((shown) => !QUEUE_DECISION.test(shown.message)).map((shown) => shown.message),
    )) {
      if (count > 1) faults.push(`${count}× in the background: ${message}`);
    }
    assert.deepEqual(faults, []);
  });

  it(`keeps the heap flat: at the end under ${HEAP_FACTOR}× the warmed-up heap + ${HEAP_SLACK_MB} MB`, () => {
    const limit = HEAP_FACTOR * outcome.warm.heapUsedMB + HEAP_SLACK_MB;
    assert.ok(
      outcome.end.heapUsedMB < limit,
      `heap used ${outcome.warm.heapUsedMB} MB after warm-up, ${outcome.end.heapUsedMB} MB at the end (limit ${limit} MB)`,
    );
  });

  it(`keeps open handles flat: at most ${HANDLE_SLACK} more active resources at the end than after warm-up`, () => {
    const growth = Object.entries(outcome.end.byType)
      .map(([type, count]) => `${type} ${outcome.warm.byType[type] ?? 0} → ${count}`)
      .join(', ');
    assert.ok(
      outcome.end.handles <= outcome.warm.handles + HANDLE_SLACK,
      `${outcome.warm.handles} after warm-up, ${outcome.end.handles} at the end: ${growth}`,
    );
  });

  it(`drains the offline queue by itself within ${DRAIN_MS / 1000} s once the app is healthy`, () => {
    const stuck = outcome.queue.filter((entry) => entry.status === 'waiting' || entry.status === 'sending');
    assert.ok(
      outcome.drainedAfterMs !== undefined,
      `still queued after ${DRAIN_MS / 1000} s: ${stuck.map((entry) => `${entry.request.note ?? '?'} (${entry.status}: ${entry.reason ?? ''})`).join(', ')}`,
    );
  });

  it('has every entry logged or queued on the server exactly once, the queued ones in order', () => {
    const counts = countBy(outcome.serverNotes);
    const inQueue = new Map(outcome.queue.map((entry) => [entry.request.note, entry.status]));
    const faults: string[] = [];
    for (const action of outcome.actions.filter((action) => action.command === 'log')) {
      const note = action.note!;
      const count = counts.get(note) ?? 0;
      const undecided = inQueue.get(note) === 'unknown' || inQueue.get(note) === 'refused';
      if (action.outcome === 'hung') faults.push(`${note}: Log Time did not settle within 30 s`);
      if (action.outcome === 'delivered' && count !== 1) faults.push(`${note}: logged, but ${count}× on the server`);
      if (action.outcome === 'queued' && !undecided && count !== 1)
        faults.push(`${note}: queued, but ${count}× on the server`);
    }
    const logged = new Set(outcome.actions.map((action) => action.note));
    for (const note of counts.keys()) if (!logged.has(note)) faults.push(`${note}: on the server, but never logged`);
    const queuedOrder = outcome.actions
      .filter((action) => action.outcome === 'queued' && counts.get(action.note!) === 1)
      .map((action) => outcome.serverNotes.indexOf(action.note!));
    const outOfOrder = queuedOrder.findIndex((position, index) => index > 0 && position < queuedOrder[index - 1]!);
    if (outOfOrder > 0) faults.push(`queued entries arrived out of order: ${outcome.serverNotes.join(', ')}`);
    assert.deepEqual(faults, []);
  });

  it('has no entry on the server twice, whatever the user was told (failed, fate unknown)', () => {
    const twice = [...countBy(outcome.serverNotes)].filter(([, count]) => count > 1);
    const told = new Map(outcome.actions.map((action) => [action.note, action.outcome]));
    assert.deepEqual(
      twice.map(([note, count]) => `${note}: ${count}× (the user was told: ${told.get(note) ?? '?'})`),
      [],
    );
  });

  it('handles every git branch switch exactly once', () => {
    assert.deepEqual(
      outcome.handled.map((change) => change.branch),
      outcome.switches,
      `switched ${outcome.switches.length}×, handled ${outcome.handled.length}×: ${outcome.handled.map((change) => `${change.branch} ${change.outcome}`).join(', ')}`,
    );
  });
});

function countBy<T>(items: readonly T[]): Map<T, number> {
  const counts = new Map<T, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return counts;
}

/** What driver.mjs prints: written beside the result file. */
function writeSummary(outcome: Outcome, extra: Record<string, unknown>): void {
  if (resultFile === undefined) return;
  const logs = outcome.actions.filter((action) => action.command === 'log');
  const counts = countBy(outcome.serverNotes);
  const summary = {
    minutes,
    seed,
    kinds,
    injected: Object.fromEntries(kinds.map((kind) => [kind, outcome.injected[kind]])),
    crashesAfterCommit: outcome.crashes,
    actions: countBy(outcome.actions.map((action) => `${action.command} ${action.outcome}`)),
    entries: {
      logged: logs.length,
      delivered: logs.filter((action) => action.outcome === 'delivered').length,
      queued: logs.filter((action) => action.outcome === 'queued').length,
      failed: logs.filter((action) => action.outcome === 'failed').length,
      failedButOnServer: logs.filter((action) => action.outcome === 'failed' && counts.has(action.note!)).length,
      onServer: outcome.serverNotes.length,
      queueAtEnd: countBy(outcome.queue.map((entry) => entry.status)),
    },
    drainedAfterMs: outcome.drainedAfterMs,
    heapMB: { warm: outcome.warm.heapUsedMB, end: outcome.end.heapUsedMB },
    rssMB: { warm: outcome.warm.rssMB, end: outcome.end.rssMB },
    handles: {
      warm: outcome.warm.handles,
      end: outcome.end.handles,
      warmByType: outcome.warm.byType,
      endByType: outcome.end.byType,
    },
    notifications: outcome.shown.map((shown) => ({
      severity: shown.severity,
      message: shown.message,
      atMs: shown.atMs,
      action: shown.action ?? null,
    })),
    problems: outcome.problems,
    branch: { switches: outcome.switches.length, handled: countBy(outcome.handled.map((change) => change.outcome)) },
    ...extra,
  };
  writeFileSync(
    `${resultFile}.soak.json`,
    `${JSON.stringify(summary, (_key, value: unknown) => (value instanceof Map ? Object.fromEntries(value as Map<string, unknown>) : value), 2)}\n`,
  );
}
