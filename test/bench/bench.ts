/**
 * `npm run bench`: benchmark scripts that report, never gate. Every figure is measured in one run
 * against a baseline on the same machine, because only that ratio means anything on a shared,
 * noisy host. `node out/test/bench/bench.js [name ...]` runs only the named benchmarks.
 * Exit code: 0 whether or not targets are met, 1 when a benchmark fails (a non-200 answer, an
 * error), 2 for an unknown benchmark name.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus, loadavg, release, type as osType } from 'node:os';
import { Pool } from 'undici';
import { DEFAULT_HOST, NONCE_WINDOW_SECONDS } from '../../src/protocol/constants';
import { createReferenceServer } from '../../src/server/server';
import { signedHeaders } from '../support/signing';
import { compareInRounds, median, type LoadResult, type RoundsOptions, type SubjectSummary } from './harness';

interface Verdict {
  readonly what: string;
  readonly measured: string;
  readonly target: string;
  readonly met: boolean;
}

interface Report {
  readonly summaries: readonly SubjectSummary[];
  readonly notes: readonly string[];
  readonly verdicts: readonly Verdict[];
}

interface Benchmark {
  readonly name: string;
  readonly title: string;
  readonly run: () => Promise<Report>;
}

// ---- reference server vs bare node:http ----------------------------------------------------------

const SERVER_LOAD: Omit<RoundsOptions, 'onRun'> = {
  rounds: 3,
  inFlight: 10,
  warmupMs: 1_000,
  durationMs: 3_000,
  maxRequests: 100_000,
};
const TARGET_RATIO = 0.6;
const TARGET_P99_MS = 5;

/**
 * Every signed request of a run may still sit in the nonce store at the end: a whole run fits
 * inside the 180 s replay window, and the store refuses (429) rather than forget when full.
 * maxRequests bounds each warm-up and each measured phase, so this many can never be exceeded.
 */
const SERVER_MAX_NONCES = SERVER_LOAD.rounds * 2 * (SERVER_LOAD.maxRequests ?? 0) + 1_000;

async function serverBenchmark(): Promise<Report> {
  const token = randomBytes(24).toString('base64url');
  const reference = createReferenceServer({ token, maxNonces: SERVER_MAX_NONCES });
  const closers: (() => Promise<void>)[] = [() => reference.close()];
  try {
    await reference.listen(0);
    const referencePool = new Pool(reference.url, { connections: SERVER_LOAD.inFlight });
    closers.push(() => referencePool.close());
    const signed = (): Record<string, string> => signedHeaders({ token, method: 'GET', target: '/status' });

    // The baseline serves the reference server's very bytes, so both write the same answer.
    const sample = await referencePool.request({ method: 'GET', path: '/status', headers: signed() });
    const sampleBody = Buffer.from(await sample.body.arrayBuffer());
    const contentType = sample.headers['content-type'];
    if (sample.statusCode !== 200 || typeof contentType !== 'string') {
      throw new Error(`GET /status on the reference server answered ${sample.statusCode}: ${sampleBody.toString('utf8')}`);
    }
    const baseline = bareServer(sampleBody, contentType);
    closers.push(() => closeServer(baseline));
    const baselinePort = await listen(baseline);
    const baselinePool = new Pool(`http://${DEFAULT_HOST}:${baselinePort}`, { connections: SERVER_LOAD.inFlight });
    closers.push(() => baselinePool.close());

    const subjects = [
      { name: 'reference server (signed)', issue: getStatus(referencePool, signed) },
      // Same freshly signed headers, ignored: the client's signing and the header bytes cost
      // the same on both sides, so the ratio is the reference server's own work.
      { name: 'baseline, same signed headers', issue: getStatus(baselinePool, signed) },
      { name: 'baseline, unsigned', issue: getStatus(baselinePool, () => ({})) },
    ] as const;
    const summaries = await compareInRounds(subjects, { ...SERVER_LOAD, onRun: printRun });

    const [subject, sameHeaders, unsigned] = summaries.map((summary) => summary.median) as [LoadResult, LoadResult, LoadResult];
    const ratio = subject.rps / sameHeaders.rps;
    const perRound = summaries[0]?.runs.map((run, index) => run.rps / (summaries[1]?.runs[index]?.rps ?? Number.NaN)) ?? [];
    return {
      summaries,
      notes: [
        `GET /status, ${SERVER_LOAD.inFlight} in flight (one keep-alive connection each, undici Pool), ` +
          `${SERVER_LOAD.warmupMs / 1000} s warm-up + ${SERVER_LOAD.durationMs / 1000} s measured per run, ` +
          `${SERVER_LOAD.rounds} rounds in alternating order, median of each figure.`,
        'Servers and load generator share one process and one event loop (real system clock).',
        `Reference nonce store sized to ${SERVER_MAX_NONCES} (a run sends at most that many signed requests, all within ${NONCE_WINDOW_SECONDS} s).`,
        `ratio vs same-headers baseline (target): ${fixed(ratio, 2)}   per round: ${perRound.map((value) => fixed(value, 2)).join(', ')}`,
        `ratio vs unsigned baseline (signing end to end, client included): ${fixed(subject.rps / unsigned.rps, 2)}`,
      ],
      verdicts: [
        { what: 'rps ratio (reference / baseline)', measured: fixed(ratio, 2), target: `>= ${TARGET_RATIO}`, met: ratio >= TARGET_RATIO },
        { what: 'reference p99 latency', measured: `${fixed(subject.p99Ms, 2)} ms`, target: `< ${TARGET_P99_MS} ms`, met: subject.p99Ms < TARGET_P99_MS },
      ],
    };
  } finally {
    for (const close of closers.reverse()) await close();
  }
}

/** One GET /status, resolved once the body is read in full; anything but 200 fails the run. */
function getStatus(pool: Pool, headers: () => Record<string, string>): () => Promise<void> {
  return async () => {
    const response = await pool.request({ method: 'GET', path: '/status', headers: headers() });
    const body = Buffer.from(await response.body.arrayBuffer());
    if (response.statusCode !== 200) {
      throw new Error(`GET /status answered ${response.statusCode}: ${body.toString('utf8').slice(0, 200)}`);
    }
  };
}

function bareServer(body: Buffer, contentType: string): Server {
  const headers = { 'Content-Type': contentType, 'Content-Length': String(body.length) };
  return createServer((request, response) => {
    if (request.method === 'GET' && request.url === '/status') {
      response.writeHead(200, headers).end(body);
    } else {
      response.writeHead(404).end();
    }
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, DEFAULT_HOST, () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  return closed;
}

// ---- the list and the runner ----------------------------------------------------------------------

const BENCHMARKS: readonly Benchmark[] = [
  { name: 'server', title: 'Reference server: signed GET /status vs bare node:http', run: serverBenchmark },
];

function printRun(round: number, subject: string, result: LoadResult): void {
  console.log(
    `  round ${round}  ${subject.padEnd(32)} ${fixed(result.rps, 0).padStart(7)} rps  ` +
      `p50 ${fixed(result.p50Ms, 3)} ms  p99 ${fixed(result.p99Ms, 3)} ms  (${result.requests} requests)`,
  );
}

function printReport(report: Report): void {
  const rows = [
    ['subject', 'rps', 'p50 ms', 'p99 ms', 'requests/run'],
    ...report.summaries.map(({ name, median: m, runs }) => [
      name,
      fixed(m.rps, 0),
      fixed(m.p50Ms, 3),
      fixed(m.p99Ms, 3),
      fixed(median(runs.map((run) => run.requests)), 0),
    ]),
  ];
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  console.log('');
  for (const row of rows) {
    console.log(`  ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ')}`);
  }
  console.log('');
  for (const note of report.notes) console.log(`  ${note}`);
  for (const verdict of report.verdicts) {
    console.log(`  ${verdict.met ? 'PASS       ' : 'FALL SHORT '} ${verdict.what}: ${verdict.measured} (target ${verdict.target})`);
  }
}

function printMachine(): void {
  const cores = cpus();
  console.log(`date     ${new Date().toISOString()}`);
  console.log(`cpu      ${cores[0]?.model.trim() ?? 'unknown'}, ${cores.length} cores (available parallelism ${availableParallelism()})`);
  console.log(`os       ${osType()} ${release()}, load average ${loadavg().map((value) => fixed(value, 2)).join(' ')}`);
  console.log(`node     ${process.version}`);
}

function fixed(value: number, digits: number): string {
  return value.toFixed(digits);
}

async function main(): Promise<number> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !BENCHMARKS.some((benchmark) => benchmark.name === name));
  if (unknown.length > 0) {
    console.error(`Unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.map((benchmark) => benchmark.name).join(', ')}.`);
    return 2;
  }
  printMachine();
  let failed = false;
  for (const benchmark of BENCHMARKS.filter((candidate) => wanted.length === 0 || wanted.includes(candidate.name))) {
    console.log(`\n== ${benchmark.name}: ${benchmark.title}`);
    try {
      printReport(await benchmark.run());
    } catch (error) {
      // One broken benchmark should not hide the others' figures.
      failed = true;
      console.error(`  FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }
  return failed ? 1 : 0;
}

void main().then((code) => {
  process.exitCode = code;
});
