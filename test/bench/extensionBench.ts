/**
 * `npm run bench -- extension`: the extension in the real VS Code host, as users feel it. The host
 * work (code-server and chromium through the extension tests' harness) is test/bench/extension/host.mjs;
 * this file turns its raw readings into the figures and verdicts the bench prints, after the
 * activation bundle's size and require time (bundleBench.ts, also `npm run bench -- bundle`). Only run when
 * named: it takes about 25 minutes, most of them the polling window and the profiles. The window is
 * spent tracking, with a week of branch-time history seeded, and the extension runs twice, its
 * ledger on and off: the ledger's cost is the difference within the one run. Before the
 * tracking, both are profiled with nothing running, first with a key in each window every 20 s
 * (in use), then with nobody using them (unused: the idle cost, with the week of history loaded).
 *
 * Options, after the name (`npm run bench -- extension --idle-minutes 2`):
 *   --idle-minutes N      polling window (tracking, nothing typed), 1 to 120 (default 10)
 *   --profile-seconds N   CPU profiles after the window, 10 to 900 (default 180)
 *   --trials N            Starts and as many Stops, 5 to 200 (default 20)
 *   --profile-file PATH   also save the ledger-on host's CPU profile there (.cpuprofile: open it in Chrome's DevTools),
 *                         the ledger-off host's beside it (…-ledger-off.cpuprofile), and the ledger-on host's
 *                         with nothing running (…-idle.cpuprofile unused, …-idle-in-use.cpuprofile in use)
 *   --heap-snapshot PATH  also write each host's heap after the window, after a full GC, to PATH-on.heapsnapshot,
 *                         PATH-off.heapsnapshot and PATH-without.heapsnapshot (DevTools' Memory tab compares them)
 *   --peer PATH           the app's own extension's .vsix (NowDoingApp/vscode; or TT_BENCH_PEER_VSIX): measured beside
 *                         ours in a fourth host, against the same reference server (test/bench/extension/peer.mjs says
 *                         how to build it, and the bench says so when neither names one)
 *   --verbose             also print code-server's and the hosts' own output
 */
import type { Profiler } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { HeapAnswer } from './extension/probe';
import { bundleBenchmark } from './bundleBench';
import { profileShare } from './extension/profileShare';
import { peerComparison, type FirstText, type LoadedJavaScript } from './extension/peerReport';
import { percentile, type SubjectSummary } from './harness';

/**
 * Extra CPU per hour of idle polling the extension may add, and its profile figure with the ledger on.
 */
const TARGET_CPU_SECONDS_PER_HOUR = 0.5;
/** The extension's share of the extension host's heap with a week of branch-time history. */
const TARGET_HEAP_MB = 5;
const MB = 1024 * 1024;

interface HeapPair {
  readonly start: HeapAnswer;
  readonly end: HeapAnswer;
}

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

type Host = 'on' | 'off' | 'without' | 'peer';
type ExtensionHost = Exclude<Host, 'without' | 'peer'>;

/** What the ledger's file held after the window (host.mjs's readLedger). */
interface LedgerReading {
  readonly rows: number;
  readonly bytes: number;
  /** Credited since the app started tracking (the seeded week is older). */
  readonly creditedMs: number;
  readonly places: readonly string[];
  readonly problem?: string;
}

/**
 * The two hosts with the extension profiled through the same seconds, and the GET /status they sent
 * together meanwhile; with a peer, its host's profile and the GET /current it sent.
 */
type ProfilePair = { readonly [host in ExtensionHost]: Profiler.Profile } & {
  readonly polls: number;
  readonly peer?: Profiler.Profile;
  readonly peerPolls?: number;
};

/** What host.mjs's extensionBench resolves to. */
interface HostReadings {
  readonly idleMinutes: number;
  readonly settleSeconds: number;
  readonly ticksPerSecond: number;
  readonly windowSeconds: number;
  readonly cpu: { readonly [host in Exclude<Host, 'peer'>]: CpuUse } & { readonly peer?: CpuUse };
  readonly heap: { readonly [host in Exclude<Host, 'peer'>]: HeapPair } & { readonly peer?: HeapPair };
  readonly load: { readonly start: readonly number[]; readonly end: readonly number[] };
  readonly seeded: {
    readonly rows: number;
    readonly bytes: number;
    readonly spans: number;
    readonly plannedMs: number;
    readonly heldBytes: number;
  };
  readonly ledger: { readonly [host in ExtensionHost]: LedgerReading } & { readonly trackedMs: number };
  /**
   * Profiles while tracking; `idleInUse`, the same length before, nothing running, a key in each
   * window every 20 s; `idle`, then, nobody using the windows: the idle cost.
   */
  readonly profile: {
    readonly ms: number;
    readonly extensionId: string;
    readonly idle: ProfilePair;
    readonly idleInUse: ProfilePair;
  } & ProfilePair;
  readonly activation: { readonly ours: ActivationRow | undefined; readonly all: readonly ActivationRow[] };
  readonly latency: { readonly start: readonly number[]; readonly stop: readonly number[] };
  /** Each window's start (a reload) to its first status bar text showing the tracked activity. */
  readonly firstText: { readonly ours: readonly FirstText[]; readonly peer?: readonly FirstText[] };
  /** Each extension's bundles loaded once its status bar first said the app was there. */
  readonly javaScript: { readonly ours: LoadedJavaScript; readonly peer?: LoadedJavaScript };
  readonly peer: { readonly id: string; readonly version: string } | undefined;
}

interface HostModule {
  extensionBench(options: {
    idleMinutes: number;
    profileSeconds: number;
    trials: number;
    verbose: boolean;
    heapSnapshot: string | undefined;
    peerVsix: string | undefined;
  }): Promise<HostReadings>;
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
  const heapSnapshot =
    typeof options['heap-snapshot'] === 'string' && options['heap-snapshot'] !== ''
      ? options['heap-snapshot']
      : undefined;
  const peerModule = join(__dirname, '..', '..', '..', 'test', 'bench', 'extension', 'peer.mjs');
  const { peerVsixFrom } = (await import(pathToFileURL(peerModule).href)) as {
    peerVsixFrom: (option: string | boolean | undefined) => string | undefined;
  };
  const peerVsix = peerVsixFrom(options['peer']);
  const readings = await host.extensionBench({ idleMinutes, profileSeconds, trials, verbose, heapSnapshot, peerVsix });
  const profileFile = options['profile-file'];
  if (typeof profileFile === 'string' && profileFile !== '') {
    writeFileSync(profileFile, JSON.stringify(readings.profile.on));
    writeFileSync(
      profileFile.replace(/(\.cpuprofile)?$/, '-ledger-off.cpuprofile'),
      JSON.stringify(readings.profile.off),
    );
    writeFileSync(
      profileFile.replace(/(\.cpuprofile)?$/, '-idle.cpuprofile'),
      JSON.stringify(readings.profile.idle.on),
    );
    writeFileSync(
      profileFile.replace(/(\.cpuprofile)?$/, '-idle-in-use.cpuprofile'),
      JSON.stringify(readings.profile.idleInUse.on),
    );
  }
  const measured = report(readings);
  const compared = peerComparison(compareReadings(readings));
  return {
    summaries: measured.summaries,
    notes: [...bundle.notes, ...measured.notes, ...compared.notes],
    verdicts: [...bundle.verdicts, ...measured.verdicts, ...compared.verdicts],
  };
}

/** Ours (the ledger on, its default) and the peer, as peerReport.ts compares them. */
function compareReadings(readings: HostReadings): Parameters<typeof peerComparison>[0] {
  const { profile, cpu, heap } = readings;
  const peer =
    readings.peer === undefined ||
    profile.peer === undefined ||
    profile.idle.peer === undefined ||
    profile.idleInUse.peer === undefined ||
    cpu.peer === undefined ||
    heap.peer === undefined ||
    readings.firstText.peer === undefined ||
    readings.javaScript.peer === undefined
      ? undefined
      : {
          label: `${readings.peer.id} ${readings.peer.version}`,
          extensionId: readings.peer.id,
          profiles: { idle: profile.idle.peer, idleInUse: profile.idleInUse.peer, tracking: profile.peer },
          ownTicks: cpu.peer.ownTicks,
          heapEnd: heap.peer.end,
          firstText: readings.firstText.peer,
          javaScript: readings.javaScript.peer,
        };
  return {
    profileMs: profile.ms,
    windowSeconds: readings.windowSeconds,
    ticksPerSecond: readings.ticksPerSecond,
    ours: {
      extensionId: profile.extensionId,
      profiles: { idle: profile.idle.on, idleInUse: profile.idleInUse.on, tracking: profile.on },
      ownTicks: cpu.on.ownTicks,
      heapEnd: heap.on.end,
      firstText: readings.firstText.ours,
      javaScript: readings.javaScript.ours,
    },
    peer,
    without: { ownTicks: cpu.without.ownTicks, heapEnd: heap.without.end },
  };
}

function knob(options: BenchOptions, name: string, fallback: number, min: number, max: number): number {
  const text = options[name];
  if (text === undefined) return fallback;
  const value = Number(text);
  if (typeof text !== 'string' || !Number.isInteger(value) || value < min || value > max)
    throw new Error(`--${name} takes a whole number from ${min} to ${max}, not "${String(text)}".`);
  return value;
}

function report(readings: HostReadings): ExtensionReport {
  const { cpu, heap, ticksPerSecond, windowSeconds, load, seeded, ledger } = readings;
  const perHour = (ticks: number): number => (ticks / ticksPerSecond) * (3600 / windowSeconds);
  const hourly = {
    on: perHour(cpu.on.ownTicks),
    off: perHour(cpu.off.ownTicks),
    without: perHour(cpu.without.ownTicks),
  };
  const seconds = (ticks: number): string => `${(ticks / ticksPerSecond).toFixed(2)} s`;
  // One clock tick, extrapolated to the hour: the finest difference this window can show.
  const resolution = perHour(1);
  const mb = (bytes: number): string => `${(bytes / MB).toFixed(2)} MB`;
  const share = (label: ExtensionHost, at: 'start' | 'end'): number =>
    heap[label][at].heapUsed - heap.without[at].heapUsed;
  const profiledHours = readings.profile.ms / 3_600_000;
  const profiles = {
    on: profileShare(readings.profile.on, readings.profile.extensionId),
    off: profileShare(readings.profile.off, readings.profile.extensionId),
  };
  const profileFigure = {
    on: profiles.on.extensionMs / 1000 / profiledHours,
    off: profiles.off.extensionMs / 1000 / profiledHours,
  };
  const idleProfiles = {
    on: profileShare(readings.profile.idle.on, readings.profile.extensionId),
    off: profileShare(readings.profile.idle.off, readings.profile.extensionId),
  };
  const idleFigure = {
    on: idleProfiles.on.extensionMs / 1000 / profiledHours,
    off: idleProfiles.off.extensionMs / 1000 / profiledHours,
  };
  const inUseProfiles = {
    on: profileShare(readings.profile.idleInUse.on, readings.profile.extensionId),
    off: profileShare(readings.profile.idleInUse.off, readings.profile.extensionId),
  };
  const inUseFigure = {
    on: inUseProfiles.on.extensionMs / 1000 / profiledHours,
    off: inUseProfiles.off.extensionMs / 1000 / profiledHours,
  };
  const seconds180 = Math.round(readings.profile.ms / 1000);
  const allGc = Object.values(heap).every((host) => host.start.afterGc && host.end.afterGc);
  const credited = ledger.on.creditedMs / 1000;

  const notes = [
    `seeded into both hosts with the extension, by the ledger's own code: a week of history, ${seeded.spans} spans (7 days × 4 repositories × 5 branches × 3 activities, ` +
      `cut at each switch and at local midnight) → ${seeded.rows} rows, ${seeded.bytes} bytes, ${(seeded.plannedMs / 3_600_000).toFixed(1)} h; ` +
      `read and summed for the three periods in plain Node it holds ${mb(seeded.heldBytes)} of heap`,
    `window ${(windowSeconds / 60).toFixed(1)} min, the app tracking, every host at once, after ${readings.settleSeconds} s to settle; load average ` +
      `${load.start.map((value) => value.toFixed(2)).join(' ')} at its start, ${load.end.map((value) => value.toFixed(2)).join(' ')} at its end`,
    `the ledger on credited ${credited.toFixed(0)} s of ${(ledger.trackedMs / 1000).toFixed(0)} s tracked to ${ledger.on.places.join(', ') || 'nothing'} ` +
      `(written once a minute); its file ${ledger.on.rows} rows, ${ledger.on.bytes} bytes${ledger.on.problem === undefined ? '' : ` (${ledger.on.problem})`}; ` +
      `the ledger off credited ${(ledger.off.creditedMs / 1000).toFixed(0)} s, its file ${ledger.off.rows} rows`,
    `extension host CPU (utime + stime) in the window: ledger on ${seconds(cpu.on.ownTicks)}, off ${seconds(cpu.off.ownTicks)}, without the extension ${seconds(cpu.without.ownTicks)}; ` +
      `per hour ${hourly.on.toFixed(2)} s, ${hourly.off.toFixed(2)} s, ${hourly.without.toFixed(2)} s; on − off ${(hourly.on - hourly.off).toFixed(2)} s ` +
      `(one clock tick is ${resolution.toFixed(3)} s per hour here)`,
    `their child processes (reaped, e.g. git): ${seconds(cpu.on.childTicks)} on, ${seconds(cpu.off.childTicks)} off, ${seconds(cpu.without.childTicks)} without`,
    `extension host heap after a full GC${allGc ? '' : ' (NO GC could be forced somewhere: figures include garbage)'}, window start → end: ` +
      `ledger on ${mb(heap.on.start.heapUsed)} → ${mb(heap.on.end.heapUsed)}, off ${mb(heap.off.start.heapUsed)} → ${mb(heap.off.end.heapUsed)}, ` +
      `without ${mb(heap.without.start.heapUsed)} → ${mb(heap.without.end.heapUsed)}`,
    `the extension's share of the heap: ledger on ${mb(share('on', 'start'))} → ${mb(share('on', 'end'))}, off ${mb(share('off', 'start'))} → ${mb(share('off', 'end'))}; ` +
      `on − off ${mb(heap.on.start.heapUsed - heap.off.start.heapUsed)} → ${mb(heap.on.end.heapUsed - heap.off.end.heapUsed)}`,
    ...(['on', 'off'] as const).map(
      (label) =>
        `CPU profile, ledger ${label}, ${Math.round(readings.profile.ms / 1000)} s while tracking (V8 sampler, 1 ms, both hosts through the same seconds): busy ${profiles[label].busyMs.toFixed(0)} ms, ` +
        `with the extension's bundles on the stack ${profiles[label].extensionMs.toFixed(0)} ms (${profileFigure[label].toFixed(2)} s per hour; bundles seen: ${profiles[label].bundles.join(', ') || 'none'}), ` +
        `garbage collector ${profiles[label].gcMs.toFixed(0)} ms`,
    ),
    `the profile figure while tracking, on − off: ${(profileFigure.on - profileFigure.off).toFixed(2)} s per hour`,
    `GET /status answered to both hosts together in each ${seconds180} s profile: ${readings.profile.idleInUse.polls} idle with the windows in use, ` +
      `${readings.profile.idle.polls} idle with the windows unused, ${readings.profile.polls} while tracking`,
    ...(readings.peer === undefined
      ? []
      : [
          `GET /current answered to the app's own extension in each ${seconds180} s profile: ${readings.profile.idleInUse.peerPolls ?? '?'} in use, ` +
            `${readings.profile.idle.peerPolls ?? '?'} unused, ${readings.profile.peerPolls ?? '?'} while tracking`,
        ]),
    ...(['on', 'off'] as const).map(
      (label) =>
        `CPU profile, ledger ${label}, ${seconds180} s with nothing running and the window in use (a key every 20 s), before the tracking: busy ${inUseProfiles[label].busyMs.toFixed(0)} ms, ` +
        `with the extension's bundles on the stack ${inUseProfiles[label].extensionMs.toFixed(0)} ms (${inUseFigure[label].toFixed(2)} s per hour), garbage collector ${inUseProfiles[label].gcMs.toFixed(0)} ms`,
    ),
    ...(['on', 'off'] as const).map(
      (label) =>
        `CPU profile, ledger ${label}, ${seconds180} s with nothing running and nobody using the window (the idle cost): busy ${idleProfiles[label].busyMs.toFixed(0)} ms, ` +
        `with the extension's bundles on the stack ${idleProfiles[label].extensionMs.toFixed(0)} ms (${idleFigure[label].toFixed(2)} s per hour), garbage collector ${idleProfiles[label].gcMs.toFixed(0)} ms`,
    ),
    `the idle profile figure, on − off: ${(idleFigure.on - idleFigure.off).toFixed(2)} s per hour unused, ${(inUseFigure.on - inUseFigure.off).toFixed(2)} s per hour in use`,
    `extra extension host CPU per hour while tracking, ledger on − without the extension (/proc; the target of ${TARGET_CPU_SECONDS_PER_HOUR} s is for idle polling): ${(hourly.on - hourly.without).toFixed(2)} s`,
    `profile figure while tracking, ledger on (the status bar's time changes every second; no target): ${profileFigure.on.toFixed(2)} s per hour`,
    ...interactionNotes(readings),
  ];
  const heapShare = share('on', 'end');
  return {
    summaries: [],
    notes,
    verdicts: [
      {
        what: 'the ledger on credited the tracked window to its branch (and the ledger off nothing)',
        measured: `${credited.toFixed(0)} s, off ${(ledger.off.creditedMs / 1000).toFixed(0)} s`,
        target: '> 0 s, off 0 s',
        met: credited > 0 && ledger.off.creditedMs === 0,
      },
      {
        what: "idle cost, ledger on, a week of history: the extension's bundles on the stack per hour with nothing running, nobody using the window",
        measured: `${idleFigure.on.toFixed(2)} s`,
        target: `< ${TARGET_CPU_SECONDS_PER_HOUR} s`,
        met: idleFigure.on < TARGET_CPU_SECONDS_PER_HOUR,
      },
      {
        what: "the ledger's own cost while tracking: the profile figure, ledger on − off, per hour",
        measured: `${(profileFigure.on - profileFigure.off).toFixed(2)} s`,
        target: `< ${TARGET_CPU_SECONDS_PER_HOUR} s`,
        met: profileFigure.on - profileFigure.off < TARGET_CPU_SECONDS_PER_HOUR,
      },
      {
        what: "the extension's heap share with the ledger on and a week of history (after the window)",
        measured: mb(heapShare),
        target: `< ${TARGET_HEAP_MB} MB`,
        met: heapShare < TARGET_HEAP_MB * MB,
      },
    ],
  };
}

/** Activation and Start/Stop, in the host with the ledger on. */
function interactionNotes(readings: HostReadings): string[] {
  const { activation, latency } = readings;
  const sorted = (values: readonly number[]): number[] => [...values].sort((a, b) => a - b);
  const start = sorted(latency.start);
  const stop = sorted(latency.stop);
  const ms = (value: number): string => `${value.toFixed(1)} ms`;
  const ours = activation.ours;
  const others = activation.all
    .filter((row) => row !== ours && row.ms !== undefined)
    .map((row) => `${row.name} ${row.ms ?? '?'} ms`);
  return [
    `activation as VS Code measures it (Running Extensions, code loading + activate call): ${ours === undefined ? 'not listed' : `"${ours.text}"`}`,
    `other extensions in the same editor: ${others.length === 0 ? 'none with a time' : others.join(', ')}`,
    `Start → status bar (${start.length}): p50 ${ms(percentile(start, 0.5))}, p95 ${ms(percentile(start, 0.95))}, min ${ms(start[0] ?? 0)}, max ${ms(start.at(-1) ?? 0)}`,
    `Stop → status bar (${stop.length}): p50 ${ms(percentile(stop, 0.5))}, p95 ${ms(percentile(stop, 0.95))}, min ${ms(stop[0] ?? 0)}, max ${ms(stop.at(-1) ?? 0)}`,
  ];
}
