/**
 * The reachability probe against real listeners: a TCP port, a Unix socket, a refused port, paths
 * that are no socket, a listener that accepts and says nothing, one that never accepts, and the
 * reference server counting every unsigned request. Each listener records what it received, so
 * "nothing sent" is seen on the server's side, not assumed.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../../src/client';
import { reachability, type Reachability } from '../../../src/client/reachability';
import { maxSocketPathBytes } from '../../../src/platform/socketPath';
import { countNetConnects } from '../../support/netConnectCounter';
import { freePort } from '../../support/process';
import { startServer, TEST_TOKEN } from '../../support/server';
import { stalledListener } from '../../support/stalledListener';

/** A listener that records every byte and every connection's end, and never writes or closes first. */
interface Recorder {
  readonly server: Server;
  readonly bytes: () => number;
  /** Resolves once `count` connections have ended from the client's side. */
  readonly ended: (count: number) => Promise<void>;
  close(): Promise<void>;
}

function recorder(): Recorder {
  let bytes = 0;
  let endedCount = 0;
  const waiting: { count: number; resolve: () => void }[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', (chunk) => (bytes += chunk.length));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      endedCount++;
      for (const wait of waiting.filter((entry) => entry.count <= endedCount)) wait.resolve();
    });
  });
  return {
    server,
    bytes: () => bytes,
    ended: (count) =>
      endedCount >= count ? Promise.resolve() : new Promise((resolve) => waiting.push({ count, resolve })),
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('client/reachability: does anything listen, asked with no byte sent', function () {
  this.timeout(10_000);
  let dir: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tt-r-'));
  });

  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('says listening for a TCP port, and the listener receives zero bytes and sees the connection closed', async () => {
    const listener = recorder();
    await new Promise<void>((resolve) => listener.server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = listener.server.address() as AddressInfo;
      assert.deepEqual(await reachability({ port }), { kind: 'listening' });
      assert.deepEqual(await reachability({ port }), { kind: 'listening' });
      // The probe closed both connections itself; the listener never closed them.
      await listener.ended(2);
      assert.equal(listener.bytes(), 0);
    } finally {
      await listener.close();
    }
  });

  it('says listening for a Unix socket, and the listener receives zero bytes', async () => {
    const listener = recorder();
    const socketPath = join(dir, 'api.sock');
    await new Promise<void>((resolve) => listener.server.listen(socketPath, resolve));
    try {
      assert.deepEqual(await reachability({ socketPath }), { kind: 'listening' });
      await listener.ended(1);
      assert.equal(listener.bytes(), 0);
    } finally {
      await listener.close();
    }
  });

  it('refuses a socket path longer than this system takes, as the client does, without connecting', async () => {
    const limit = maxSocketPathBytes();
    const socketPath = join(dir, 'm'.repeat(limit - Buffer.byteLength(dir)));
    assert.equal(Buffer.byteLength(socketPath), limit + 1);
    assert.deepEqual(await reachability({ socketPath }), {
      kind: 'error',
      code: 'ENAMETOOLONG',
      message: `The socket path ${socketPath} is ${limit + 1} bytes long, and this system takes at most ${limit}.`,
    });
  });

  it('does not wait for a listener that accepts and then says nothing', async () => {
    // The recorder never writes; a probe waiting for a greeting would run into its deadline here.
    const listener = recorder();
    await new Promise<void>((resolve) => listener.server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = listener.server.address() as AddressInfo;
      const started = Date.now();
      const answer = await reachability({ port });
      assert.deepEqual(answer, { kind: 'listening' });
      assert.ok(Date.now() - started < 1_000, `took ${Date.now() - started} ms`);
      await listener.ended(1);
      assert.equal(listener.bytes(), 0);
    } finally {
      await listener.close();
    }
  });

  it('says refused for a port nothing listens on', async () => {
    assert.deepEqual(await reachability({ port: await freePort() }), { kind: 'refused' });
  });

  it('never says listening for a socket path that is not a socket: a plain file, a directory, no file', async () => {
    const plainFile = join(dir, 'not-a.sock');
    await writeFile(plainFile, '');
    const file = await reachability({ socketPath: plainFile });
    assert.notEqual(file.kind, 'listening');
    // Linux refuses a connect to a plain file as to a socket nobody listens on.
    if (process.platform === 'linux') assert.deepEqual(file, { kind: 'refused' });

    const directory = await reachability({ socketPath: dir });
    assert.ok(directory.kind === 'refused' || directory.kind === 'error', JSON.stringify(directory));

    const missing = await reachability({ socketPath: join(dir, 'missing.sock') });
    assert.equal(missing.kind === 'error' ? missing.code : missing.kind, 'ENOENT');
  });

  it('turns arguments Node refuses into an error answer instead of throwing', async () => {
    const answer = await reachability({ port: 70_000 });
    assert.equal(answer.kind === 'error' ? answer.code : answer.kind, 'ERR_SOCKET_BAD_PORT');
  });

  it("connects without net.connect, which VS Code's extension host wraps with a certificate loader", async () => {
    const listener = recorder();
    await new Promise<void>((resolve) => listener.server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = listener.server.address() as AddressInfo;
      const { result, calls } = await countNetConnects(() => reachability({ port }));
      assert.deepEqual(result, { kind: 'listening' });
      assert.equal(calls, 0);
    } finally {
      await listener.close();
    }
  });

  it('says timedOut when a listener neither accepts nor refuses within the deadline', async function () {
    if (process.platform === 'win32') this.skip();
    const listener = await stalledListener();
    try {
      const port = listener.port;
      const started = Date.now();
      const answer: Reachability = await reachability({ port });
      assert.deepEqual(answer, { kind: 'timedOut' });
      assert.ok(Date.now() - started < 2_000, 'the deadline bounded the probe');
    } finally {
      listener.close();
    }
  });

  it('is never seen by the reference server, even when it counts every unsigned request', async () => {
    const { server, port } = await startServer({ clock: Date.now, countUnsigned: true });
    const client = new ServiceClient({ token: TEST_TOKEN, port });
    try {
      for (let i = 0; i < 15; i++) assert.deepEqual(await reachability({ port }), { kind: 'listening' });
      assert.deepEqual(server.controls.debugView(), [], 'no request reached the server');
      assert.equal(server.controls.failedSignIns, 0);
      assert.equal((await client.healthcheck()).license, 'valid');
    } finally {
      await client.close();
      await server.close();
    }
  });
});
