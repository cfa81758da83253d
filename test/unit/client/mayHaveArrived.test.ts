/**
 * Issue 12, the client's part: what a request that may have arrived fails as (points 2 and 4),
 * the deadline and the size limit of a call (point 4), and what surely did not arrive (point 9).
 * Each outcome is also read through the offline queue's own classification, which decides
 * whether an entry is ever sent again.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  AnswerLostError,
  AuthenticationError,
  ConnectionError,
  HttpError,
  NotFoundError,
  ServiceClient,
  ValidationError,
  type RequestRecord,
  type ServiceClientOptions,
} from '../../../src/client';
import { MAX_ANSWER_BYTES, Transport } from '../../../src/client/transport';
import { outcomeOfError } from '../../../src/tracker/queue/entryQueue';
import { startCannedServer, startFaultServer, type CannedAnswer, type FaultServer } from '../../support/faults';
import { rejection } from '../../support/rejection';
import { TEST_TOKEN } from '../../support/server';

const ENTRY = { name: 'Review', durationMinutes: 25, createIfMissing: true } as const;

/** The call's error, or a failure naming the hang if it has not settled within `ms`. */
async function settledWithin(ms: number, call: Promise<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new assert.AssertionError({ message: `the call was still pending after ${ms} ms` })),
      ms,
    );
  });
  try {
    return await Promise.race([rejection(call), hang]);
  } finally {
    clearTimeout(timer);
  }
}

describe('client: what may have arrived, and what surely did not (issue 12)', function () {
  this.timeout(10_000);
  let servers: FaultServer[];
  let clients: ServiceClient[];
  beforeEach(() => {
    servers = [];
    clients = [];
  });
  afterEach(async () => {
    // Servers first: closing them ends whatever a failed test left pending in a client.
    await Promise.all(servers.map((server) => server.close()));
    await Promise.all(clients.map((client) => client.close()));
  });

  const clientFor = (server: FaultServer, options: ServiceClientOptions = {}): ServiceClient => {
    const client = new ServiceClient({ token: TEST_TOKEN, port: server.port, ...options });
    clients.push(client);
    return client;
  };
  const serve = async (server: Promise<FaultServer>): Promise<FaultServer> => {
    servers.push(await server);
    return server;
  };

  /** Takes the first request and resets its connection (its answer is lost); answers every later one with `resend`. */
  const losingFirstAnswer = async (resend: CannedAnswer): Promise<{ server: FaultServer; nonces: string[] }> => {
    const nonces: string[] = [];
    const server = await serve(
      startCannedServer((request) => {
        nonces.push(String(request.headers['x-clessira-nonce'] ?? request.headers['x-nowdoing-nonce']));
        return nonces.length === 1 ? 'reset' : resend;
      }),
    );
    return { server, nonces };
  };

  describe('point 2: the re-send of a POST that may have arrived', () => {
    const answers: [number, Record<string, string>][] = [
      [429, { 'retry-after': '30' }],
      [401, {}],
      [423, {}],
      [503, {}],
      [500, {}],
    ];
    for (const [status, headers] of answers) {
      it(`fails as "may have been received" when the re-send is answered ${status}, so the queue keeps the entry as unknown`, async () => {
        const { server, nonces } = await losingFirstAnswer({
          status,
          body: JSON.stringify({ error: `answer ${status}` }),
          headers,
        });
        const error = await rejection(clientFor(server).logEntry(ENTRY));
        assert.ok(error instanceof ConnectionError, String(error));
        assert.equal(error.sent, true);
        assert.match(
          error.message,
          new RegExp(
            `^POST /entries may have reached the service: its answer was lost, and the identical re-send was answered ${status} \\(.*\\); check the application before repeating it\\.$`,
          ),
        );
        assert.equal(
          (error.cause as { status?: number } | undefined)?.status,
          status,
          'the answer to the re-send is the cause',
        );
        assert.equal(outcomeOfError(error).kind, 'unknown');
        assert.equal(nonces.length, 2, 'sent twice, never a third time');
        assert.equal(nonces[0], nonces[1], 'the re-send is the identical request');
      });
    }

    it('takes a 2xx, 400 or 404 to the re-send at its word, and a 409 as "answer lost"', async () => {
      const cases: [number, (error: unknown) => boolean, string][] = [
        [400, (error) => error instanceof ValidationError, 'refused'],
        [404, (error) => error instanceof NotFoundError, 'refused'],
        [409, (error) => error instanceof AnswerLostError, 'unknown'],
      ];
      for (const [status, check, kind] of cases) {
        const { server } = await losingFirstAnswer({ status, body: JSON.stringify({ error: `answer ${status}` }) });
        const error = await rejection(clientFor(server).logEntry(ENTRY));
        assert.ok(check(error), `${status}: ${String(error)}`);
        assert.equal(outcomeOfError(error).kind, kind, String(status));
      }
      const { server } = await losingFirstAnswer({
        status: 201,
        body: JSON.stringify({ entryID: 'E1', durationMinutes: 25 }),
      });
      assert.equal((await clientFor(server).logEntry(ENTRY)).entryID, 'E1');
    });

    it('does not try the other header prefix after a 401 to the re-send of a POST', async () => {
      const { server, nonces } = await losingFirstAnswer({ status: 401, body: '{"error":"bad signature"}' });
      const client = clientFor(server, { headerPrefix: 'auto' });
      const error = await rejection(client.logEntry(ENTRY));
      assert.ok(error instanceof ConnectionError && error.sent);
      assert.equal(nonces.length, 2, 'no freshly signed X-NowDoing-* copy');
      assert.equal(client.headerPrefix, 'Clessira');
    });

    it('still reports the answer to the re-send of a GET, which changes nothing', async () => {
      const { server } = await losingFirstAnswer({ status: 401, body: '{"error":"bad signature"}' });
      assert.ok((await rejection(clientFor(server).getStatus())) instanceof AuthenticationError);
    });
  });

  describe('point 4: one deadline for the whole call, and at most 1 MiB of answer', () => {
    it('fails a POST whose answer drips one byte at a time after timeoutMs, as sent: true, without a re-send', async () => {
      const server = await serve(startFaultServer('drip'));
      const records: RequestRecord[] = [];
      const client = clientFor(server, { timeoutMs: 300, onRequest: (record) => records.push(record) });
      const started = performance.now();
      const error = await settledWithin(3_000, client.logEntry(ENTRY));
      const elapsed = performance.now() - started;
      assert.ok(error instanceof ConnectionError, String(error));
      assert.equal(error.sent, true);
      assert.match(error.message, /did not answer within 300 ms; the request may have been received\.$/);
      assert.equal(outcomeOfError(error).kind, 'unknown');
      assert.ok(elapsed >= 290 && elapsed < 2_000, `took ${Math.round(elapsed)} ms`);
      assert.deepEqual(
        records.map((record) => record.retry),
        [false],
        'the deadline leaves no time for a re-send',
      );
    });

    it('fails a GET whose answer drips within the same one deadline, re-send included', async () => {
      const server = await serve(startFaultServer('drip'));
      const records: RequestRecord[] = [];
      const client = clientFor(server, { timeoutMs: 300, onRequest: (record) => records.push(record) });
      const started = performance.now();
      const error = await settledWithin(3_000, client.getStatus());
      assert.ok(error instanceof ConnectionError && error.sent, String(error));
      assert.ok(performance.now() - started < 2_000);
      assert.deepEqual(
        records.map((record) => record.retry),
        [false],
      );
    });

    it('keeps the deadline when the caller passes a signal of its own that never aborts', async () => {
      const server = await serve(startFaultServer('drip'));
      const error = await settledWithin(
        3_000,
        clientFor(server, { timeoutMs: 300 }).getStatus({ signal: new AbortController().signal }),
      );
      assert.ok(
        error instanceof ConnectionError && error.sent && /did not answer within 300 ms/.test(error.message),
        String(error),
      );
    });

    it("rejects with the caller's reason when the caller aborts while the answer drips", async () => {
      const server = await serve(startFaultServer('drip'));
      const error = await settledWithin(
        3_000,
        clientFor(server, { timeoutMs: 5_000 }).getStatus({ signal: AbortSignal.timeout(200) }),
      );
      assert.equal((error as Error).name, 'TimeoutError');
      assert.ok(!(error instanceof ConnectionError));
    });

    it('refuses an answer that declares more than 1 MiB at once, without waiting for it', async () => {
      const server = await serve(startFaultServer('oversized-declared'));
      const records: RequestRecord[] = [];
      const client = clientFor(server, { timeoutMs: 2_000, onRequest: (record) => records.push(record) });
      const started = performance.now();
      const error = await settledWithin(3_000, client.stopActivity());
      assert.ok(error instanceof ConnectionError, String(error));
      assert.equal(error.sent, true);
      assert.equal(
        error.message,
        `The answer from http://127.0.0.1:${server.port} is longer than 1 MiB, so the client stopped reading it; the request may have been received.`,
      );
      assert.ok(performance.now() - started < 1_000, 'long before the deadline');
      assert.deepEqual(
        records.map((record) => record.retry),
        [false, true],
        'the one identical re-send, as after any sent: true',
      );
    });

    it('stops reading a chunked answer once it passes 1 MiB', async () => {
      const server = await serve(startFaultServer('oversized-chunked'));
      // A deadline far beyond what reading 1 MiB takes, even on a busy machine: the limit must end the call.
      const post = await settledWithin(5_000, clientFor(server, { timeoutMs: 3_000 }).logEntry(ENTRY));
      assert.ok(post instanceof ConnectionError && post.sent && /longer than 1 MiB/.test(post.message), String(post));
      assert.equal(outcomeOfError(post).kind, 'unknown');
      const get = await settledWithin(5_000, clientFor(server, { timeoutMs: 3_000 }).getStatus());
      assert.ok(get instanceof ConnectionError && /longer than 1 MiB/.test(get.message), String(get));
    });

    it('reads an answer of exactly 1 MiB', async () => {
      const padding = 'x'.repeat(MAX_ANSWER_BYTES - '{"isTracking":false,"pad":""}'.length);
      const server = await serve(
        startCannedServer(() => ({ status: 200, body: `{"isTracking":false,"pad":"${padding}"}` })),
      );
      assert.equal((await clientFor(server, { timeoutMs: 2_000 }).getStatus()).isTracking, false);
    });

    it('fails a call after close as sent: false, sending nothing', async () => {
      const server = await serve(startCannedServer(() => ({ status: 200, body: '{"isTracking":false}' })));
      const client = clientFor(server);
      await client.getStatus();
      await client.close();
      const error = await rejection(client.getStatus());
      assert.ok(error instanceof ConnectionError && !error.sent, String(error));
      assert.equal(error.message, 'This client was closed; create a new one.');
      assert.equal(outcomeOfError(error).kind, 'notSent');
      assert.equal(server.requests().length, 1, 'only the call before close');
    });

    it('lets a call under way finish when the client is closed, and only then closes its connections', async () => {
      let arrive: () => void = () => undefined;
      const arrived = new Promise<void>((resolve) => (arrive = resolve));
      let answer: () => void = () => undefined;
      const server = createServer((request, response) => {
        request.resume();
        answer = () => {
          response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
          response.end('{"isTracking":false}');
        };
        arrive();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const client = new ServiceClient({ token: TEST_TOKEN, port: (server.address() as AddressInfo).port });
      try {
        const call = client.getStatus();
        await arrived;
        const closed = client.close();
        answer();
        assert.equal((await call).isTracking, false);
        await closed;
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    });

    it('says nothing was sent when the deadline passed before the request could go out', async () => {
      const transport = new Transport({ kind: 'tcp', host: '127.0.0.1', port: 9 }, 1, 300);
      const passed = AbortSignal.timeout(1);
      await new Promise((resolve) => passed.addEventListener('abort', resolve, { once: true }));
      try {
        const error = await rejection(
          transport.send({ method: 'POST', target: '/entries', headers: {}, body: '{}' }, undefined, passed),
        );
        assert.ok(error instanceof ConnectionError && !error.sent, String(error));
        assert.equal(
          error.message,
          'The request to http://127.0.0.1:9 could not be sent within 300 ms; nothing was sent.',
        );
      } finally {
        await transport.close();
      }
    });
  });

  describe('point 9: a connection dropped before the request was written', () => {
    for (const fault of ['close-on-accept', 'reset-on-accept'] as const) {
      it(`reports a connection the service ${fault === 'close-on-accept' ? 'closes' : 'resets'} as soon as it accepts it as sent: false`, async () => {
        const server = await serve(startFaultServer(fault));
        const records: RequestRecord[] = [];
        const error = await rejection(
          clientFor(server, { onRequest: (record) => records.push(record) }).logEntry(ENTRY),
        );
        assert.ok(error instanceof ConnectionError, String(error));
        assert.equal(error.sent, false);
        assert.match(error.message, /before the request was sent; nothing was received\.$/);
        assert.equal(outcomeOfError(error).kind, 'notSent');
        assert.deepEqual(
          records.map((record) => record.retry),
          [false],
          'a POST that surely did not arrive is not re-sent',
        );
        assert.equal(server.requests().length, 0);
      });
    }
    // A reset after the service read the request stays sent: true: client.test.ts, 'reports a reset before any answer'.
  });
});

describe('client: HttpError stays an answer when nothing may have arrived before', () => {
  it('maps a 429 to a first copy as HttpError, not as a connection failure', async () => {
    const server = await startCannedServer(() => ({
      status: 429,
      body: '{"error":"locked out"}',
      headers: { 'retry-after': '5' },
    }));
    const client = new ServiceClient({ token: TEST_TOKEN, port: server.port });
    try {
      const error = await rejection(client.logEntry(ENTRY));
      assert.ok(error instanceof HttpError && error.status === 429 && error.retryAfterSeconds === 5, String(error));
      assert.equal(outcomeOfError(error).kind, 'blocked');
    } finally {
      await client.close();
      await server.close();
    }
  });
});
