/**
 * Branch reporting latency: from `git checkout` returning to POST /branch-changed arriving at the
 * reference server, through the real watcher and client, over 50 switches; and the watcher's idle
 * cost, as process CPU time with the watcher running against the same window without it.
 */
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ServiceClient } from '../../src/client';
import { BranchWatcher } from '../../src/git/branchWatcher';
import { createReferenceServer } from '../../src/server/server';
import { gitAsync, makeRepository } from '../support/git';
import type { SubjectSummary } from './harness';

const SWITCHES = 50;
const IDLE_WINDOW_MS = 5_000;
const IDLE_ROUNDS = 3;
const SETTLE_MS = 3_000;

export interface GitReport {
  readonly summaries: readonly SubjectSummary[];
  readonly notes: readonly string[];
  readonly verdicts: readonly { what: string; measured: string; target: string; met: boolean }[];
}

export async function gitBenchmark(): Promise<GitReport> {
  const token = 'bench-git-token';
  let arrived: ((at: number) => void) | undefined;
  const server = createReferenceServer({
    token,
    onRequest: (_line, record) => {
      if (record.path === '/branch-changed') arrived?.(performance.now());
    },
  });
  const port = await server.listen(0);
  const client = new ServiceClient({ token, port });
  const root = await makeRepository('bench', ['left', 'right']);
  const watcher = new BranchWatcher({
    onSwitch: (change) =>
      void client
        .notifyBranchChange({
          branch: change.branch,
          repo: 'bench',
          ...(change.previousBranch ? { previousBranch: change.previousBranch } : {}),
        })
        .catch(() => undefined),
  });
  try {
    await watcher.setFolders([root]);
    const latencies: number[] = [];
    let early = 0;
    for (let i = 0; i < SWITCHES; i++) {
      const report = new Promise<number>((resolve) => (arrived = resolve));
      await gitAsync(root, 'checkout', '-q', i % 2 === 0 ? 'left' : 'right');
      const returned = performance.now();
      const at = await withTimeout(report, 5_000, `report ${i + 1}`);
      // The report can beat the exit of the git process to us; that counts as no delay at all.
      if (at < returned) early++;
      latencies.push(Math.max(0, at - returned));
    }
    latencies.sort((a, b) => a - b);
    const p50 = percentile(latencies, 0.5);
    const p95 = percentile(latencies, 0.95);

    // Idle cost: windows with a watcher (fresh each round) and without, alternating, after the
    // tail of the switches (git processes exiting, keep-alive timers, GC) has passed, so that the
    // noise of the process falls on both sides alike.
    watcher.dispose();
    await cpuDuring(SETTLE_MS);
    const withWatcher: number[] = [];
    const withoutWatcher: number[] = [];
    for (let round = 0; round < IDLE_ROUNDS; round++) {
      const idle = new BranchWatcher({ onSwitch: () => undefined });
      await idle.setFolders([root]);
      withWatcher.push(await cpuDuring(IDLE_WINDOW_MS));
      idle.dispose();
      withoutWatcher.push(await cpuDuring(IDLE_WINDOW_MS));
    }
    const perMinute = (samples: number[]): number => (middle(samples) * 60_000) / IDLE_WINDOW_MS;
    const idleWith = perMinute(withWatcher);
    const idleWithout = perMinute(withoutWatcher);

    return {
      summaries: [],
      notes: [
        `${SWITCHES} switches between two branches of a one-commit repository; latency = report at the server minus the moment \`git checkout\` returned (${early} arrived before git returned, counted as 0).`,
        `latency ms: p50 ${p50.toFixed(1)}, p95 ${p95.toFixed(1)}, max ${(latencies.at(-1) ?? 0).toFixed(1)}`,
        `idle CPU of the process, median of ${IDLE_ROUNDS} alternating ${IDLE_WINDOW_MS / 1000} s windows, per minute: with a watcher ${idleWith.toFixed(1)} ms, without ${idleWithout.toFixed(1)} ms, so the watcher costs about ${Math.max(0, idleWith - idleWithout).toFixed(1)} ms of CPU a minute`,
      ],
      verdicts: [
        {
          what: 'p50 latency, checkout to report',
          measured: `${p50.toFixed(1)} ms`,
          target: '< 100 ms',
          met: p50 < 100,
        },
      ],
    };
  } finally {
    watcher.dispose();
    await client.close();
    await server.close();
    await rm(dirname(root), { recursive: true, force: true });
  }
}

function middle(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

async function cpuDuring(ms: number): Promise<number> {
  const before = process.cpuUsage();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1_000;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
