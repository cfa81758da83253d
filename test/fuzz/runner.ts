/**
 * Runs generated cases against an in-process reference server over raw sockets to 127.0.0.1 and
 * judges every answer: only 4xx (or 2xx for a correctly signed request, 100 before a final
 * answer) or a closed connection are allowed, never a 5xx, a hang, a crash or a broken answer;
 * and a signed GET /healthcheck between blocks of cases shows the server keeps serving.
 */
import { connect } from 'node:net';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { JSON_CONTENT_TYPE, LOCKOUT_SECONDS } from '../../src/protocol/constants';
import { createReferenceServer, type ServerTimeouts } from '../../src/server/server';
import { manualClock, TEST_TOKEN } from '../support/server';
import { CaseGenerator, Rng, SEED_ACTIVITIES, type FuzzCase, type Segment } from './generator';

export interface FuzzOptions {
  readonly seed: number;
  readonly cases: number;
  /** Cases in flight at once in the main lane; slow senders have a lane of their own. */
  readonly concurrency?: number;
  readonly onProgress?: (progress: FuzzProgress) => void;
}

export interface FuzzProgress {
  readonly done: number;
  readonly total: number;
  readonly violations: number;
  readonly elapsedMs: number;
}

export interface Violation {
  /** -1 for what belongs to no case (an uncaught exception, a failed probe). */
  readonly caseIndex: number;
  readonly description: string;
  readonly problem: string;
  /** The start of the request bytes, JSON-escaped, to rebuild the case by hand. */
  readonly request: string;
  readonly answer: string;
}

export interface FuzzReport {
  readonly seed: number;
  readonly cases: number;
  /** Final answers by status, plus `100` for interim answers. */
  readonly statusCounts: Readonly<Record<string, number>>;
  /** Cases that got no answer at all, only a closed connection. */
  readonly closedWithoutAnswer: number;
  readonly violations: readonly Violation[];
  readonly violationCount: number;
  readonly probes: { readonly ok: number; readonly failed: number };
  /** Allowed but worth a look (answers outside the JSON envelope), with one case each. */
  readonly observations: Readonly<Record<string, { count: number; example: string }>>;
  readonly durationMs: number;
}

/** Short enough that stalled connections end in well under a second. */
export const FUZZ_TIMEOUTS: ServerTimeouts = {
  headersMs: 300,
  requestMs: 600,
  keepAliveMs: 300,
  connectionsCheckingIntervalMs: 100,
};
/** After its last byte, a case must be answered or closed within this. */
export const ANSWER_LIMIT_MS = 3_000;
const PROBE_EVERY = 200;
const SLOW_LANE = 16;
/** Both lanes and a probe stay under the server's 64 connections, so none is turned away. */
export const MAX_CONCURRENCY = 40;
const KEPT_VIOLATIONS = 100;
/**
 * Per case the clock moves 1.5 s on average, so a 30 s window holds about 20 cases and the 11
 * failed authentications that start a lockout happen now and then, not all the time.
 */
const CLOCK_STEP_MS: readonly [number, number] = [500, 2_500];

export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const concurrency = options.concurrency ?? 16;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) {
    throw new RangeError(`concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}.`);
  }
  const started = performance.now();
  const clock = manualClock();
  const server = createReferenceServer({
    token: TEST_TOKEN,
    clock,
    seedActivities: SEED_ACTIVITIES,
    timeouts: FUZZ_TIMEOUTS,
  });
  const port = await server.listen(0);
  const generator = new CaseGenerator({ seed: options.seed, token: TEST_TOKEN, port });
  // Probes and controls draw from their own streams, so retries never shift the cases.
  const prober = new CaseGenerator({ seed: options.seed ^ 0x5bd1e995, token: TEST_TOKEN, port });
  const controls = new Rng(options.seed ^ 0x9e3779b9);
  const tally = new Tally();
  const onUncaught = (error: unknown): void => tally.violation(processViolation('uncaught exception', error));
  const onRejection = (reason: unknown): void => tally.violation(processViolation('unhandled rejection', reason));
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onRejection);
  const main = new Lane(concurrency);
  const slow = new Lane(SLOW_LANE);
  const progress = (done: number): void =>
    options.onProgress?.({
      done,
      total: options.cases,
      violations: tally.violationCount,
      elapsedMs: performance.now() - started,
    });

  const probe = async (): Promise<void> => {
    for (let attempt = 0; attempt < 4; attempt++) {
      const exchange = await send(port, probeCase(prober.probe(clock())), ANSWER_LIMIT_MS);
      const answer = parseAnswers(exchange.data, ['GET'], true).answers[0];
      if (answer?.status === 200) {
        tally.probes.ok++;
        return;
      }
      // A lockout (429) is the protocol working; wait it out on the clock. No answer at all can
      // be the 64-connection limit while lingering sockets close.
      if (answer?.status === 429) clock.advance((LOCKOUT_SECONDS + 1) * 1000);
      else if (answer === undefined && exchange.end !== 'timeout') await sleep(50);
      else {
        tally.probes.failed++;
        tally.violation({
          caseIndex: -1,
          description: 'probe: signed GET /healthcheck',
          problem: `answered ${answer?.status ?? exchange.end}`,
          request: '',
          answer: escape(exchange.data),
        });
        return;
      }
    }
    tally.probes.failed++;
    tally.violation({
      caseIndex: -1,
      description: 'probe: signed GET /healthcheck',
      problem: 'no 200 after 4 attempts',
      request: '',
      answer: '',
    });
  };

  try {
    for (let index = 0; index < options.cases; index++) {
      if (index > 0 && index % PROBE_EVERY === 0) {
        await main.drain();
        await probe();
        // License and break change only between blocks, as the desktop UI would, so 423 shows up;
        // so do the answer style and the build, so minimal answers and first-release 404s are fuzzed too.
        server.controls.setLicense(controls.chance(0.1) ? 'locked' : 'valid');
        server.controls.setBreak(controls.chance(0.3));
        server.controls.setAnswers(controls.chance(0.25) ? 'minimal' : 'full');
        server.controls.setBuild(controls.chance(0.2) ? 'first-release' : 'current');
        progress(index);
      }
      clock.advance(controls.between(...CLOCK_STEP_MS));
      const fuzzCase = generator.next(clock());
      await (fuzzCase.slow ? slow : main).add(async () =>
        tally.record(fuzzCase, await send(port, fuzzCase, ANSWER_LIMIT_MS)),
      );
    }
    await Promise.all([main.drain(), slow.drain()]);
    server.controls.setLicense('valid');
    server.controls.setAnswers('full');
    await probe();
    progress(options.cases);
  } finally {
    await server.close();
    // Errors of sockets that close late still land inside the run before the listeners go.
    await sleep(20);
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onRejection);
  }
  return tally.report(options, performance.now() - started);
}

// ---- one exchange ---------------------------------------------------------------------------------

type Sendable = Pick<FuzzCase, 'segments' | 'methods' | 'awaitClose' | 'halfClose'>;

interface Exchange {
  readonly data: Buffer;
  /**
   * answered: every request got its final answer (or the bytes are garbled already); closed: the server ended the
   * connection.
   */
  readonly end: 'answered' | 'closed' | 'timeout';
  readonly errorCode: string | undefined;
}

function probeCase(bytes: Buffer): Sendable {
  return { segments: [{ bytes, delayMs: 0 }], methods: ['GET'], awaitClose: false, halfClose: false };
}

function send(port: number, fuzzCase: Sendable, limitMs: number): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, noDelay: true });
    const received: Buffer[] = [];
    let errorCode: string | undefined;
    let done = false;
    const totalDelay = fuzzCase.segments.reduce((sum, segment) => sum + segment.delayMs, 0);
    const finish = (end: Exchange['end']): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ data: Buffer.concat(received), end, errorCode });
    };
    const timer = setTimeout(() => finish('timeout'), totalDelay + limitMs);
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      if (fuzzCase.awaitClose) return;
      const { answers, rest } = parseAnswers(Buffer.concat(received), fuzzCase.methods, false);
      // Garbled bytes will not get better by waiting for more.
      if (answers.length >= fuzzCase.methods.length || typeof rest === 'object') finish('answered');
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      errorCode = error.code ?? error.message;
    });
    socket.on('close', () => finish('closed'));
    socket.once('connect', () => void write(fuzzCase.segments));

    async function write(segments: readonly Segment[]): Promise<void> {
      for (const segment of segments) {
        if (segment.delayMs > 0) await sleep(segment.delayMs);
        else await nextTurn();
        if (done || !socket.writable) return;
        socket.write(segment.bytes);
      }
      if (fuzzCase.halfClose && socket.writable) socket.end();
    }
  });
}

// ---- reading answers --------------------------------------------------------------------------

interface Answer {
  readonly status: number;
  readonly headers: ReadonlyMap<string, string>;
  readonly body: Buffer;
}

interface ParsedAnswers {
  readonly answers: Answer[];
  readonly interim: number;
  /** complete: nothing left over; partial: an answer was cut off; else why the bytes are not HTTP. */
  readonly rest: 'complete' | 'partial' | { readonly error: string };
}

const STATUS_LINE = /^HTTP\/1\.1 ([0-9]{3})(?: [^\r\n]*)?$/;
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/;

/** Reads every answer in order; `closed` says whether the bytes are all there will be. */
function parseAnswers(data: Buffer, methods: readonly string[], closed: boolean): ParsedAnswers {
  const answers: Answer[] = [];
  let interim = 0;
  let offset = 0;
  while (offset < data.length) {
    const headEnd = data.indexOf('\r\n\r\n', offset, 'latin1');
    if (headEnd < 0) return { answers, interim, rest: 'partial' };
    const [statusLine = '', ...lines] = data.toString('latin1', offset, headEnd).split('\r\n');
    const status = STATUS_LINE.exec(statusLine)?.[1];
    if (status === undefined)
      return { answers, interim, rest: { error: `bad status line ${JSON.stringify(statusLine.slice(0, 80))}` } };
    const headers = new Map<string, string>();
    for (const line of lines) {
      const match = HEADER_LINE.exec(line);
      if (!match) return { answers, interim, rest: { error: `bad header line ${JSON.stringify(line.slice(0, 80))}` } };
      const name = (match[1] ?? '').toLowerCase();
      const value = match[2] ?? '';
      headers.set(name, headers.has(name) ? `${headers.get(name) ?? ''}, ${value}` : value);
    }
    offset = headEnd + 4;
    const code = Number(status);
    // 101 would switch protocols, so it counts as final (and as a violation) rather than interim.
    if (code >= 100 && code < 200 && code !== 101) {
      interim++;
      continue;
    }
    const method = methods[answers.length];
    let body: Buffer;
    if (method === 'HEAD' || code === 204 || code === 304) {
      body = Buffer.alloc(0);
    } else if (/\bchunked\b/i.test(headers.get('transfer-encoding') ?? '')) {
      const chunks: Buffer[] = [];
      for (;;) {
        const lineEnd = data.indexOf('\r\n', offset, 'latin1');
        if (lineEnd < 0) return { answers, interim, rest: 'partial' };
        const size = parseInt(data.toString('latin1', offset, lineEnd), 16);
        if (Number.isNaN(size)) return { answers, interim, rest: { error: 'bad chunk size' } };
        if (lineEnd + 2 + size + 2 > data.length) return { answers, interim, rest: 'partial' };
        chunks.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
        offset = lineEnd + 2 + size + 2;
        if (size === 0) break;
      }
      body = Buffer.concat(chunks);
    } else if (headers.has('content-length')) {
      const length = Number(headers.get('content-length'));
      if (!Number.isSafeInteger(length) || length < 0)
        return { answers, interim, rest: { error: 'bad Content-Length' } };
      if (offset + length > data.length) return { answers, interim, rest: 'partial' };
      body = data.subarray(offset, offset + length);
      offset += length;
    } else {
      if (!closed) return { answers, interim, rest: 'partial' };
      body = data.subarray(offset);
      offset = data.length;
    }
    answers.push({ status: code, headers, body });
  }
  return { answers, interim, rest: 'complete' };
}

// ---- judging ------------------------------------------------------------------------------------

class Tally {
  readonly statusCounts: Record<string, number> = {};
  readonly probes = { ok: 0, failed: 0 };
  readonly observations: Record<string, { count: number; example: string }> = {};
  private readonly violations: Violation[] = [];
  violationCount = 0;
  private closedWithoutAnswer = 0;

  violation(violation: Violation): void {
    this.violationCount++;
    if (this.violations.length < KEPT_VIOLATIONS) this.violations.push(violation);
  }

  record(fuzzCase: FuzzCase, exchange: Exchange): void {
    const parsed = parseAnswers(exchange.data, fuzzCase.methods, exchange.end === 'closed');
    const problems: string[] = [];
    // A reset may cut an answer short (the server destroys a socket it has not read to the end);
    // a clean close may not.
    const reset = exchange.errorCode !== undefined;
    if (exchange.end === 'timeout')
      problems.push(`neither answered nor closed within ${ANSWER_LIMIT_MS} ms of the last byte`);
    if (typeof parsed.rest === 'object') problems.push(`not HTTP: ${parsed.rest.error}`);
    else if (parsed.rest === 'partial' && exchange.end === 'closed' && !reset)
      problems.push('answer cut short by a clean close');
    if (exchange.errorCode !== undefined && !['ECONNRESET', 'EPIPE'].includes(exchange.errorCode)) {
      problems.push(`socket error ${exchange.errorCode}`);
    }
    if (parsed.interim > 0) this.count('100', parsed.interim);
    if (parsed.answers.length === 0) this.closedWithoutAnswer++;
    let successes = 0;
    for (const [position, answer] of parsed.answers.entries()) {
      this.count(String(answer.status), 1);
      if (answer.status >= 500) problems.push(`status ${answer.status}`);
      else if (answer.status >= 200 && answer.status < 300) successes++;
      else if (answer.status < 400) problems.push(`status ${answer.status}`);
      if ([...answer.headers.keys()].some((name) => name.startsWith('access-control-')))
        problems.push(`CORS header on a ${answer.status}`);
      if (answer.status === 429 && !/^[1-9][0-9]*$/.test(answer.headers.get('retry-after') ?? ''))
        problems.push('429 without a valid Retry-After');
      if (answer.status === 405 && !answer.headers.has('allow')) problems.push('405 without Allow');
      const envelope = envelopeProblem(answer, fuzzCase.methods[position]);
      if (envelope !== undefined) this.observe(`${answer.status} ${envelope}`, fuzzCase.description);
    }
    if (successes > fuzzCase.maySucceed) {
      problems.push(
        `${successes} 2xx answers but only ${fuzzCase.maySucceed} request(s) correctly signed and allowed by step 0`,
      );
    }
    for (const problem of problems) {
      this.violation({
        caseIndex: fuzzCase.index,
        description: fuzzCase.description,
        problem,
        request: escape(Buffer.concat(fuzzCase.segments.map((segment) => segment.bytes))),
        answer: escape(exchange.data, 1_200),
      });
    }
  }

  report(options: FuzzOptions, durationMs: number): FuzzReport {
    return {
      seed: options.seed,
      cases: options.cases,
      statusCounts: this.statusCounts,
      closedWithoutAnswer: this.closedWithoutAnswer,
      violations: this.violations,
      violationCount: this.violationCount,
      probes: this.probes,
      observations: this.observations,
      durationMs,
    };
  }

  private count(key: string, by: number): void {
    this.statusCounts[key] = (this.statusCounts[key] ?? 0) + by;
  }

  private observe(key: string, example: string): void {
    const entry = (this.observations[key] ??= { count: 0, example });
    entry.count++;
  }
}

/**
 * PROTOCOL.md §3: every body is JSON, `{ok: true, result}` or `{error: "<sentence>"}`; with
 * minimal answers (§8) also `{items: [...]}` for a search and a flat `{activityID, ...}` for a start
 * or an entry.
 */
function envelopeProblem(answer: Answer, method: string | undefined): string | undefined {
  if (method === 'HEAD') return undefined;
  if (answer.headers.get('content-type') !== JSON_CONTENT_TYPE)
    return `without the JSON content type (${answer.headers.get('content-type') ?? 'none'})`;
  let body: unknown;
  try {
    body = JSON.parse(answer.body.toString('utf8'));
  } catch {
    return 'with a body that is not JSON';
  }
  if (typeof body !== 'object' || body === null) return 'with a body that is not an object';
  const fields = Object.keys(body);
  const success = body as { ok?: unknown; items?: unknown; activityID?: unknown };
  const ok =
    answer.status < 300
      ? success.ok === true || Array.isArray(success.items) || typeof success.activityID === 'string'
      : fields.length === 1 && typeof (body as { error?: unknown }).error === 'string';
  return ok ? undefined : 'with a body outside the envelope';
}

function processViolation(problem: string, error: unknown): Violation {
  const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { caseIndex: -1, description: 'process', problem: `${problem}: ${text}`, request: '', answer: '' };
}

/** Latin1 shows every byte as one character; JSON quoting makes control bytes readable. */
function escape(bytes: Buffer, limit = 600): string {
  const text = JSON.stringify(bytes.toString('latin1', 0, Math.min(bytes.length, limit)));
  return bytes.length > limit ? `${text} (+${bytes.length - limit} bytes)` : text;
}

/** At most `limit` tasks at once; tasks never reject (an exchange resolves on every outcome). */
class Lane {
  private readonly running = new Set<Promise<void>>();

  constructor(private readonly limit: number) {}

  async add(task: () => Promise<void>): Promise<void> {
    while (this.running.size >= this.limit) await Promise.race(this.running);
    const promise: Promise<void> = task().finally(() => this.running.delete(promise));
    this.running.add(promise);
  }

  async drain(): Promise<void> {
    await Promise.all(this.running);
  }
}
