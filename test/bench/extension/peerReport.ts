/**
 * Ours beside the app's own extension (NowDoingApp/vscode) in the extension bench: the figures the
 * issue names for both, measured the same way in the same run, and a verdict per figure (ours at or
 * under the peer's). Without a peer, ours alone: the time to the first correct text and the JavaScript
 * loaded by then are ours to read all the same.
 */
import type { Profiler } from 'node:inspector';
import type { HeapAnswer } from './probe';
import { profileShare } from './profileShare';
import { percentile } from '../harness';

/** One window's start to its first correct text (peer.mjs's firstTextAfterReload), on the page's clock. */
export interface FirstText {
  readonly correctMs: number;
  readonly firstItemMs: number | undefined;
  readonly text: string;
}

export interface LoadedJavaScript {
  readonly files: readonly { readonly file: string; readonly bytes: number }[];
  readonly bytes: number;
}

/** What host.mjs measured of ours (the ledger on: the default) and, when given, of the peer. */
export interface ComparedReadings {
  readonly profileMs: number;
  readonly windowSeconds: number;
  readonly ticksPerSecond: number;
  readonly ours: Subject;
  readonly peer: (Subject & { readonly label: string }) | undefined;
  readonly without: { readonly ownTicks: number; readonly heapEnd: HeapAnswer };
}

export interface Subject {
  readonly extensionId: string;
  readonly profiles: {
    readonly idle: Profiler.Profile;
    readonly idleInUse: Profiler.Profile;
    readonly tracking: Profiler.Profile;
  };
  readonly ownTicks: number;
  readonly heapEnd: HeapAnswer;
  readonly firstText: readonly FirstText[];
  readonly javaScript: LoadedJavaScript;
}

export interface Verdict {
  readonly what: string;
  readonly measured: string;
  readonly target: string;
  readonly met: boolean;
}

/** The figures of one subject, each the way the verdicts compare them (lower is better for all). */
export interface Figures {
  readonly idleUnused: number;
  readonly idleInUse: number;
  readonly tracking: number;
  readonly hostCpu: number;
  readonly firstTextMs: number;
  readonly javaScriptBytes: number;
  readonly heapShareMb: number;
}

const MB = 1024 * 1024;

export function figuresOf(subject: Subject, readings: ComparedReadings): Figures {
  const hours = readings.profileMs / 3_600_000;
  const perHour = (profile: Profiler.Profile): number =>
    profileShare(profile, subject.extensionId).extensionMs / 1000 / hours;
  const times = subject.firstText.map((seen) => seen.correctMs).sort((a, b) => a - b);
  return {
    idleUnused: perHour(subject.profiles.idle),
    idleInUse: perHour(subject.profiles.idleInUse),
    tracking: perHour(subject.profiles.tracking),
    hostCpu: (subject.ownTicks / readings.ticksPerSecond) * (3600 / readings.windowSeconds),
    firstTextMs: times.length === 0 ? Number.NaN : percentile(times, 0.5),
    javaScriptBytes: subject.javaScript.bytes,
    heapShareMb: (subject.heapEnd.heapUsed - readings.without.heapEnd.heapUsed) / MB,
  };
}

const ROWS: readonly { key: keyof Figures; what: string; show: (value: number) => string }[] = [
  {
    key: 'idleUnused',
    what: 'idle CPU, nothing running, the window unused: its bundles on the stack per hour',
    show: (v) => `${v.toFixed(2)} s`,
  },
  {
    key: 'idleInUse',
    what: 'idle CPU, nothing running, the window in use, per hour',
    show: (v) => `${v.toFixed(2)} s`,
  },
  { key: 'tracking', what: 'CPU while the app tracks, per hour', show: (v) => `${v.toFixed(2)} s` },
  {
    key: 'firstTextMs',
    what: "a window's start to the first status bar text showing the tracked activity (median of the reloads)",
    show: (v) => `${v.toFixed(0)} ms`,
  },
  {
    key: 'javaScriptBytes',
    what: 'its JavaScript loaded by the time its status bar first said the app was there',
    show: (v) => `${v} bytes`,
  },
  { key: 'heapShareMb', what: "its share of the host's heap after the window", show: (v) => `${v.toFixed(2)} MB` },
];

/** Notes for ours (and the peer), and with a peer one verdict per figure: ours at or under the peer's. */
export function peerComparison(readings: ComparedReadings): { notes: string[]; verdicts: Verdict[] } {
  const ours = figuresOf(readings.ours, readings);
  const peer = readings.peer === undefined ? undefined : figuresOf(readings.peer, readings);
  const withoutCpu = (readings.without.ownTicks / readings.ticksPerSecond) * (3600 / readings.windowSeconds);
  const listFirst = (subject: Subject): string =>
    subject.firstText.map((seen) => `${seen.correctMs.toFixed(0)} ms ("${seen.text}")`).join(', ');
  const listFiles = (subject: Subject): string =>
    subject.javaScript.files.map(({ file, bytes }) => `${file} ${bytes}`).join(', ') || 'none';
  const notes = [
    `ours: ${ROWS.map(({ key, show }) => show(ours[key])).join(' | ')}; host CPU (/proc) while tracking ${ours.hostCpu.toFixed(2)} s per hour`,
    `ours, each window's start to the tracked activity on its status bar: ${listFirst(readings.ours)}; its JavaScript loaded: ${listFiles(readings.ours)}`,
    `without any extension: host CPU (/proc) while tracking ${withoutCpu.toFixed(2)} s per hour`,
  ];
  if (readings.peer === undefined || peer === undefined) return { notes, verdicts: [] };
  notes.push(
    `the app's own extension (${readings.peer.label}): ${ROWS.map(({ key, show }) => show(peer[key])).join(' | ')}; host CPU (/proc) while tracking ${peer.hostCpu.toFixed(2)} s per hour`,
    `the app's own extension, each window's start to the tracked activity on its status bar: ${listFirst(readings.peer)}; its JavaScript loaded: ${listFiles(readings.peer)}`,
  );
  const verdicts = ROWS.map(({ key, what, show }) => ({
    what: `ours beside the app's own extension: ${what}`,
    measured: `${show(ours[key])} (the app's own: ${show(peer[key])})`,
    target: `≤ the app's own`,
    met: ours[key] <= peer[key],
  }));
  return { notes, verdicts };
}
