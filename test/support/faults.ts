/**
 * Servers that misbehave on purpose, on 127.0.0.1 only: refuse, reset, stay silent, drop the
 * connection mid-body, drip or flood an answer, or answer whatever a test needs. Each counts the
 * connections it saw.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface FaultServer {
  readonly port: number;
  /** Connections accepted so far. */
  connections(): number;
  /** Complete request heads received so far (raw text up to the blank line). */
  requests(): string[];
  close(): Promise<void>;
}

export type Fault =
  | 'reset-on-request'
  | 'reset-then-refuse'
  | 'silent'
  | 'drop-mid-body'
  /** Closes (FIN) or resets (RST) each connection as soon as it is accepted, reading nothing. */
  | 'close-on-accept'
  | 'reset-on-accept'
  /** Answers 200 with a body of 100,000 bytes, one byte every 50 ms: never idle long, never done. */
  | 'drip'
  /** Declares a 2 MiB answer and then sends nothing: only its Content-Length can give it away in time. */
  | 'oversized-declared'
  /** Sends 2 MiB of JSON, chunked, with no Content-Length: the client meets the limit while reading. */
  | 'oversized-chunked';

/** The size of the oversized answers: twice the client's limit. */
export const OVERSIZED_BYTES = 2 * 1024 * 1024;

/** OVERSIZED_BYTES of valid JSON: `{"ok":true,"pad":"xxx…"}`. */
function oversizedJson(): Buffer {
  const head = Buffer.from('{"ok":true,"pad":"');
  const tail = Buffer.from('"}');
  return Buffer.concat([head, Buffer.alloc(OVERSIZED_BYTES - head.length - tail.length, 'x'), tail]);
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function closer(server: Server, sockets: Set<Socket>): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
}

/** A raw TCP server that reads each request head and then misbehaves as told. */
export async function startFaultServer(fault: Fault): Promise<FaultServer> {
  let connections = 0;
  const heads: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (fault === 'close-on-accept') return void socket.destroy();
    if (fault === 'reset-on-accept') return void socket.resetAndDestroy();
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return;
      heads.push(received.slice(0, end));
      received = '';
      if (fault === 'reset-on-request') socket.resetAndDestroy();
      // The app takes the request, then dies: later connections are refused.
      if (fault === 'reset-then-refuse') {
        server.close(() => undefined);
        socket.resetAndDestroy();
      }
      if (fault === 'drop-mid-body') {
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"ok":true,"res');
        setImmediate(() => socket.destroy());
      }
      if (fault === 'drip') {
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{');
        const drip = setInterval(() => socket.write(' '), 50);
        socket.on('close', () => clearInterval(drip));
      }
      if (fault === 'oversized-declared') {
        socket.write(
          `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${OVERSIZED_BYTES}\r\n\r\n{`,
        );
      }
      if (fault === 'oversized-chunked') {
        socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
        const body = oversizedJson();
        for (let offset = 0; offset < body.length; offset += 65_536) {
          const chunk = body.subarray(offset, offset + 65_536);
          socket.write(`${chunk.length.toString(16)}\r\n`);
          socket.write(chunk);
          socket.write('\r\n');
        }
        socket.end('0\r\n\r\n');
      }
      // 'silent' answers nothing and waits for the client to give up.
    });
  });
  const port = await listen(server);
  return { port, connections: () => connections, requests: () => heads, close: closer(server, sockets) };
}

export interface CannedAnswer {
  readonly status: number;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * An HTTP server that answers every request with what `answer` returns; it checks nothing.
 * `'reset'` takes the whole request and resets the connection instead of answering: it arrived,
 * its answer was lost.
 */
export async function startCannedServer(
  answer: (request: IncomingMessage) => CannedAnswer | 'reset',
): Promise<FaultServer> {
  let connections = 0;
  const heads: string[] = [];
  const sockets = new Set<Socket>();
  const server = createHttpServer((request: IncomingMessage, response: ServerResponse) => {
    heads.push(`${request.method ?? ''} ${request.url ?? ''}`);
    request.resume();
    request.on('end', () => {
      const canned = answer(request);
      if (canned === 'reset') return void request.socket.resetAndDestroy();
      response.writeHead(canned.status, { 'content-type': 'application/json; charset=utf-8', ...canned.headers });
      response.end(canned.body);
    });
  });
  server.on('connection', (socket: Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const port = await listen(server);
  return { port, connections: () => connections, requests: () => heads, close: closer(server, sockets) };
}

/**
 * A TCP proxy in front of a real server. For the first `lostAnswers` connections it forwards the
 * request and, once the server has answered, resets the client's connection instead of passing
 * the answer on: the request arrived, its answer was lost. Later connections pass through.
 */
export async function startAnswerLosingProxy(targetPort: number, lostAnswers = 1): Promise<FaultServer> {
  let connections = 0;
  const heads: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const index = connections++;
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    const upstream = connect(targetPort, '127.0.0.1');
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('data', (chunk: Buffer) => {
      const text = chunk.toString('latin1');
      heads.push(text.split('\r\n\r\n')[0] ?? '');
      // The real server checks Host against its own port (loopback hardening); Host is not signed.
      upstream.write(
        Buffer.from(text.replace(/\r\nhost: 127\.0\.0\.1:\d+\r\n/i, `\r\nhost: 127.0.0.1:${targetPort}\r\n`), 'latin1'),
      );
    });
    if (index < lostAnswers) {
      upstream.once('data', () => {
        client.resetAndDestroy();
        upstream.destroy();
      });
    } else {
      upstream.pipe(client);
    }
  });
  const port = await listen(server);
  return { port, connections: () => connections, requests: () => heads, close: closer(server, sockets) };
}
