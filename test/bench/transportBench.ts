/**
 * `npm run bench -- transport`: the client's transport chosen by measurement, in one run. Two
 * candidates, each used only through its public, documented API, serve the same poll loop
 * (transportPoller.ts) against the reference server (this process) on 127.0.0.1 and over a Unix
 * socket: undici's public entry (`Pool`, `request`), bundled by esbuild as the extension would ship
 * it, and Node's own `node:http` (`http.request` with `socketPath` or host and port, an Agent,
 * `AbortSignal.timeout`). Figures: CPU per poll (and an hour of polls at the default 10 s
 * interval), the bytes the extension would load for the transport, and the first `require`.
 *
 * Bounded: a fixed number of child processes (rounds × endpoints × candidates, plus the load
 * timings), each with a fixed number of polls; all traffic goes to 127.0.0.1 or a socket in a
 * temporary folder.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import type { PollerArguments, PollerReport } from './transportPoller';
import { createReferenceServer } from '../../src/server/server';

const repoRoot = join(__dirname, '..', '..', '..');
const ROUNDS = 3;
const POLLS = { warmUp: 20, polls: 150, gapMs: 50 } as const;
const LOAD_SAMPLES = 11;
/** The extension's default poll interval: polls an hour. */
const POLLS_AN_HOUR = 3600 / 10;

export interface TransportReport {
  readonly summaries: readonly [];
  readonly notes: readonly string[];
  readonly verdicts: readonly { what: string; measured: string; target: string; met: boolean }[];
}

type Candidate = PollerArguments['candidate'];
const CANDIDATES: readonly Candidate[] = ['undici', 'http'];
const NAMES: Record<Candidate, string> = {
  undici: "undici's public entry (Pool, request)",
  http: 'node:http (http.request, Agent)',
};

interface Built {
  readonly undici: string;
  readonly http: string;
}

/** What the extension would load for each: undici's public entry bundled, and node:http (in Node already). */
async function build(folder: string): Promise<Built> {
  const common: esbuild.BuildOptions = {
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    logLevel: 'warning',
  };
  const undici = join(folder, 'undici-public.js');
  await esbuild.build({
    ...common,
    stdin: { contents: "export { Pool, Agent, request } from 'undici';", resolveDir: repoRoot, loader: 'ts' },
    outfile: undici,
  });
  const http = join(folder, 'node-http.js');
  await esbuild.build({
    ...common,
    stdin: { contents: "export { Agent, request } from 'node:http';", resolveDir: repoRoot, loader: 'ts' },
    outfile: http,
  });
  return { undici, http };
}

function poller(args: PollerArguments): Promise<PollerReport> {
  const script = join(__dirname, 'transportPoller.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as PollerReport) : reject(new Error(`poller ${args.candidate}: ${err}`)),
    );
  });
}

/** One `require` of `file` in a fresh Node process, in ms (test/bench/extension/requireTime.mjs). */
function requireMs(file: string): number {
  const timer = join(repoRoot, 'test', 'bench', 'extension', 'requireTime.mjs');
  const run = spawnSync(process.execPath, [timer, file], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`timing the require of ${file} failed: ${run.stderr}`);
  return (JSON.parse(run.stdout) as { ms: number }).ms;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function range(values: readonly number[], digits: number): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `${(sorted[0] ?? Number.NaN).toFixed(digits)}–${(sorted[sorted.length - 1] ?? Number.NaN).toFixed(digits)}`;
}

type Endpoint = PollerArguments['endpoint'];

async function measurePolls(
  built: Built,
  endpoints: readonly [string, Endpoint][],
  token: string,
): Promise<Map<string, number[]>> {
  const cpu = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    // The order flips every round, so that neither candidate always runs first.
    const order = round % 2 === 0 ? CANDIDATES : [...CANDIDATES].reverse();
    for (const [where, endpoint] of endpoints) {
      for (const candidate of order) {
        const report = await poller({ candidate, module: built[candidate], endpoint, token, ...POLLS });
        if (report.connections < POLLS.polls) {
          throw new Error(`${candidate} ${where}: ${report.connections} connections for ${POLLS.polls} polls`);
        }
        const key = `${candidate} ${where}`;
        cpu.set(key, [...(cpu.get(key) ?? []), report.cpuPerPollUs]);
      }
    }
  }
  return cpu;
}

export async function transportBenchmark(): Promise<TransportReport> {
  const folder = mkdtempSync(join(tmpdir(), 'tt-bench-transport-'));
  const token = randomBytes(16).toString('hex');
  // The server closes a connection idle for 20 ms: with 50 ms between polls every poll connects anew.
  const server = createReferenceServer({ token, timeouts: { keepAliveMs: 20 } });
  try {
    const built = await build(folder);
    const port = await server.listen(0);
    const socketPath = join(folder, 'api.sock');
    await server.listenOnSocket(socketPath);
    const endpoints: [string, Endpoint][] = [
      ['127.0.0.1', { host: '127.0.0.1', port }],
      ['unix socket', { socketPath }],
    ];
    const cpu = await measurePolls(built, endpoints, token);
    const loads = new Map<Candidate, number[]>(CANDIDATES.map((candidate) => [candidate, []]));
    for (let sample = 0; sample < LOAD_SAMPLES; sample++)
      for (const candidate of CANDIDATES) loads.get(candidate)?.push(requireMs(built[candidate]));
    return report(built, cpu, loads, endpoints);
  } finally {
    await server.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

function report(
  built: Built,
  cpu: Map<string, number[]>,
  loads: Map<Candidate, number[]>,
  endpoints: readonly [string, Endpoint][],
): TransportReport {
  const notes: string[] = [];
  const perHour = new Map<string, number>();
  for (const [where] of endpoints) {
    for (const candidate of CANDIDATES) {
      const values = cpu.get(`${candidate} ${where}`) ?? [];
      const us = median(values);
      perHour.set(`${candidate} ${where}`, (us * POLLS_AN_HOUR) / 1e6);
      notes.push(
        `${where.padEnd(11)} ${NAMES[candidate].padEnd(38)} CPU ${us.toFixed(0).padStart(5)} µs a poll ` +
          `(rounds ${values.map((value) => value.toFixed(0)).join(', ')}), ${((us * POLLS_AN_HOUR) / 1e6).toFixed(3)} s an hour at 10 s`,
      );
    }
  }
  const bytes = (candidate: Candidate): number => (candidate === 'http' ? 0 : statSync(built[candidate]).size);
  for (const candidate of CANDIDATES) {
    const times = loads.get(candidate) ?? [];
    notes.push(
      `${NAMES[candidate].padEnd(38)} ${String(bytes(candidate)).padStart(7)} bytes to ship, first require ` +
        `${median(times).toFixed(2)} ms median (${range(times, 2)} ms, ${LOAD_SAMPLES} fresh processes, interleaved)`,
    );
  }
  notes.push(
    `(node:http ships in Node: the 'bytes to ship' of it are 0; its require is that of a bundle re-exporting it)`,
  );
  const httpWins = endpoints.every(
    ([where]) => (perHour.get(`http ${where}`) ?? Infinity) < (perHour.get(`undici ${where}`) ?? 0),
  );
  const loadWins = median(loads.get('http') ?? []) < median(loads.get('undici') ?? []);
  return {
    summaries: [],
    notes,
    verdicts: [
      {
        what: 'node:http: less CPU an hour than undici on both endpoints',
        measured: endpoints
          .map(
            ([where]) =>
              `${where} ${(perHour.get(`http ${where}`) ?? 0).toFixed(3)} s vs ${(perHour.get(`undici ${where}`) ?? 0).toFixed(3)} s`,
          )
          .join('; '),
        target: 'lower',
        met: httpWins,
      },
      {
        what: 'node:http: less to load than undici',
        measured: `${bytes('http')} vs ${bytes('undici')} bytes; require ${median(loads.get('http') ?? []).toFixed(2)} vs ${median(loads.get('undici') ?? []).toFixed(2)} ms`,
        target: 'lower',
        met: loadWins,
      },
    ],
  };
}
