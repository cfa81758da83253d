import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect, type Socket } from 'node:net';
import { ConnectionCap } from '../../../src/server/connectionCap';

const REQUEST = 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

describe('ConnectionCap', () => {
  let server: Server;
  let port: number;
  let held: ServerResponse[];
  let arrived: (() => void)[];
  let sockets: Socket[];

  beforeEach(async () => {
    held = [];
    arrived = [];
    sockets = [];
    const cap = new ConnectionCap(2);
    server = createServer({ keepAliveTimeout: 10_000 }, (request, response) => {
      cap.answering(request, response);
      held.push(response);
      arrived.shift()?.();
    });
    server.on('connection', (socket: Socket) => cap.admit(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterEach(async () => {
    for (const socket of sockets) socket.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const open = (): Promise<Socket> =>
    new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      sockets.push(socket);
      socket.on('error', () => undefined);
      socket.once('connect', () => resolve(socket)).once('error', reject);
    });
  /** Sends a request and resolves once the server holds it. */
  const hold = async (socket: Socket): Promise<void> => {
    const there = new Promise<void>((resolve) => arrived.push(resolve));
    socket.write(REQUEST);
    await there;
  };
  const closed = (socket: Socket): Promise<void> => new Promise((resolve) => socket.once('close', () => resolve()));
  const answered = (socket: Socket): Promise<string> =>
    new Promise((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString())));

  it('closes the oldest connection with no request being answered to make room', async () => {
    const first = await open();
    const busy = await open();
    await hold(busy);
    const firstClosed = closed(first);
    const third = await open();
    await firstClosed;
    assert.equal(busy.destroyed, false);
    assert.equal(third.destroyed, false);
  });

  it('closes a connection idle between requests as it closes a silent one', async () => {
    const idle = await open();
    await hold(idle);
    const reply = answered(idle);
    held[0]?.end('done');
    assert.match(await reply, /^HTTP\/1\.1 200 /);
    const silent = await open();
    const idleClosed = closed(idle);
    await open();
    await idleClosed;
    assert.equal(silent.destroyed, false);
  });

  it('refuses a new connection while every other one is being answered', async () => {
    const one = await open();
    const two = await open();
    await hold(one);
    await hold(two);
    const third = await open();
    await closed(third);
    assert.equal(one.destroyed, false);
    assert.equal(two.destroyed, false);
    const reply = answered(one);
    held[0]?.end('done');
    assert.match(await reply, /^HTTP\/1\.1 200 /);
  });
});
