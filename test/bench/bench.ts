/**
 * `npm run bench`: benchmark scripts that report, never gate. Every figure is measured in one run
 * against a baseline on the same machine, because only that ratio means anything on a shared,
 * noisy host. `node out/test/bench/bench.js [name ...]` runs only the named benchmarks; `extension`
 * (the real VS Code host, about 15 minutes) runs only when named.
 * Exit code: 0 whether or not targets are met, 1 when a benchmark fails (a non-200 answer, an
 * error), 2 for an unknown benchmark name.
 */
import { randomBytes, randomFillSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, cpus, loadavg, release, type as osType } from 'node:os';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { ServiceClient } from '../../src/client';
import { DEFAULT_HOST, NONCE_BYTES, NONCE_WINDOW_SECONDS } from '../../src/protocol/constants';
import { signRequest, timestampFor } from '../../src/protocol/signing';
import { createReferenceServer } from '../../src/server/server';
import { signedHeaders } from '../support/signing';
import { bundleBenchmark } from './bundleBench';
import { extensionBenchmark, type BenchOptions } from './extensionBench';
import { gitBenchmark } from './gitBench';
import { transportBenchmark } from './transportBench';
import {
  compareInRounds,
  compareOpsInRounds,
  median,
  type LoadResult,
  type OpsOptions,
  type OpsSummary,
  type RoundsOptions,
  type SubjectSummary,
} from './harness';

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
  readonly run: (options: BenchOptions) => Promise<Report>;
  /** Left out of a plain `npm run bench`: it runs only when named. */
  readonly onlyWhenNamed?: boolean;
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
    const baseline = await bareCopyOfStatus(referencePool, signed());
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

    const [subject, sameHeaders, unsigned] = summaries.map((summary) => summary.median) as [
      LoadResult,
      LoadResult,
      LoadResult,
    ];
    const ratio = subject.rps / sameHeaders.rps;
    const perRound =
      summaries[0]?.runs.map((run, index) => run.rps / (summaries[1]?.runs[index]?.rps ?? Number.NaN)) ?? [];
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
        {
          what: 'rps ratio (reference / baseline)',
          measured: fixed(ratio, 2),
          target: `>= ${TARGET_RATIO}`,
          met: ratio >= TARGET_RATIO,
        },
        {
          what: 'reference p99 latency',
          measured: `${fixed(subject.p99Ms, 2)} ms`,
          target: `< ${TARGET_P99_MS} ms`,
          met: subject.p99Ms < TARGET_P99_MS,
        },
      ],
    };
  } finally {
    for (const close of closers.reverse()) await close();
  }
}

/**
 * A bare node:http server answering GET /status with the reference server's exact body and Content-Type, fetched once.
 */
async function bareCopyOfStatus(referencePool: Pool, headers: Record<string, string>): Promise<Server> {
  const sample = await referencePool.request({ method: 'GET', path: '/status', headers });
  const sampleBody = Buffer.from(await sample.body.arrayBuffer());
  const contentType = sample.headers['content-type'];
  if (sample.statusCode !== 200 || typeof contentType !== 'string') {
    throw new Error(
      `GET /status on the reference server answered ${sample.statusCode}: ${sampleBody.toString('utf8')}`,
    );
  }
  return bareServer(sampleBody, contentType);
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

// ---- signed client vs raw undici ----------------------------------------------------------------

const CLIENT_LOAD: Omit<RoundsOptions, 'onRun'> = {
  rounds: 3,
  inFlight: 10,
  warmupMs: 1_000,
  durationMs: 3_000,
  maxRequests: 100_000,
};
const TARGET_CLIENT_RATIO = 0.85;
/** Only "client -> reference" sends to the reference server (plus the start-up checks); see SERVER_MAX_NONCES. */
const CLIENT_MAX_NONCES = CLIENT_LOAD.rounds * 2 * (CLIENT_LOAD.maxRequests ?? 0) + 1_000;
const SIGNING_OPS: OpsOptions = { iterations: 100_000, warmupIterations: 20_000, rounds: 5 };
const STATUS_TARGET = '/status';

async function clientBenchmark(): Promise<Report> {
  const token = randomBytes(24).toString('base64url');
  const reference = createReferenceServer({ token, maxNonces: CLIENT_MAX_NONCES });
  const closers: (() => Promise<void>)[] = [() => reference.close()];
  try {
    await reference.listen(0);
    // test/support/signing.ts does what ServiceClient#sign does: fresh nonce, timestamp, signRequest, four headers.
    const signed = (): Record<string, string> => signedHeaders({ token, method: 'GET', target: STATUS_TARGET });
    const samplePool = new Pool(reference.url, { connections: 1 });
    closers.push(() => samplePool.close());
    const bare = await bareCopyOfStatus(samplePool, signed());
    closers.push(() => closeServer(bare));
    const barePort = await listen(bare);

    // One connection per request in flight on every side: the client's pool and the raw one alike.
    const connections = CLIENT_LOAD.inFlight;
    const bareClient = new ServiceClient({ token, port: barePort, connections });
    closers.push(() => bareClient.close());
    const referenceClient = new ServiceClient({ token, port: reference.port, connections });
    closers.push(() => referenceClient.close());
    const rawPool = new Pool(`http://${DEFAULT_HOST}:${barePort}`, { connections });
    closers.push(() => rawPool.close());

    // The bare copy must be an answer the client reads exactly as it reads the reference server's.
    const fromBare = JSON.stringify(await bareClient.getStatus());
    const fromReference = JSON.stringify(await referenceClient.getStatus());
    if (fromBare !== fromReference)
      throw new Error(`The bare copy reads as ${fromBare}, the reference server as ${fromReference}.`);

    // Signing timed where it runs, inside the load loop, for the two raw subjects that sign.
    let signingNs = 0;
    let signings = 0;
    const timedSigned = (): Record<string, string> => {
      const started = process.hrtime.bigint();
      const headers = signed();
      signingNs += Number(process.hrtime.bigint() - started);
      signings++;
      return headers;
    };
    const unsignedHeaders = (): Record<string, string> => ({});
    const headerBytes = Object.entries(signed()).reduce(
      (sum, [name, value]) => sum + `${name}: ${value}\r\n`.length,
      0,
    );
    const subjects = [
      // The target pair. Same bare server, so the ratio is the client library's own cost, not the server's.
      {
        name: 'client getStatus() -> bare',
        issue: async () => {
          await bareClient.getStatus();
        },
      },
      { name: 'raw undici, unsigned -> bare', issue: getStatus(rawPool, unsignedHeaders) },
      // Two steps between them: signing's CPU cost under load, then the four headers on the wire.
      {
        name: 'raw, signs but sends unsigned',
        issue: getStatus(rawPool, () => {
          timedSigned();
          return unsignedHeaders();
        }),
      },
      { name: 'raw undici, signed -> bare', issue: getStatus(rawPool, timedSigned) },
      // What a user of the client sees against the reference server, for information.
      {
        name: 'client getStatus() -> reference',
        issue: async () => {
          await referenceClient.getStatus();
        },
      },
    ] as const;
    const summaries = await compareInRounds(subjects, { ...CLIENT_LOAD, onRun: printRun });
    const [client, unsigned, signsOnly, rawSigned, clientReference] = summaries.map((summary) => summary.median) as [
      LoadResult,
      LoadResult,
      LoadResult,
      LoadResult,
      LoadResult,
    ];
    const ratio = client.rps / unsigned.rps;
    const perRound =
      summaries[0]?.runs.map((run, index) => run.rps / (summaries[1]?.runs[index]?.rps ?? Number.NaN)) ?? [];
    // One saturated thread runs servers and load alike, so 1/rps is the loop time each request costs.
    const loopUs = (result: LoadResult): number => 1e6 / result.rps;
    const step = (from: LoadResult, to: LoadResult): string => signedFixed(loopUs(to) - loopUs(from), 1).padStart(6);

    const signing = measureSigning(token);
    const usOf = (name: string): number =>
      (signing.find((summary) => summary.name === name)?.nsPerOp ?? Number.NaN) / 1_000;
    const perRequest = usOf(SIGNING_AS_CLIENT);
    return {
      summaries,
      notes: [
        `GET /status, ${CLIENT_LOAD.inFlight} in flight, ${connections} keep-alive connections on every side ` +
          `(ServiceClient connections: ${connections}; raw undici Pool connections: ${connections}), ` +
          `${CLIENT_LOAD.warmupMs / 1000} s warm-up + ${CLIENT_LOAD.durationMs / 1000} s measured per run, ` +
          `${CLIENT_LOAD.rounds} rounds in alternating order, median of each figure.`,
        '"bare": a node:http server answering the reference server\'s exact /status bytes, ignoring any headers. The reference ' +
          'server refuses unsigned requests (401, lockout after 10), so an unsigned baseline can only be measured against a bare server.',
        'Servers and load generator share one process and one event loop (real system clock).',
        `Reference nonce store sized to ${CLIENT_MAX_NONCES}.`,
        `ratio client / raw undici unsigned, same bare server (target): ${fixed(ratio, 2)}   per round: ${perRound.map((value) => fixed(value, 2)).join(', ')}`,
        `loop time per request, µs (1e6 / rps):  raw unsigned ${fixed(loopUs(unsigned), 1)}`,
        `  ${step(unsigned, signsOnly)}  signing work (nonce, timestamp, HMAC, header object), computed but not sent`,
        `  ${step(signsOnly, rawSigned)}  sending the four signing headers (${headerBytes} more bytes for undici and node:http)`,
        `  ${step(rawSigned, client)}  the rest of ServiceClient (pipeline, body as text, JSON.parse, result mapping)`,
        `  = client ${fixed(loopUs(client), 1)}`,
        `client -> reference server: ${fixed(clientReference.rps, 0)} rps; ${fixed(clientReference.rps / client.rps, 2)} of client -> bare ` +
          `(the reference server's own work), ${fixed(clientReference.rps / unsigned.rps, 2)} of raw unsigned -> bare (end to end)`,
        `signing alone, tight loop of ${SIGNING_OPS.iterations} calls x ${SIGNING_OPS.rounds} rounds (alternating), median µs per call:`,
        ...signing.map((summary) => `  ${fixed(summary.nsPerOp / 1_000, 2).padStart(6)}  ${summary.name}`),
        `signing one request as the client does: ${fixed(perRequest, 2)} µs in a tight loop, ` +
          `${fixed(signingNs / signings / 1_000, 2)} µs timed inside the load loop (mean of ${signings} calls), ` +
          `${fixed(loopUs(signsOnly) - loopUs(unsigned), 1)} µs of loop time per request (GC and cold caches included).`,
      ],
      verdicts: [
        {
          what: 'rps ratio (client / raw undici unsigned, same server)',
          measured: fixed(ratio, 2),
          target: `>= ${TARGET_CLIENT_RATIO}`,
          met: ratio >= TARGET_CLIENT_RATIO,
        },
      ],
    };
  } finally {
    for (const close of closers.reverse()) await close();
  }
}

const SIGNING_AS_CLIENT = 'all of it, header names and object included (= ServiceClient#sign)';

/** The signing work of one client request, timed alone in a tight loop, without I/O. */
function measureSigning(token: string): OpsSummary[] {
  const prepared = Array.from({ length: SIGNING_OPS.iterations }, () => randomBytes(NONCE_BYTES).toString('hex'));
  const nonceAt = (index: number): string => prepared[index % prepared.length] ?? '';
  const timestamp = timestampFor(Date.now());
  // For comparison only, not what the client does: 16 bytes at a time from one 4 KiB random fill.
  const pool = Buffer.alloc(4096);
  let offset = pool.length;
  const pooledNonce = (): string => {
    if (offset + NONCE_BYTES > pool.length) {
      randomFillSync(pool);
      offset = 0;
    }
    offset += NONCE_BYTES;
    return pool.toString('hex', offset - NONCE_BYTES, offset);
  };
  return compareOpsInRounds(
    [
      { name: 'nonce: randomBytes(16).toString(hex)', op: () => randomBytes(NONCE_BYTES).toString('hex') },
      {
        name: 'signRequest (nonce prepared beforehand)',
        op: (index) => signRequest({ token, method: 'GET', target: STATUS_TARGET, timestamp, nonce: nonceAt(index) }),
      },
      {
        name: 'fresh nonce + timestamp + signRequest',
        op: () =>
          signRequest({
            token,
            method: 'GET',
            target: STATUS_TARGET,
            timestamp: timestampFor(Date.now()),
            nonce: randomBytes(NONCE_BYTES).toString('hex'),
          }),
      },
      {
        name: SIGNING_AS_CLIENT,
        op: () => signedHeaders({ token, method: 'GET', target: STATUS_TARGET })['X-Clessira-Signature'] ?? '',
      },
      { name: 'for comparison: nonce from a pooled 4 KiB randomFillSync', op: pooledNonce },
    ],
    SIGNING_OPS,
  );
}

// ---- the list and the runner ----------------------------------------------------------------------

const BENCHMARKS: readonly Benchmark[] = [
  { name: 'server', title: 'Reference server: signed GET /status vs bare node:http', run: serverBenchmark },
  { name: 'client', title: 'Signed client: ServiceClient.getStatus() vs raw undici GET /status', run: clientBenchmark },
  { name: 'git', title: 'Branch reporting: git checkout to POST /branch-changed, and idle cost', run: gitBenchmark },
  {
    name: 'bundle',
    title: "The activation bundle: its size and its require time in plain Node, beside a small extension's",
    run: bundleBenchmark,
  },
  {
    name: 'transport',
    title: "The client's transport: undici's public entry vs node:http, CPU a poll and load, one run",
    run: transportBenchmark,
    onlyWhenNamed: true,
  },
  {
    name: 'extension',
    title:
      'The extension in the real VS Code host: activation, idle CPU and heap with the ledger on and off while tracking, Start/Stop to the status bar',
    run: extensionBenchmark,
    onlyWhenNamed: true,
  },
];

function printRun(round: number, subject: string, result: LoadResult): void {
  console.log(
    `  round ${round}  ${subject.padEnd(32)} ${fixed(result.rps, 0).padStart(7)} rps  ` +
      `p50 ${fixed(result.p50Ms, 3)} ms  p99 ${fixed(result.p99Ms, 3)} ms  (${result.requests} requests)`,
  );
}

function printReport(report: Report): void {
  // The extension bench has no load subjects: only its notes and verdicts.
  const header = report.summaries.length === 0 ? [] : [['subject', 'rps', 'p50 ms', 'p99 ms', 'requests/run']];
  const rows = [
    ...header,
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
    console.log(
      `  ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join('  ')}`,
    );
  }
  console.log('');
  for (const note of report.notes) console.log(`  ${note}`);
  for (const verdict of report.verdicts) {
    console.log(
      `  ${verdict.met ? 'PASS       ' : 'FALL SHORT '} ${verdict.what}: ${verdict.measured} (target ${verdict.target})`,
    );
  }
}

function printMachine(): void {
  const cores = cpus();
  console.log(`date     ${new Date().toISOString()}`);
  console.log(
    `cpu      ${cores[0]?.model.trim() ?? 'unknown'}, ${cores.length} cores (available parallelism ${availableParallelism()})`,
  );
  console.log(
    `os       ${osType()} ${release()}, load average ${loadavg()
      .map((value) => fixed(value, 2))
      .join(' ')}`,
  );
  console.log(`node     ${process.version}`);
}

function fixed(value: number, digits: number): string {
  return value.toFixed(digits);
}

function signedFixed(value: number, digits: number): string {
  return `${value < 0 ? '' : '+'}${value.toFixed(digits)}`;
}

async function main(): Promise<number> {
  let wanted: string[];
  let options: BenchOptions;
  try {
    // Options are the extension bench's (test/bench/extensionBench.ts); the others take none.
    const parsed = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: {
        'idle-minutes': { type: 'string' },
        'profile-seconds': { type: 'string' },
        trials: { type: 'string' },
        'profile-file': { type: 'string' },
        'heap-snapshot': { type: 'string' },
        peer: { type: 'string' },
        verbose: { type: 'boolean' },
      },
    });
    wanted = parsed.positionals;
    options = parsed.values;
  } catch (error) {
    console.error(
      `${error instanceof Error ? error.message.replace(/\. To specify[^]*/, '.') : String(error)} Options: --idle-minutes, --profile-seconds, --trials, --profile-file, --heap-snapshot, --peer, --verbose (for extension).`,
    );
    return 2;
  }
  const unknown = wanted.filter((name) => !BENCHMARKS.some((benchmark) => benchmark.name === name));
  if (unknown.length > 0) {
    console.error(
      `Unknown benchmark ${unknown.join(', ')}; known: ${BENCHMARKS.map((benchmark) => benchmark.name).join(', ')}.`,
    );
    return 2;
  }
  printMachine();
  let failed = false;
  const chosen = BENCHMARKS.filter((candidate) =>
    wanted.length === 0 ? candidate.onlyWhenNamed !== true : wanted.includes(candidate.name),
  );
  for (const benchmark of chosen) {
    console.log(`\n== ${benchmark.name}: ${benchmark.title}`);
    try {
      printReport(await benchmark.run(options));
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
