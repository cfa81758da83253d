/**
 * `npm run bench -- extension`: the extension in the real VS Code host, as users feel it. The host
 * work (code-server and chromium through the extension tests' harness) is test/bench/extension/host.mjs;
 * this file turns its raw readings into the figures and verdicts the bench prints, after the
 * activation bundle's size and require time (bundleBench.ts, also `npm run bench -- bundle`). Only run when
 * named: it takes about 17 minutes, most of them the idle window and the profile.
 *
 * Options, after the name (`npm run bench -- extension --idle-minutes 2`):
 *   --idle-minutes N      idle polling window, 1 to 120 (default 10)
 *   --profile-seconds N   CPU profile after the window, 10 to 900 (default 180)
 *   --trials N            Starts and as many Stops, 5 to 200 (default 20)
 *   --profile-file PATH   also save the CPU profile there (.cpuprofile: open it in Chrome's DevTools)
 *   --verbose             also print code-server's and the hosts' own output
 */
import type { Profiler } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HeapAnswer } from './extension/probe';
import { bundleBenchmark } from './bundleBench';
import { percentile, type SubjectSummary } from './harness';

/** Extra CPU per hour of idle polling the extension may add (issue 13, §5). */
const TARGET_CPU_SECONDS_PER_HOUR = 0.5;
const MB = 1024 * 1024;

interface CpuUse {
  readonly ownTicks: number;
  readonly childTicks: number;
}

interface ActivationRow {
  readonly name: string;
  readonly text: string;
  readonly ms: number | undefined;
  readonly startup: boolean;
}

/** What host.mjs's extensionBench resolves to. */
interface HostReadings {
  readonly idleMinutes: number;
  readonly settleSeconds: number;
  readonly ticksPerSecond: number;
  readonly windowSeconds: number;
  readonly cpu: { readonly with: CpuUse; readonly without: CpuUse };
  readonly heap: { readonly [host in 'with' | 'without']: { readonly start: HeapAnswer; readonly end: HeapAnswer } };
  readonly load: { readonly start: readonly number[]; readonly end: readonly number[] };
  readonly profile: { readonly ms: number; readonly extensionId: string; readonly taken: Profiler.Profile };
  readonly activation: { readonly ours: ActivationRow | undefined; readonly all: readonly ActivationRow[] };
  readonly latency: { readonly start: readonly number[]; readonly stop: readonly number[] };
}

interface HostModule {
  extensionBench(options: { idleMinutes: number; profileSeconds: number; trials: number; verbose: boolean }): Promise<HostReadings>;
}

export interface ExtensionReport {
  readonly summaries: readonly SubjectSummary[];
  readonly notes: readonly string[];
  readonly verdicts: readonly { what: string; measured: string; target: string; met: boolean }[];
}

/** The bench's options as the command line gave them (strings, or true for a flag). */
export type BenchOptions = Readonly<Record<string, string | boolean | undefined>>;

export async function extensionBenchmark(options: BenchOptions): Promise<ExtensionReport> {
  const idleMinutes = knob(options, 'idle-minutes', 10, 1, 120);
  const profileSeconds = knob(options, 'profile-seconds', 180, 10, 900);
  const trials = knob(options, 'trials', 20, 5, 200);
  const verbose = options['verbose'] === true;
  // First, in the same run: the activation bundle's size and require time beside a small extension's.
  const bundle = await bundleBenchmark();
  // A real import(): the harness is ES modules, and this file compiles to CommonJS.
  const hostModule = join(__dirname, '..', '..', '..', 'test', 'bench', 'extension', 'host.mjs');
  const host = (await import(pathToFileURL(hostModule).href)) as HostModule;
  const readings = await host.extensionBench({ idleMinutes, profileSeconds, trials, verbose });
  const profileFile = options['profile-file'];
  if (typeof profileFile === 'string' && profileFile !== '') writeFileSync(profileFile, JSON.stringify(readings.profile.taken));
  const measured = report(readings);
  return { summaries: measured.summaries, notes: [...bundle.notes, ...measured.notes], verdicts: [...bundle.verdicts, ...measured.verdicts] };
}

interface ProfileShare {
  /** Sampled time that was not idle, in ms. */
  readonly busyMs: number;
  /** Samples with a frame of the extension's bundle anywhere on the stack: its code and what it called. */
  readonly extensionMs: number;
  readonly gcMs: number;
}

/**
 * Sorts a V8 CPU profile's samples: idle, the garbage collector, and busy time with a frame of the
 * extension's installed bundle (its folder starts with `extensionId`) on the stack. Work the
 * extension causes outside its own stacks (a later status bar update sent by VS Code, garbage it
 * leaves for the collector) is not in its share.
 */
function attribute(profile: Profiler.Profile, extensionId: string): ProfileShare {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const ours = new Map<number, boolean>();
  const isOurs = (id: number): boolean => {
    const known = ours.get(id);
    if (known !== undefined) return known;
    const parent = parents.get(id);
    const answer = (nodes.get(id)?.callFrame.url.includes(`/${extensionId}-`) ?? false) || (parent !== undefined && isOurs(parent));
    ours.set(id, answer);
    return answer;
  };
  let busyMs = 0;
  let extensionMs = 0;
  let gcMs = 0;
  (profile.samples ?? []).forEach((id, index) => {
    const ms = (profile.timeDeltas?.[index] ?? 0) / 1000;
    const name = nodes.get(id)?.callFrame.functionName;
    if (name === '(idle)') return;
    busyMs += ms;
    if (name === '(garbage collector)') gcMs += ms;
    if (isOurs(id)) extensionMs += ms;
  });
  return { busyMs, extensionMs, gcMs };
}

function knob(options: BenchOptions, name: string, fallback: number, min: number, max: number): number {
  const text = options[name];
  if (text === undefined) return fallback;
  const value = Number(text);
  if (typeof text !== 'string' || !Number.isInteger(value) || value < min || value > max) throw new Error(`--${name} takes a whole number from ${min} to ${max}, not "${String(text)}".`);
  return value;
}

function report(readings: HostReadings): ExtensionReport {
  const { cpu, heap, activation, latency, ticksPerSecond, windowSeconds, load } = readings;
  const perHour = (ticks: number): number => (ticks / ticksPerSecond) * (3600 / windowSeconds);
  const withCpu = perHour(cpu.with.ownTicks);
  const withoutCpu = perHour(cpu.without.ownTicks);
  const extra = withCpu - withoutCpu;
  // One clock tick, extrapolated to the hour: the finest difference this window can show.
  const resolution = perHour(1);
  const mb = (bytes: number): string => `${(bytes / MB).toFixed(1)} MB`;
  const sorted = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);
  const start = sorted(latency.start);
  const stop = sorted(latency.stop);
  const ms = (value: number): string => `${value.toFixed(1)} ms`;
  const ours = activation.ours;
  const others = activation.all.filter((row) => row !== ours && row.ms !== undefined).map((row) => `${row.name} ${row.ms ?? '?'} ms`);

  const share = attribute(readings.profile.taken, readings.profile.extensionId);
  const profiledHours = readings.profile.ms / 3_600_000;

  const notes = [
    `idle window ${(windowSeconds / 60).toFixed(1)} min, both hosts at once, after ${readings.settleSeconds} s to settle; load average ${load.start.map((value) => value.toFixed(2)).join(' ')} at its start, ${load.end.map((value) => value.toFixed(2)).join(' ')} at its end`,
    `extension host CPU (utime + stime): with the extension ${(cpu.with.ownTicks / ticksPerSecond).toFixed(2)} s, without ${(cpu.without.ownTicks / ticksPerSecond).toFixed(2)} s in the window; ` +
      `per hour ${withCpu.toFixed(2)} s with, ${withoutCpu.toFixed(2)} s without (one clock tick is ${resolution.toFixed(3)} s per hour here)`,
    `its child processes (reaped, e.g. git): ${(cpu.with.childTicks / ticksPerSecond).toFixed(2)} s with, ${(cpu.without.childTicks / ticksPerSecond).toFixed(2)} s without`,
    `extension host heap after a full GC${heap.with.start.afterGc && heap.without.start.afterGc ? '' : ' (NO GC could be forced: figures include garbage)'}: ` +
      `with the extension ${mb(heap.with.start.heapUsed)} at the window's start, ${mb(heap.with.end.heapUsed)} at its end; ` +
      `without ${mb(heap.without.start.heapUsed)} and ${mb(heap.without.end.heapUsed)}; rss with ${mb(heap.with.start.rss)} → ${mb(heap.with.end.rss)}, without ${mb(heap.without.start.rss)} → ${mb(heap.without.end.rss)}`,
    `the extension's share of the heap: ${mb(heap.with.start.heapUsed - heap.without.start.heapUsed)} at the start, ${mb(heap.with.end.heapUsed - heap.without.end.heapUsed)} after the window`,
    `CPU profile of the host with the extension, ${Math.round(readings.profile.ms / 1000)} s of idle polling after the window (V8 sampler, 1 ms): ` +
      `busy ${share.busyMs.toFixed(0)} ms, of which with the extension's bundle on the stack ${share.extensionMs.toFixed(0)} ms ` +
      `(${(share.extensionMs / 1000 / profiledHours).toFixed(2)} s per hour), garbage collector ${share.gcMs.toFixed(0)} ms`,
    `activation as VS Code measures it (Running Extensions, code loading + activate call): ${ours === undefined ? 'not listed' : `"${ours.text}"`}`,
    `other extensions in the same editor: ${others.length === 0 ? 'none with a time' : others.join(', ')}`,
    `Start → status bar (${start.length}): p50 ${ms(percentile(start, 0.5))}, p95 ${ms(percentile(start, 0.95))}, min ${ms(start[0] ?? 0)}, max ${ms(start.at(-1) ?? 0)}`,
    `Stop → status bar (${stop.length}): p50 ${ms(percentile(stop, 0.5))}, p95 ${ms(percentile(stop, 0.95))}, min ${ms(stop[0] ?? 0)}, max ${ms(stop.at(-1) ?? 0)}`,
  ];
  return {
    summaries: [],
    notes,
    verdicts: [
      {
        what: 'extra extension host CPU per hour of idle polling (with − without)',
        measured: `${extra.toFixed(2)} s`,
        target: `< ${TARGET_CPU_SECONDS_PER_HOUR} s`,
        met: extra < TARGET_CPU_SECONDS_PER_HOUR,
      },
    ],
  };
}
