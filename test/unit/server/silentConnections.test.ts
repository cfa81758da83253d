import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient, type ServiceClientOptions } from '../../../src/client';
import { MAX_CONNECTIONS } from '../../../src/protocol/constants';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { manualClock, TEST_TOKEN } from '../../support/server';

/** Connections that send nothing, each open once the connect is done. */
async function openSilent(count: number, open: () => Socket): Promise<Socket[]> {
  return Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<Socket>((resolve, reject) => {
          const socket = open();
          socket.once('connect', () => resolve(socket)).once('error', reject);
        }),
    ),
  );
}

/** Rejects once `ms` have passed without `work` settling. */
async function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not answered within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** What the server wrote to a connection before it closed it. */
function untilClosed(socket: Socket): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString()));
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(text));
  });
}

describe('server: a neighbour holding connections open', function () {
  this.timeout(10_000);
  let dir: string;
  let server: ReferenceServer | undefined;
  let client: ServiceClient | undefined;
  let silent: Socket[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tt-n-'));
    server = undefined;
    client = undefined;
    silent = [];
  });

  afterEach(async () => {
    for (const socket of silent) socket.destroy();
    await client?.close();
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const start = (options: ServiceClientOptions): ServiceClient => {
    const started = new ServiceClient({ token: TEST_TOKEN, clock: manualClock(), ...options });
    client = started;
    return started;
  };

  it(`answers the token holder at once while ${MAX_CONNECTIONS} silent TCP connections are open`, async () => {
    server = createReferenceServer({ token: TEST_TOKEN, clock: manualClock() });
    const port = await server.listen(0);
    silent = await openSilent(MAX_CONNECTIONS, () => connect(port, '127.0.0.1'));
    const answer = await within(2_000, start({ port }).healthcheck());
    assert.equal(answer.license, 'valid');
  });

  it(`answers the token holder at once while ${MAX_CONNECTIONS} silent socket connections are open`, async () => {
    const socketPath = join(dir, 'api.sock');
    server = createReferenceServer({ token: TEST_TOKEN, clock: manualClock() });
    await server.listenOnSocket(socketPath);
    silent = await openSilent(MAX_CONNECTIONS, () => connect(socketPath));
    const answer = await within(2_000, start({ socketPath }).healthcheck());
    assert.equal(answer.license, 'valid');
  });

  it('closes a connection that sends nothing once the header timeout has passed, with a 408', async () => {
    server = createReferenceServer({
      token: TEST_TOKEN,
      clock: manualClock(),
      timeouts: { headersMs: 150, requestMs: 300, connectionsCheckingIntervalMs: 50 },
    });
    const port = await server.listen(0);
    silent = await openSilent(1, () => connect(port, '127.0.0.1'));
    const opened = performance.now();
    const written = await within(2_000, untilClosed(silent[0] as Socket));
    assert.ok(performance.now() - opened >= 100, 'closed before the header timeout');
    assert.match(written, /^HTTP\/1\.1 408 /);
  });
});
