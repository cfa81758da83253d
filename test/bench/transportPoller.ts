/**
 * One child of `npm run bench -- transport` (transportBench.ts): loads one transport, polls the
 * reference server the way the extension polls it, and prints what that cost this process as JSON.
 * A process of its own per run, so that each transport's load is a first load and its CPU time is
 * its own, apart from the server's and the other transport's.
 *
 * Each poll is a signed `GET /status` under a 5 s `AbortSignal.timeout`, its answer read whole and
 * parsed. The server closes a connection idle for longer than the gap between polls, so every poll
 * opens a new connection, as every poll of the extension does at its 10 s interval (the app closes
 * idle connections after 5 s).
 */
import type { Agent as HttpAgent, IncomingMessage, RequestOptions } from 'node:http';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher, Pool as UndiciPool } from 'undici';
import { signedHeaders } from '../support/signing';

export interface PollerArguments {
  /** `undici`: the bundle of undici's public entry at `module`; `http`: Node's own `node:http`. */
  readonly candidate: 'undici' | 'http';
  readonly module: string;
  readonly endpoint: { readonly host: string; readonly port: number } | { readonly socketPath: string };
  readonly token: string;
  readonly warmUp: number;
  readonly polls: number;
  readonly gapMs: number;
}

export interface PollerReport {
  /** The first `require` of the transport's module, in this fresh process. */
  readonly loadMs: number;
  /** CPU (user + system) of the measured polls, less that of as many idle gaps, per poll. */
  readonly cpuPerPollUs: number;
  /** The same measured polls' wall time per poll, gap excluded. */
  readonly wallPerPollMs: number;
  /** Connections the polls opened (new connections), of `polls`. */
  readonly connections: number;
}

type Poll = () => Promise<void>;
const TARGET = '/status';

function undiciPoll(options: PollerArguments, counter: { connections: number }): Poll {
  const started = performance.now();
  const { Pool } = load.require(options.module) as { Pool: typeof UndiciPool };
  load.ms = performance.now() - started;
  const tcp = 'port' in options.endpoint;
  const origin =
    'port' in options.endpoint ? `http://${options.endpoint.host}:${options.endpoint.port}` : 'http://localhost';
  const pool = new Pool(origin, {
    connections: 4,
    pipelining: 1,
    ...(tcp ? {} : { socketPath: (options.endpoint as { socketPath: string }).socketPath }),
    keepAliveTimeout: 2_000,
  });
  pool.on('connect', () => counter.connections++);
  return async () => {
    const response: Dispatcher.ResponseData = await pool.request({
      method: 'GET',
      path: TARGET,
      headers: signedHeaders({ token: options.token, method: 'GET', target: TARGET }),
      signal: AbortSignal.timeout(5_000),
    });
    if (response.statusCode !== 200) throw new Error(`status ${response.statusCode}`);
    JSON.parse(await response.body.text());
  };
}

function httpPoll(options: PollerArguments, counter: { connections: number }): Poll {
  const started = performance.now();
  const http = load.require(options.module) as typeof import('node:http');
  load.ms = performance.now() - started;
  const agent: HttpAgent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  const where: RequestOptions =
    'port' in options.endpoint
      ? { host: options.endpoint.host, port: options.endpoint.port }
      : { socketPath: options.endpoint.socketPath };
  return () =>
    new Promise<void>((resolve, reject) => {
      const request = http.request(
        {
          ...where,
          agent,
          method: 'GET',
          path: TARGET,
          headers: signedHeaders({ token: options.token, method: 'GET', target: TARGET }),
          signal: AbortSignal.timeout(5_000),
        },
        (response: IncomingMessage) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('error', reject);
          response.on('end', () => {
            try {
              if (response.statusCode !== 200) throw new Error(`status ${String(response.statusCode)}`);
              JSON.parse(new TextDecoder().decode(Buffer.concat(chunks)));
              resolve();
            } catch (error) {
              reject(error instanceof Error ? error : new Error(String(error)));
            }
          });
        },
      );
      request.on('socket', () => {
        if (!request.reusedSocket) counter.connections++;
      });
      request.on('error', reject);
      request.end();
    });
}

const load = { ms: 0, require: createRequire(__filename) };

function cpuUs(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as PollerArguments;
  const counter = { connections: 0 };
  const poll = options.candidate === 'undici' ? undiciPoll(options, counter) : httpPoll(options, counter);
  for (let index = 0; index < options.warmUp; index++) {
    await poll();
    await sleep(options.gapMs);
  }
  counter.connections = 0;
  let pollMs = 0;
  const pollsStarted = cpuUs();
  for (let index = 0; index < options.polls; index++) {
    const started = performance.now();
    await poll();
    pollMs += performance.now() - started;
    await sleep(options.gapMs);
  }
  const pollsCpu = cpuUs() - pollsStarted;
  // The idle gaps alone, as many: what the loop costs without a poll in it.
  const idleStarted = cpuUs();
  for (let index = 0; index < options.polls; index++) await sleep(options.gapMs);
  const idleCpu = cpuUs() - idleStarted;
  const report: PollerReport = {
    loadMs: load.ms,
    cpuPerPollUs: (pollsCpu - idleCpu) / options.polls,
    wallPerPollMs: pollMs / options.polls,
    connections: counter.connections,
  };
  process.stdout.write(JSON.stringify(report));
  // Keep-alive sockets and timers of either transport must not hold the process.
  process.exit(0);
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
