/**
 * Connecting to a Unix socket needs write permission on it, so a socket that appears at its path
 * with the umask's mode, even for the moment before a chmod, lets another user in: under umask
 * 000 one connected between `listen` and `chmod` in 5 of 5 rounds and locked the owner out with
 * 11 bad requests. As root we cannot be that user; we watch, from another thread, every socket
 * beside the path and every folder it could sit in, as often as we can, and demand that none was
 * ever reachable for group or others.
 */
import assert from 'node:assert/strict';
import { lstat, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { SocketPathError } from '../../../src/server/errors';
import { createReferenceServer } from '../../../src/server/server';
import { maxSocketPathBytes } from '../../../src/platform/socketPath';
import { bindSocketPrivately } from '../../../src/server/unixSocket';
import { sendOverSocket } from '../../support/http';
import { manualClock, TEST_TOKEN } from '../../support/server';
import { signedHeaders } from '../../support/signing';

/**
 * Looks at the socket's path and lists its folder over and over until told to stop: every socket
 * in it, or in a folder in it, that group or others could connect to (write permission on the
 * socket, and search permission on a folder it sits in) is reported with its mode. Plain
 * JavaScript, so the worker needs no build.
 */
const WATCHER = `
const { readdirSync, lstatSync } = require('node:fs');
const { join } = require('node:path');
const { workerData, parentPort } = require('node:worker_threads');
const stop = new Int32Array(workerData.stop);
const exposed = new Set();
let socketsSeen = 0;
const look = (path, folderOpen) => {
  const info = lstatSync(path, { throwIfNoEntry: false });
  if (!info) return;
  if (info.isSocket()) {
    socketsSeen++;
    if (folderOpen && (info.mode & 0o022) !== 0) exposed.add(path + ' ' + (info.mode & 0o777).toString(8));
  } else if (info.isDirectory() && path !== workerData.dir) {
    let names = [];
    try { names = readdirSync(path); } catch { return; }
    for (const name of names) look(join(path, name), folderOpen && (info.mode & 0o011) !== 0);
  }
};
parentPort.postMessage('watching');
for (let turn = 0; Atomics.load(stop, 0) === 0; turn++) {
  // The socket's own path at every turn, as quickly as one call goes; the whole folder now and then.
  look(workerData.path, true);
  if (turn % 8 !== 0) continue;
  let names = [];
  try { names = readdirSync(workerData.dir); } catch {}
  for (const name of names) look(join(workerData.dir, name), true);
}
parentPort.postMessage({ exposed: [...exposed], socketsSeen });
`;

/** Enough that the moment before a chmod, some 0.1 ms, is caught on a busy two-core machine too. */
const ROUNDS = 40;

interface Watched {
  readonly exposed: string[];
  readonly socketsSeen: number;
}

describe('server over a Unix socket: never reachable by others, whatever the umask (PROTOCOL.md §8)', function () {
  this.timeout(20_000);
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tt-m-'));
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('under umask 000 the socket is at no moment connectable for group or others, and ends up 0600', async () => {
    const stop = new SharedArrayBuffer(4);
    const path = join(dir, 'api.sock');
    const watcher = new Worker(WATCHER, { eval: true, workerData: { dir, path, stop } });
    const next = (): Promise<unknown> =>
      new Promise((resolve, reject) => {
        watcher.once('message', resolve);
        watcher.once('error', reject);
      });
    // The rounds start only once the watcher watches: starting a thread takes longer than they do.
    assert.equal(await next(), 'watching');
    const watched = next() as Promise<Watched>;
    const clock = manualClock();
    const previous = process.umask(0);
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const server = createReferenceServer({ token: TEST_TOKEN, clock });
        try {
          await server.listenOnSocket(path);
          assert.equal((await lstat(path)).mode & 0o777, 0o600, `round ${round}`);
          assert.deepEqual(await readdir(dir), ['api.sock'], 'nothing is left beside the socket');
          const headers = signedHeaders({ token: TEST_TOKEN, method: 'GET', target: '/status', nowMs: clock() });
          assert.equal((await sendOverSocket(path, { method: 'GET', target: '/status', headers })).status, 200);
        } finally {
          await server.close();
        }
      }
    } finally {
      process.umask(previous);
      Atomics.store(new Int32Array(stop), 0, 1);
    }
    const { exposed, socketsSeen } = await watched;
    await watcher.terminate();
    assert.ok(socketsSeen > 0, 'the watcher saw the socket at all');
    assert.deepEqual(exposed, [], 'sockets group or others could connect to, with their modes');
  });

  it('refuses a path another server took between the checks and the link, and leaves that one alone', async () => {
    const path = join(dir, 'api.sock');
    const ours = createServer();
    const theirs = createServer((socket) => socket.destroy());
    try {
      const listener = {
        // As if another server bound the path while this one was binding in its private folder.
        listen: async (at: string): Promise<void> => {
          await new Promise<void>((resolve) => ours.listen(at, resolve));
          await new Promise<void>((resolve) => theirs.listen(path, resolve));
        },
        close: () => new Promise<void>((resolve) => ours.close(() => resolve())),
      };
      await assert.rejects(bindSocketPrivately(path, listener), (error: unknown) => {
        assert.ok(error instanceof SocketPathError);
        assert.equal(error.code, 'in-use');
        assert.equal(error.message, `Another server already listens on the socket ${path}.`);
        return true;
      });
      assert.equal(ours.listening, false, 'it does not stay on a socket nobody can find');
      assert.deepEqual(await readdir(dir), ['api.sock'], 'the private folder is gone');
      const reached = await new Promise<boolean>((resolve) => {
        const socket = connect(path, () => resolve(true)).once('error', () => resolve(false));
        socket.once('connect', () => socket.destroy());
      });
      assert.equal(reached, true, 'the other server still listens there');
    } finally {
      await new Promise<void>((resolve) => theirs.close(() => resolve()));
    }
  });

  it('refuses, with its sentence, a path in a folder too long for the private folder beside it', async () => {
    const limit = maxSocketPathBytes();
    // The path itself fits; `<folder>/.XXXXXX/s` is 8 bytes longer than `<folder>/s` and does not.
    const folder = join(dir, 'f'.repeat(limit - Buffer.byteLength(dir) - 6));
    await mkdir(folder);
    const path = join(folder, 's');
    assert.ok(Buffer.byteLength(path) <= limit);
    const server = createReferenceServer({ token: TEST_TOKEN });
    await assert.rejects(server.listenOnSocket(path), (error: unknown) => {
      assert.ok(error instanceof SocketPathError);
      assert.equal(error.code, 'path-too-long');
      assert.equal(
        error.message,
        `The socket path ${path} is in a folder too long for it: the socket is first bound in a private folder beside it, at ${join(folder, '.XXXXXX', 's')} (${Buffer.byteLength(path) + 8} bytes), and the longest this OS takes is ${limit}; pick a shorter folder.`,
      );
      return true;
    });
    assert.deepEqual(await readdir(folder), []);
  });
});
