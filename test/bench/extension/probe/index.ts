/**
 * The extension bench's probe inside a VS Code extension host: `npm run bench -- extension`
 * (test/bench/extension/host.mjs) points `extensionTestsPath` here, in the host with the extension
 * and in the one without it, so both carry exactly the same extra code. It tells the bench the
 * extension host's pid (whose CPU the bench reads from /proc), answers `GET /heap` with this
 * process's memory after a full garbage collection, and `GET /profile?ms=N` with a CPU profile of
 * this process over the next N ms (V8's sampling profiler, through node:inspector, in-process),
 * and `GET /snapshot?name=…` by writing a heap snapshot after a full GC to `<name>.heapsnapshot`
 * in the folder TT_BENCH_SNAPSHOT_DIR names (the bench's `--heap-snapshot`), and `GET /modules` with the
 * files of every CommonJS module loaded in this process so far (what an extension's bundles loaded). It imports
 * nothing of VS Code or of the extension: it must cost the same in every host, and nothing while idle.
 */
import { createServer, request, type Server } from 'node:http';
import { Session, type Profiler } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** What `GET /heap` answers. */
export interface HeapAnswer {
  readonly heapUsed: number;
  readonly heapTotal: number;
  readonly rss: number;
  /** False when no full GC could be forced first: the figures then include garbage. */
  readonly afterGc: boolean;
}

/** What the probe posts to the bench once it listens. */
export interface ProbeHello {
  readonly pid: number;
  readonly port: number;
}

/**
 * VS Code awaits this as a test run. It never settles: the bench reads the host for as long as it
 * needs and then kills it with the rest of its processes.
 */
export async function run(): Promise<void> {
  const announceTo = process.env.TT_BENCH_PROBE_URL;
  if (announceTo === undefined)
    throw new Error('TT_BENCH_PROBE_URL is not set: this probe runs under `npm run bench -- extension`.');
  const gc = forcedGc();
  const server = createServer((incoming, answer) => {
    incoming.resume();
    const url = new URL(incoming.url ?? '/', 'http://probe');
    const ms = Number(url.searchParams.get('ms'));
    if (incoming.method === 'GET' && url.pathname === '/profile' && Number.isInteger(ms) && ms > 0) {
      profile(ms).then(
        (taken) => answer.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(taken)),
        (error: unknown) => answer.writeHead(500).end(String(error)),
      );
      return;
    }
    // Only a plain name, into the folder the bench gave: whoever else reaches this port picks no path.
    const name = url.searchParams.get('name');
    const folder = process.env.TT_BENCH_SNAPSHOT_DIR;
    if (
      incoming.method === 'GET' &&
      url.pathname === '/snapshot' &&
      name !== null &&
      /^[a-z]+$/.test(name) &&
      folder !== undefined
    ) {
      gc?.();
      gc?.();
      try {
        answer
          .writeHead(200, { 'Content-Type': 'text/plain' })
          .end(writeHeapSnapshot(join(folder, `${name}.heapsnapshot`)));
      } catch (error) {
        answer.writeHead(500).end(String(error));
      }
      return;
    }
    if (incoming.method === 'GET' && url.pathname === '/modules') {
      // The extension host loads a CommonJS extension through Node's own loader, so its files are in this cache.
      answer.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(Object.keys(require.cache)));
      return;
    }
    if (incoming.method !== 'GET' || url.pathname !== '/heap') {
      answer.writeHead(404).end();
      return;
    }
    // Twice: the first collection may only queue finalizers whose objects the second frees.
    gc?.();
    gc?.();
    const { heapUsed, heapTotal, rss } = process.memoryUsage();
    const body: HeapAnswer = { heapUsed, heapTotal, rss, afterGc: gc !== undefined };
    answer.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
  });
  const port = await listen(server);
  await post(announceTo, { pid: process.pid, port } satisfies ProbeHello);
  await new Promise<never>(() => undefined);
}

/**
 * The extension host runs without --expose-gc; V8 takes the flag at run time, and a context made
 * after that has `gc` as a global.
 */
function forcedGc(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? () => void (gc as () => unknown)() : undefined;
  } catch {
    return undefined;
  }
}

/** One sample a millisecond, V8's default. */
async function profile(ms: number): Promise<Profiler.Profile> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 1000 });
    await session.post('Profiler.start');
    await delay(ms);
    const { profile: taken } = await session.post('Profiler.stop');
    return taken;
  } finally {
    session.disconnect();
  }
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/** node:http rather than fetch: the extension host patches fetch for its proxy support. */
function post(url: string, body: unknown): Promise<void> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { method: 'POST', headers: { 'Content-Type': 'application/json' } }, (answer) => {
      answer.resume();
      answer.once('end', () =>
        answer.statusCode === 204
          ? resolve()
          : reject(new Error(`the bench answered ${answer.statusCode ?? 'nothing'}`)),
      );
    });
    sent.once('error', reject);
    sent.end(JSON.stringify(body));
  });
}
