import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { signedHeaders } from '../../support/signing';
import { send } from '../../support/http';
import { startServer, TEST_TOKEN, type StartedServer } from '../../support/server';

interface RawAnswer {
  readonly status: number;
  readonly headers: ReadonlyMap<string, string>;
  readonly body: unknown;
  /** The server closed the connection after its answer, as it must after a CONNECT. */
  readonly closed: boolean;
}

/** Writes `text` on a fresh connection and reads until the server closes it or `timeoutMs` pass. */
function exchange(port: number, text: string, timeoutMs = 3_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    const chunks: Buffer[] = [];
    let closed = false;
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', () => (closed = true));
    socket.on('error', reject);
    socket.on('close', () => {
      clearTimeout(timer);
      const raw = Buffer.concat(chunks).toString('utf8');
      const [head = '', body = ''] = raw.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = new Map(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = body;
      }
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1] ?? 0), headers, body: json, closed });
    });
  });
}

describe('server: methods the API does not use get JSON answers like every other bad request', () => {
  let started: StartedServer;

  beforeEach(async () => {
    started = await startServer();
  });

  afterEach(async () => {
    await started.server.close();
  });

  const head = (method: string, target: string, lines: Record<string, string>): string =>
    `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1:${started.port}\r\n${Object.entries(lines)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('')}\r\n`;

  const signed = (method: string, target: string): Record<string, string> =>
    signedHeaders({ token: TEST_TOKEN, method, target, nowMs: started.clock() });

  it('answers a CONNECT through the order of checks, as JSON, and closes the connection', async () => {
    const authority = `127.0.0.1:${started.port}`;
    const cases: [string, string, Record<string, string>, number, RegExp][] = [
      ['unsigned', authority, {}, 401, /^Missing signing headers: /],
      ['from a page', authority, { Origin: 'https://evil.example' }, 403, /Origin/],
      [
        'signed, to a host',
        authority,
        signed('CONNECT', authority),
        404,
        new RegExp(`^There is no endpoint at ${authority}\\.$`),
      ],
      ['signed, to an endpoint', '/status', signed('CONNECT', '/status'), 405, /^\/status takes GET only\.$/],
    ];
    for (const [what, target, lines, status, error] of cases) {
      // Bytes after the head, as a client that starts tunnelling at once would send them.
      const answer = await exchange(started.port, `${head('CONNECT', target, lines)}\x16\x03\x01 tunnel bytes`);
      assert.equal(answer.status, status, what);
      assert.equal(answer.headers.get('content-type'), 'application/json; charset=utf-8', what);
      assert.match((answer.body as { error: string }).error, error, what);
      assert.deepEqual(Object.keys(answer.body as object), ['error'], what);
      assert.equal(answer.closed, true, `${what}: the connection is closed after the answer`);
      if (status === 405) assert.equal(answer.headers.get('allow'), 'GET');
    }
    assert.deepEqual(
      started.server.controls.debugView().map((record) => [record.method, record.status]),
      cases.map(([, , , status]) => ['CONNECT', status]),
      'each is logged like any request',
    );
    assert.equal(
      (await send(started.port, { method: 'GET', target: '/healthcheck', headers: signed('GET', '/healthcheck') }))
        .status,
      200,
    );
  });

  it('answers other methods Node parses (TRACE, PROPFIND, PATCH, SEARCH) with 401 unsigned and 405 with Allow signed', async () => {
    for (const method of ['TRACE', 'PROPFIND', 'PATCH', 'SEARCH', 'DELETE', 'PUT']) {
      const unsigned = await exchange(started.port, head(method, '/status', { Connection: 'close' }));
      assert.equal(unsigned.status, 401, method);
      const answer = await exchange(
        started.port,
        head(method, '/entries', { ...signed(method, '/entries'), Connection: 'close' }),
      );
      assert.equal(answer.status, 405, method);
      assert.equal(answer.headers.get('allow'), 'POST', method);
      assert.deepEqual(answer.body, { error: '/entries takes POST only.' }, method);
    }
  });
});
