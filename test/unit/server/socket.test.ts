import assert from 'node:assert/strict';
import { lstat, mkdtemp, readFile, readdir, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCapability } from '../../../src/protocol/capability';
import { DataFile } from '../../../src/server/dataFile';
import { CapabilityFileError, SocketPathError } from '../../../src/server/errors';
import { createReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../../src/server/server';
import { maxSocketPathBytes } from '../../../src/platform/socketPath';
import { send, sendOverSocket, type RawResponse } from '../../support/http';
import { manualClock, TEST_TOKEN, type ManualClock } from '../../support/server';
import { signedHeaders } from '../../support/signing';

// Socket paths are short (at most 107 bytes on Linux, 103 on macOS): one short directory per test.
describe('server over a Unix socket: the VS Code integration channel (PROTOCOL.md §8)', function () {
  this.timeout(10_000);
  let dir: string;
  let clock: ManualClock;
  let servers: ReferenceServer[];
  let blockers: Server[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tt-s-'));
    clock = manualClock();
    servers = [];
    blockers = [];
  });

  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await Promise.all(blockers.map((blocker) => new Promise<void>((resolve) => blocker.close(() => resolve()))));
    await rm(dir, { recursive: true, force: true });
  });

  const make = (options: Partial<ReferenceServerOptions> = {}): ReferenceServer => {
    const server = createReferenceServer({ token: TEST_TOKEN, clock, ...options });
    servers.push(server);
    return server;
  };

  const signed = (method: string, target: string, token = TEST_TOKEN, nonce?: string): Record<string, string> =>
    signedHeaders({ token, method, target, nowMs: clock(), ...(nonce === undefined ? {} : { nonce }) });

  const overSocket = (
    path: string,
    method: string,
    target: string,
    headers: Record<string, string> = {},
    token = TEST_TOKEN,
  ): Promise<RawResponse> =>
    sendOverSocket(path, { method, target, headers: { ...signed(method, target, token), ...headers } });

  const mode = async (path: string): Promise<number> => (await lstat(path)).mode & 0o777;

  const exists = async (path: string): Promise<boolean> =>
    lstat(path).then(
      () => true,
      () => false,
    );

  /** A socket file nobody listens on, as a killed server leaves it: bound, moved aside, closed. */
  const staleSocketAt = async (path: string): Promise<void> => {
    const bound = join(dir, 'b.sock');
    const listener = createServer();
    await new Promise<void>((resolve) => listener.listen(bound, resolve));
    await rename(bound, path);
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  };

  const liveSocketAt = async (path: string): Promise<void> => {
    const listener = createServer((socket) => socket.destroy());
    blockers.push(listener);
    await new Promise<void>((resolve) => listener.listen(path, resolve));
  };

  const connects = (path: string): Promise<boolean> =>
    new Promise((resolve) => {
      const socket = connect(path);
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });

  it('answers signed requests over the socket with any Host or none, while its TCP port still refuses a wrong Host', async () => {
    const server = make();
    const port = await server.listen(0);
    const path = join(dir, 'api.sock');
    await server.listenOnSocket(path);
    assert.equal(server.socketPath, path);
    for (const host of ['localhost', 'evil.example', `127.0.0.1:${port}`, '']) {
      const response = await overSocket(path, 'GET', '/status', { host });
      assert.equal(response.status, 200, `Host "${host}" over the socket`);
    }
    const tcp = await send(port, {
      method: 'GET',
      target: '/status',
      headers: { ...signed('GET', '/status'), host: 'evil.example' },
    });
    assert.equal(tcp.status, 403);
    assert.deepEqual(tcp.json, { error: 'The Host header must name 127.0.0.1 or localhost with the service port.' });
    const rightHost = await send(port, { method: 'GET', target: '/status', headers: signed('GET', '/status') });
    assert.equal(rightHost.status, 200);
  });

  it('shares one service between socket and port: state, nonces and the debug view', async () => {
    const server = make();
    const port = await server.listen(0);
    const path = join(dir, 'api.sock');
    await server.listenOnSocket(path);
    const body = JSON.stringify({ name: 'Shared', createIfMissing: true });
    const startHeaders = signedHeaders({
      token: TEST_TOKEN,
      method: 'POST',
      target: '/activities/start',
      nowMs: clock(),
      body,
    });
    const start = await sendOverSocket(path, {
      method: 'POST',
      target: '/activities/start',
      headers: startHeaders,
      body,
    });
    assert.equal(start.status, 200);
    const status = await send(port, { method: 'GET', target: '/status', headers: signed('GET', '/status') });
    assert.equal(
      (status.json as { result: { currentActivity: { activityName: string } } }).result.currentActivity.activityName,
      'Shared',
    );

    const nonce = 'ab'.repeat(16);
    assert.equal((await overSocket(path, 'GET', '/current', signed('GET', '/current', TEST_TOKEN, nonce))).status, 200);
    const replay = await send(port, {
      method: 'GET',
      target: '/current',
      headers: signed('GET', '/current', TEST_TOKEN, nonce),
    });
    assert.equal(replay.status, 409, 'a nonce used over the socket is spent on the port too');
    assert.deepEqual(
      server.controls.debugView().map((record) => `${record.method} ${record.path} ${record.status}`),
      ['POST /activities/start 200', 'GET /status 200', 'GET /current 200', 'GET /current 409'],
    );
  });

  it('still refuses an Origin, an OPTIONS request and an unsigned one over the socket', async () => {
    const server = make();
    const path = join(dir, 'api.sock');
    await server.listenOnSocket(path);
    const withOrigin = await overSocket(path, 'GET', '/status', { origin: 'https://evil.example' });
    assert.equal(withOrigin.status, 403);
    assert.deepEqual(withOrigin.json, { error: 'Requests from web pages (with an Origin header) are refused.' });
    assert.equal(withOrigin.headers['access-control-allow-origin'], undefined);
    assert.equal((await overSocket(path, 'OPTIONS', '/status')).status, 403);
    assert.equal((await sendOverSocket(path, { method: 'GET', target: '/status' })).status, 401);
    assert.equal((await overSocket(path, 'GET', '/status', {}, 'wrong-token')).status, 401);
  });

  it('loads the data file and seeds once, whichever listener starts first', async () => {
    class CountingDataFile extends DataFile {
      loads = 0;
      override load(): ReturnType<DataFile['load']> {
        this.loads++;
        return super.load();
      }
    }
    for (const socketFirst of [true, false]) {
      const dataFile = new CountingDataFile(join(dir, `data-${String(socketFirst)}.json`));
      const server = make({ dataFile, seedActivities: ['Seeded'] });
      const path = join(dir, `${String(socketFirst)}.sock`);
      if (socketFirst) {
        await server.listenOnSocket(path);
        await server.listen(0);
      } else {
        await server.listen(0);
        await server.listenOnSocket(path);
      }
      assert.equal(dataFile.loads, 1, socketFirst ? 'socket first' : 'port first');
      assert.deepEqual(
        server.controls.state.listActivities().map((activity) => activity.name),
        ['Seeded'],
      );
    }
  });

  it('makes the socket and the capability file 0600; the file names this socket, token and pid', async () => {
    const server = make();
    const path = join(dir, 'api.sock');
    const capabilityPath = join(dir, 'api-endpoint.json');
    await server.listenOnSocket(path, { capabilityFile: capabilityPath });
    assert.equal(await mode(path), 0o600);
    assert.ok((await lstat(path)).isSocket());
    assert.equal(await mode(capabilityPath), 0o600);
    const parsed = parseCapability(await readFile(capabilityPath, 'utf8'));
    assert.deepEqual(parsed, {
      ok: true,
      capability: { version: 1, socketPath: path, token: TEST_TOKEN, pid: process.pid },
    });
    assert.deepEqual(
      (await readdir(dir)).sort(),
      ['api-endpoint.json', 'api.sock'],
      'no temporary file is left beside it',
    );
  });

  it('names the socket by its absolute path when given a relative one', async () => {
    const server = make();
    const previous = process.cwd();
    process.chdir(dir);
    try {
      await server.listenOnSocket('rel.sock', { capabilityFile: 'cap.json' });
    } finally {
      process.chdir(previous);
    }
    const absolute = join(await realpath(dir), 'rel.sock');
    assert.equal(server.socketPath, absolute);
    assert.equal(await mode(absolute), 0o600);
    const parsed = parseCapability(await readFile(join(dir, 'cap.json'), 'utf8'));
    assert.ok(parsed.ok);
    assert.equal(parsed.capability.socketPath, server.socketPath);
    assert.equal((await overSocket(parsed.capability.socketPath, 'GET', '/healthcheck')).status, 200);
  });

  it('close removes the socket and the capability file, and may be called twice', async () => {
    const server = make();
    await server.listen(0);
    const path = join(dir, 'api.sock');
    const capabilityPath = join(dir, 'cap.json');
    await server.listenOnSocket(path, { capabilityFile: capabilityPath });
    await server.close();
    assert.equal(await exists(path), false, 'the socket is gone');
    assert.equal(await exists(capabilityPath), false, 'the capability file is gone');
    assert.equal(server.socketPath, undefined);
    await server.close();
  });

  it('close leaves a capability file that another server, or anyone, has written since', async () => {
    const capabilityPath = join(dir, 'cap.json');
    const first = make();
    await first.listenOnSocket(join(dir, 'one.sock'), { capabilityFile: capabilityPath });
    const second = make({ token: 'a-new-token-after-restart' });
    await second.listenOnSocket(join(dir, 'two.sock'), { capabilityFile: capabilityPath });
    const secondText = await readFile(capabilityPath, 'utf8');
    await first.close();
    assert.equal(
      await readFile(capabilityPath, 'utf8'),
      secondText,
      "the newer server's file survives the older one's exit",
    );
    assert.equal(
      (await overSocket(join(dir, 'two.sock'), 'GET', '/status', {}, 'a-new-token-after-restart')).status,
      200,
    );

    // The same file (same inode), its content replaced in place: not this server's any more.
    await writeFile(capabilityPath, '{"version": 1, "socketPath": "/elsewhere.sock", "token": "t", "pid": 1}\n');
    await second.close();
    assert.equal(
      await readFile(capabilityPath, 'utf8'),
      '{"version": 1, "socketPath": "/elsewhere.sock", "token": "t", "pid": 1}\n',
    );
  });

  it('replaces a stale socket file that a killed server left behind', async () => {
    const path = join(dir, 'api.sock');
    await staleSocketAt(path);
    assert.ok((await lstat(path)).isSocket());
    assert.equal(await connects(path), false, 'nothing listens on it');
    const server = make();
    await server.listenOnSocket(path);
    assert.equal((await overSocket(path, 'GET', '/status')).status, 200);
  });

  it('refuses a socket another server listens on, and leaves that one alone', async () => {
    const path = join(dir, 'api.sock');
    await liveSocketAt(path);
    const server = make();
    await assert.rejects(server.listenOnSocket(path), (error: unknown) => {
      assert.ok(error instanceof SocketPathError);
      assert.equal(error.code, 'in-use');
      assert.equal(error.message, `Another server already listens on the socket ${path}.`);
      return true;
    });
    assert.equal(server.socketPath, undefined);
    assert.equal(await connects(path), true, 'the live one still answers');

    const owner = make();
    const ownPath = join(dir, 'own.sock');
    await owner.listenOnSocket(ownPath);
    await assert.rejects(
      make({ token: 'other' }).listenOnSocket(ownPath),
      /^SocketPathError: Another server already listens on the socket /,
    );
    assert.equal((await overSocket(ownPath, 'GET', '/status')).status, 200, 'the reference server in use is untouched');
  });

  it('refuses a path that is not a socket, a missing directory and a path too long, each with its sentence', async () => {
    const file = join(dir, 'plain.txt');
    await writeFile(file, 'keep me');
    const tooLong = join(dir, 'x'.repeat(maxSocketPathBytes()));
    const cases: [string, SocketPathError['code'], string][] = [
      [file, 'not-a-socket', `${file} exists and is not a socket; remove it or pick another path.`],
      [
        join(dir, 'missing', 'api.sock'),
        'directory-missing',
        `The directory ${join(dir, 'missing')} of the socket path does not exist.`,
      ],
      [join(file, 'api.sock'), 'directory-missing', `The directory ${file} of the socket path is not a directory.`],
      [
        tooLong,
        'path-too-long',
        `The socket path ${tooLong} is ${Buffer.byteLength(tooLong)} bytes long, and the longest this OS takes is ${maxSocketPathBytes()}.`,
      ],
    ];
    for (const [path, code, message] of cases) {
      const server = make();
      await assert.rejects(server.listenOnSocket(path), (error: unknown) => {
        assert.ok(error instanceof SocketPathError, path);
        assert.equal(error.code, code, path);
        assert.equal(error.message, message);
        return true;
      });
      assert.equal(server.socketPath, undefined);
    }
    assert.equal(await readFile(file, 'utf8'), 'keep me', 'a file that is not a socket is never removed');
  });

  it('takes a path of exactly the longest length, and knows the limits of Linux and macOS', async () => {
    assert.equal(maxSocketPathBytes('linux'), 107);
    assert.equal(maxSocketPathBytes('darwin'), 103);
    const prefix = `${dir}/`;
    const path = prefix + 'y'.repeat(maxSocketPathBytes() - Buffer.byteLength(prefix));
    assert.equal(Buffer.byteLength(path), maxSocketPathBytes());
    const server = make();
    await server.listenOnSocket(path);
    assert.equal((await overSocket(path, 'GET', '/healthcheck')).status, 200);
  });

  it('writes a capability file only on a socket, and does not stay on a socket it could not announce', async () => {
    const tcpOnly = make();
    await tcpOnly.listen(0);
    await assert.rejects(tcpOnly.writeCapabilityFile(join(dir, 'cap.json')), /only once it listens on a socket/);

    const server = make();
    const path = join(dir, 'api.sock');
    const capabilityPath = join(dir, 'nowhere', 'cap.json');
    await assert.rejects(server.listenOnSocket(path, { capabilityFile: capabilityPath }), (error: unknown) => {
      assert.ok(error instanceof CapabilityFileError);
      assert.equal(
        error.message,
        `Cannot write the capability file ${capabilityPath}: the directory ${join(dir, 'nowhere')} does not exist.`,
      );
      assert.equal(error.message.includes(TEST_TOKEN), false);
      return true;
    });
    assert.equal(server.socketPath, undefined);
    assert.equal(await exists(path), false, 'the socket is gone again');
    assert.deepEqual(await readdir(dir), []);
  });

  it('writes the capability file so that a reader sees the old file or the new one, never part of one', async () => {
    const capabilityPath = join(dir, 'cap.json');
    const first = make();
    await first.listenOnSocket(join(dir, 'one.sock'), { capabilityFile: capabilityPath });
    const oldText = await readFile(capabilityPath, 'utf8');
    const second = make({ token: 'second-token' });
    let reads = 0;
    const writing = { done: false };
    const reader = (async () => {
      // Bounded: stops when the write is done, and after 10,000 reads at most.
      while (!writing.done && reads < 10_000) {
        const text = await readFile(capabilityPath, 'utf8');
        reads++;
        const parsed = parseCapability(text);
        assert.ok(parsed.ok, `read ${reads} saw ${JSON.stringify(parsed)}`);
      }
    })();
    await second.listenOnSocket(join(dir, 'two.sock'), { capabilityFile: capabilityPath });
    writing.done = true;
    await reader;
    assert.ok(reads > 0);
    const newText = await readFile(capabilityPath, 'utf8');
    assert.notEqual(newText, oldText);
    assert.equal((await stat(capabilityPath)).mode & 0o777, 0o600);
  });
});
