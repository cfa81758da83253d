import assert from 'node:assert/strict';
import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConnectionError, ServiceClient, type RequestRecord, type ServiceClientOptions } from '../../../src/client';
import { bodySha256Hex, verifySignature } from '../../../src/protocol/signing';
import { createReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../../src/server/server';
import { manualClock, TEST_TOKEN, type ManualClock } from '../../support/server';
import { rejection } from '../../support/rejection';

// Socket paths stay short (107 bytes on Linux, 103 on macOS): one short directory per test.
describe("client over the app's Unix socket (PROTOCOL.md §8)", function () {
  this.timeout(10_000);
  let dir: string;
  let clock: ManualClock;
  let clients: ServiceClient[];
  let servers: ReferenceServer[];
  let listeners: Server[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tt-c-'));
    clock = manualClock();
    clients = [];
    servers = [];
    listeners = [];
  });

  afterEach(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await Promise.all(servers.map((server) => server.close()));
    await Promise.all(listeners.map((listener) => new Promise<void>((resolve) => listener.close(() => resolve()))));
    await rm(dir, { recursive: true, force: true });
  });

  const clientOn = (socketPath: string, options: ServiceClientOptions = {}): ServiceClient => {
    const client = new ServiceClient({ token: TEST_TOKEN, socketPath, clock, ...options });
    clients.push(client);
    return client;
  };

  /** The reference server on a socket only: no TCP port that a request could take instead. */
  const serverOn = async (
    socketPath: string,
    options: Partial<ReferenceServerOptions> = {},
  ): Promise<ReferenceServer> => {
    const server = createReferenceServer({ token: TEST_TOKEN, clock, ...options });
    servers.push(server);
    await server.listenOnSocket(socketPath);
    return server;
  };

  const listen = async (listener: Server, path: string): Promise<void> => {
    listeners.push(listener);
    await new Promise<void>((resolve) => listener.listen(path, resolve));
  };

  it('runs the operations against the reference server on a socket, signed as over TCP', async () => {
    const path = join(dir, 'api.sock');
    const server = await serverOn(path);
    const client = clientOn(path);
    assert.equal(client.socketPath, path);
    assert.equal(client.port, undefined);
    assert.equal(client.host, undefined);
    assert.equal((await client.healthcheck()).license, 'valid');
    const start = await client.startActivity({ name: 'Over the socket', createIfMissing: true });
    clock.advance(120_000);
    assert.equal((await client.getStatus()).todaySeconds, 120);
    assert.ok(start.activityID !== undefined);
    await client.logEntry({ activityID: start.activityID, durationMinutes: 5 });
    assert.equal((await client.stopActivity()).durationSeconds, 120);
    assert.deepEqual(
      server.controls.debugView().map((record) => `${record.method} ${record.path} ${record.status}`),
      [
        'GET /healthcheck 200',
        'POST /activities/start 200',
        'GET /status 200',
        'POST /entries 201',
        'POST /activities/stop 200',
      ],
    );
  });

  it('sends Host: localhost and the very headers and signature it sends over TCP', async () => {
    const path = join(dir, 'h.sock');
    const seen: { method: string; target: string; headers: IncomingHttpHeaders; body: string }[] = [];
    const listener = createHttpServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        seen.push({ method: request.method ?? '', target: request.url ?? '', headers: request.headers, body });
        response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end('{"ok":true}');
      });
    });
    await listen(listener, path);
    const client = clientOn(path, { headerPrefix: 'NowDoing' });
    await client.notifyBranchChange({ branch: 'feature/socket' });
    const [request] = seen;
    assert.ok(request);
    assert.equal(request.headers.host, 'localhost');
    assert.equal(request.headers['content-type'], 'application/json; charset=utf-8');
    const header = (name: string): string => String(request.headers[name]);
    assert.equal(header('x-nowdoing-token'), TEST_TOKEN);
    assert.ok(
      verifySignature({
        token: TEST_TOKEN,
        method: request.method,
        target: request.target,
        timestamp: header('x-nowdoing-timestamp'),
        nonce: header('x-nowdoing-nonce'),
        bodyHashHex: bodySha256Hex(request.body),
        signature: header('x-nowdoing-signature'),
      }),
    );
  });

  it('reports a missing socket file as sent: false, naming the socket; a GET is re-sent once, a POST never', async () => {
    const path = join(dir, 'none.sock');
    const records: RequestRecord[] = [];
    const client = clientOn(path, { onRequest: (record) => records.push(record) });
    const get = await rejection(client.getStatus());
    assert.ok(get instanceof ConnectionError);
    assert.equal(get.sent, false);
    assert.equal(
      get.message,
      `Nothing answers on the app's socket ${path}: the application is not running or its VS Code integration is off.`,
    );
    assert.deepEqual(
      records.map((record) => record.retry),
      [false, true],
    );
    records.length = 0;
    const post = await rejection(client.logEntry({ name: 'A', durationMinutes: 5 }));
    assert.ok(post instanceof ConnectionError && !post.sent && post.message.includes(path));
    assert.deepEqual(
      records.map((record) => record.retry),
      [false],
    );
  });

  it('reports a socket file nobody listens on, a plain file and a directory as sent: false with the same sentence', async () => {
    // A killed app leaves its socket file behind: bound, moved aside, and closed.
    const stale = join(dir, 'stale.sock');
    const bound = join(dir, 'b.sock');
    const listener = createServer();
    await new Promise<void>((resolve) => listener.listen(bound, resolve));
    await rename(bound, stale);
    await new Promise<void>((resolve) => listener.close(() => resolve()));
    const plain = join(dir, 'plain');
    await writeFile(plain, 'not a socket');
    const folder = join(dir, 'folder');
    await mkdir(folder);
    for (const path of [stale, plain, folder, join(plain, 'below.sock')]) {
      const error = await rejection(clientOn(path).startActivity({ name: 'A' }));
      assert.ok(error instanceof ConnectionError, path);
      assert.equal(error.sent, false, path);
      assert.equal(
        error.message,
        `Nothing answers on the app's socket ${path}: the application is not running or its VS Code integration is off.`,
      );
    }
  });

  it('reports a socket that closes each connection as soon as it accepts it as sent: false, naming the socket', async () => {
    const path = join(dir, 'closes.sock');
    let accepted = 0;
    const listener = createServer((socket) => {
      accepted++;
      socket.on('error', () => undefined);
      socket.destroy();
    });
    await listen(listener, path);
    const error = await rejection(clientOn(path).logEntry({ name: 'A', durationMinutes: 5 }));
    assert.ok(error instanceof ConnectionError, String(error));
    assert.equal(error.sent, false);
    assert.equal(
      error.message,
      `The service at the app's socket ${path} closed the connection before the request was sent; nothing was received.`,
    );
    assert.equal(accepted, 1, 'a POST that surely did not arrive is not re-sent');
  });

  it('reports a connection dropped after the request as sent: true, and re-sends the identical request once', async () => {
    const path = join(dir, 'drop.sock');
    const heads: string[] = [];
    const listener = createServer((socket) => {
      socket.on('error', () => undefined);
      socket.once('data', (chunk: Buffer) => {
        heads.push(chunk.toString('latin1').split('\r\n\r\n')[0] ?? '');
        // A Unix socket cannot be reset; closing it before any answer is the same to the client.
        socket.destroy();
      });
    });
    await listen(listener, path);
    const error = await rejection(clientOn(path).logEntry({ name: 'A', durationMinutes: 5 }));
    assert.ok(error instanceof ConnectionError && error.sent && error.message.includes(path));
    assert.equal(heads.length, 2);
    assert.equal(heads[0], heads[1], 'same timestamp, nonce and signature');
    assert.match(heads[0] ?? '', /\r\nhost: localhost\r\n/i);
  });
});
