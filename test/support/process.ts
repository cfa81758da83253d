/** Runs `node dist/server.js` as a user would, and waits for what it prints rather than sleeping. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const SERVER_SCRIPT = join(__dirname, '..', '..', '..', 'dist', 'server.js');

export interface ServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Everything printed so far. */
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout matches, rejects if the process exits first or the time runs out. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export function runServer(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): ServerProcess {
  const child = spawn(process.execPath, [SERVER_SCRIPT, ...args], {
    env: { ...process.env, SERVICE_TOKEN: undefined, SERVICE_PORT: undefined, ...env },
  });
  let out = '';
  let err = '';
  const listeners = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const listener of listeners) listener();
  });
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitFor(pattern, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          const match = pattern.exec(out);
          if (match) {
            done();
            resolve(match);
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`Timed out waiting for ${String(pattern)}; stdout: ${out}; stderr: ${err}`));
        }, timeoutMs);
        const done = (): void => {
          clearTimeout(timer);
          listeners.delete(check);
        };
        listeners.add(check);
        void exited.then((code) => {
          if (!listeners.has(check)) return;
          done();
          reject(
            new Error(`The server exited with ${String(code)} before printing ${String(pattern)}; stderr: ${err}`),
          );
        });
        check();
      });
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** A port that was free a moment ago (the OS hands out a fresh one each time). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
