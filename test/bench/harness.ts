/**
 * A small closed-loop load generator for benchmark scripts (not timed tests). A fixed number of
 * requests stay in flight: each slot issues its next request as soon as the previous one has
 * been fully read, so the rate measured is what the subject sustains at that concurrency.
 */

/** Issues one request and resolves once the whole response body has been consumed; rejects on any failure. */
export type IssueRequest = () => Promise<void>;

export interface LoadOptions {
  readonly inFlight: number;
  /** Run but not recorded: JIT, connection set-up and caches settle first. */
  readonly warmupMs: number;
  /** The measured phase ends after this long, or after `maxRequests`, whichever comes first. */
  readonly durationMs: number;
  /** Caps the warm-up and the measured phase each, so a run stays bounded in count on any machine. */
  readonly maxRequests?: number;
}

export interface LoadResult {
  readonly requests: number;
  readonly seconds: number;
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

export interface Subject {
  readonly name: string;
  readonly issue: IssueRequest;
}

export interface RoundsOptions extends LoadOptions {
  readonly rounds: number;
  /** Called after each measured run, so a long comparison shows progress. */
  readonly onRun?: (round: number, subject: string, result: LoadResult) => void;
}

export interface SubjectSummary {
  readonly name: string;
  /** Median over the rounds of each figure separately. */
  readonly median: LoadResult;
  readonly runs: readonly LoadResult[];
}

const NS_PER_MS = 1_000_000;

export async function runLoad(issue: IssueRequest, options: LoadOptions): Promise<LoadResult> {
  const maxRequests = options.maxRequests ?? Number.POSITIVE_INFINITY;
  await drive(issue, options.inFlight, options.warmupMs, maxRequests, undefined);
  const latenciesNs: number[] = [];
  const started = process.hrtime.bigint();
  await drive(issue, options.inFlight, options.durationMs, maxRequests, latenciesNs);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  latenciesNs.sort((a, b) => a - b);
  return {
    requests: latenciesNs.length,
    seconds,
    rps: latenciesNs.length / seconds,
    p50Ms: percentile(latenciesNs, 0.5) / NS_PER_MS,
    p99Ms: percentile(latenciesNs, 0.99) / NS_PER_MS,
  };
}

/**
 * Runs every subject once per round and reports the median of each figure. The order flips
 * every round, so a slow spell on the shared machine, or whatever the previous run left behind
 * (GC debt, warm caches), does not always land on the same subject.
 */
export async function compareInRounds(subjects: readonly Subject[], options: RoundsOptions): Promise<SubjectSummary[]> {
  const runs = new Map<string, LoadResult[]>(subjects.map((subject) => [subject.name, []]));
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? subjects : [...subjects].reverse();
    for (const subject of order) {
      const result = await runLoad(subject.issue, options);
      runs.get(subject.name)?.push(result);
      options.onRun?.(round + 1, subject.name, result);
    }
  }
  return subjects.map((subject) => {
    const results = runs.get(subject.name) ?? [];
    return { name: subject.name, median: medianResult(results), runs: results };
  });
}

async function drive(
  issue: IssueRequest,
  inFlight: number,
  durationMs: number,
  maxRequests: number,
  latenciesNs: number[] | undefined,
): Promise<void> {
  const deadline = process.hrtime.bigint() + BigInt(Math.round(durationMs * NS_PER_MS));
  let started = 0;
  let failure: { error: unknown } | undefined;
  const slot = async (): Promise<void> => {
    // The deadline is checked before issuing, never by abandoning a request midway, so every
    // started request is counted and no connection is left with an unread answer.
    while (failure === undefined && started < maxRequests && process.hrtime.bigint() < deadline) {
      started++;
      const t0 = process.hrtime.bigint();
      try {
        await issue();
      } catch (error) {
        failure ??= { error };
        return;
      }
      latenciesNs?.push(Number(process.hrtime.bigint() - t0));
    }
  };
  await Promise.all(Array.from({ length: inFlight }, slot));
  if (failure !== undefined) throw failure.error;
}

/** Nearest-rank percentile of ascending values; 0 for none. */
export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(fraction * sorted.length)));
  return sorted[rank - 1] ?? 0;
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? 0) + upper) / 2;
}

function medianResult(results: readonly LoadResult[]): LoadResult {
  const of = (pick: (result: LoadResult) => number): number => median(results.map(pick));
  return {
    requests: of((result) => result.requests),
    seconds: of((result) => result.seconds),
    rps: of((result) => result.rps),
    p50Ms: of((result) => result.p50Ms),
    p99Ms: of((result) => result.p99Ms),
  };
}

export interface OpsOptions {
  /** Calls per timed run. */
  readonly iterations: number;
  /** Untimed calls of each operation before the first round, so the JIT has settled. */
  readonly warmupIterations: number;
  readonly rounds: number;
}

/** A synchronous operation; gets the call's index (to pick prepared input) and returns a string. */
export interface Operation {
  readonly name: string;
  readonly op: (index: number) => string;
}

export interface OpsSummary {
  readonly name: string;
  /** Median over the rounds, nanoseconds per call. */
  readonly nsPerOp: number;
  readonly runs: readonly number[];
}

/** Sum of the returned strings' lengths, so that no call can be optimised away. */
let opsSink = 0;

/** Times `iterations` calls of `op` in a tight loop as a whole with `process.hrtime.bigint()`; nanoseconds per call. */
export function timeOps(op: (index: number) => string, iterations: number): number {
  let sink = 0;
  const started = process.hrtime.bigint();
  for (let index = 0; index < iterations; index++) sink += op(index).length;
  const elapsed = Number(process.hrtime.bigint() - started);
  opsSink += sink;
  return elapsed / iterations;
}

/**
 * The micro-benchmark counterpart of `compareInRounds`: every operation is timed once per round,
 * the order flips every round, and each figure is the median over the rounds.
 */
export function compareOpsInRounds(operations: readonly Operation[], options: OpsOptions): OpsSummary[] {
  for (const { op } of operations) timeOps(op, options.warmupIterations);
  const runs = new Map<string, number[]>(operations.map((operation) => [operation.name, []]));
  for (let round = 0; round < options.rounds; round++) {
    const order = round % 2 === 0 ? operations : [...operations].reverse();
    for (const operation of order) runs.get(operation.name)?.push(timeOps(operation.op, options.iterations));
  }
  if (opsSink < 0) throw new Error('unreachable: string lengths are never negative');
  return operations.map(({ name }) => {
    const results = runs.get(name) ?? [];
    return { name, nsPerOp: median(results), runs: results };
  });
}
