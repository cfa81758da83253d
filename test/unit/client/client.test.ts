import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import {
  AnswerLostError,
  AuthenticationError,
  ConfigurationError,
  ConnectionError,
  HttpError,
  NotFoundError,
  ReplayError,
  ServiceClient,
  ServiceError,
  UnavailableError,
  ValidationError,
  type RequestRecord,
  type ServiceClientOptions,
} from '../../../src/client';
import { PORT_ENVIRONMENT_VARIABLES, TOKEN_ENVIRONMENT_VARIABLES } from '../../../src/protocol/constants';
import { startAnswerLosingProxy, startCannedServer, startFaultServer, type FaultServer } from '../../support/faults';
import { freePort } from '../../support/process';
import { startServer, TEST_TOKEN, type StartedServer } from '../../support/server';
import { rejection } from '../../support/rejection';

const clients: ServiceClient[] = [];
function clientFor(port: number, options: ServiceClientOptions = {}): ServiceClient {
  const client = new ServiceClient({ token: TEST_TOKEN, port, ...options });
  clients.push(client);
  return client;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

const ENVIRONMENT = [...TOKEN_ENVIRONMENT_VARIABLES, ...PORT_ENVIRONMENT_VARIABLES];

/** Sets exactly these of the six token and port variables, unsetting the others. */
function setEnvironment(values: Partial<Record<(typeof ENVIRONMENT)[number], string>>): void {
  for (const name of ENVIRONMENT) {
    const value = values[name];
    if (value === undefined) Reflect.deleteProperty(process.env, name);
    else process.env[name] = value;
  }
}

describe('client: configuration', () => {
  const saved = Object.fromEntries(ENVIRONMENT.map((name) => [name, process.env[name]]));
  beforeEach(() => setEnvironment({}));
  afterEach(() => {
    for (const name of ENVIRONMENT) {
      const value = saved[name];
      if (value === undefined) Reflect.deleteProperty(process.env, name);
      else process.env[name] = value;
    }
  });

  it('refuses a missing token, a bad port, a foreign host and a bad time-out with one sentence', () => {
    const cases: [ServiceClientOptions, RegExp][] = [
      [
        {},
        /^No token: pass the token option or set CLESSIRA_TOKEN, NOWDOING_TOKEN or SERVICE_TOKEN to the token shown in the application settings\.$/,
      ],
      [{ token: '' }, /^No token/],
      [{ token: 't', port: 1023 }, /port must be a whole number from 1024 to 65535, not 1023\.$/],
      [{ token: 't', port: 65536 }, /not 65536/],
      [{ token: 't', port: 40000.5 }, /not 40000\.5/],
      [{ token: 't', port: Number.NaN }, /not NaN/],
      [{ token: 't', host: 'example.com' }, /loopback address/],
      [{ token: 't', host: '192.168.1.10' }, /loopback address/],
      [{ token: 't', timeoutMs: 0 }, /timeoutMs must be a positive number/],
      [
        { token: 't', headerPrefix: 'Auto' as 'auto' },
        /^headerPrefix must be Clessira, NowDoing or auto, not "Auto"\.$/,
      ],
      [
        { token: 't', socketPath: '/tmp/a.sock', port: 40000 },
        /^Pass either socketPath or port and host, not both: [^.]*\.$/,
      ],
      [{ token: 't', socketPath: '/tmp/a.sock', host: 'localhost' }, /^Pass either socketPath or port and host/],
      [{ token: 't', socketPath: '' }, /^socketPath must be a non-empty absolute path, not ""\.$/],
      [
        { token: 't', socketPath: 'run/api.sock' },
        /^socketPath must be a non-empty absolute path, not "run\/api\.sock"\.$/,
      ],
      [
        { token: 't', socketPath: `/tmp/${'s'.repeat(110)}.sock` },
        /^The socket path \/tmp\/s+\.sock is 120 bytes long, and this system takes at most 10[37]\.$/,
      ],
    ];
    for (const [options, pattern] of cases) {
      assert.throws(
        () => new ServiceClient(options),
        (error: unknown) => {
          return error instanceof ConfigurationError && error instanceof ServiceError && pattern.test(error.message);
        },
        JSON.stringify(options),
      );
    }
  });

  it('refuses a token that a header cannot carry as it is, in one sentence that never quotes it', () => {
    const sentence =
      'may hold only visible ASCII characters (letters, digits, punctuation), but it has a space, a line break or another character that a header cannot carry: copy it again from the application settings.';
    for (const token of [
      'secret\nX-Injected: 1',
      'secret\r',
      'sec\0ret',
      'sécret',
      'secret✓',
      'sec ret',
      ' secret',
      'sec\tret',
      'sec\x7fret',
      'sec\u00a0ret',
    ]) {
      assert.throws(
        () => new ServiceClient({ token, port: 40000 }),
        (error: unknown) => {
          return (
            error instanceof ConfigurationError &&
            error.message === `The token ${sentence}` &&
            !error.message.includes('sec')
          );
        },
        JSON.stringify(token),
      );
    }
    process.env['SERVICE_TOKEN'] = 'from-env\n';
    assert.throws(
      () => new ServiceClient({ port: 40000 }),
      (error: unknown) =>
        error instanceof ConfigurationError && error.message === `The token in SERVICE_TOKEN ${sentence}`,
    );
    const visible = clientFor(40000, { token: '!"#$%&\'()*+,-./09:;<=>?@AZ[\\]^_`az{|}~' });
    assert.equal(visible.port, 40000, 'every visible ASCII character is taken');
  });

  it('refuses a dotted host whose octets are not 0 to 255, and takes any 127.x.y.z', () => {
    for (const host of ['127.999.999.999', '127.0.0.256', '127.0.0.01', '127.1', '127.0.0.1.', '127.0.0.0x1']) {
      assert.throws(
        () => new ServiceClient({ token: 't', host }),
        (error: unknown) => {
          return (
            error instanceof ConfigurationError &&
            error.message.startsWith(`The host must be a loopback address (127.0.0.1, localhost or ::1), not "${host}"`)
          );
        },
        host,
      );
    }
    for (const host of ['127.0.0.2', '127.255.255.255', '127.0.0.0'])
      assert.equal(clientFor(40000, { host }).host, host);
  });

  it('takes the token from SERVICE_TOKEN and the port from SERVICE_PORT', () => {
    process.env['SERVICE_TOKEN'] = 'from-env';
    process.env['SERVICE_PORT'] = '40123';
    const client = new ServiceClient();
    clients.push(client);
    assert.equal(client.port, 40123);
    process.env['SERVICE_PORT'] = 'forty';
    assert.throws(() => new ServiceClient(), /SERVICE_PORT must be a whole number from 1024 to 65535, not "forty"\./);
    delete process.env['SERVICE_PORT'];
    const defaults = new ServiceClient();
    clients.push(defaults);
    assert.equal(defaults.port, 39847);
    assert.equal(defaults.host, '127.0.0.1');
    assert.equal(defaults.socketPath, undefined);
    assert.equal(defaults.headerPrefix, 'Clessira');
  });

  it('reads the token from CLESSIRA_TOKEN, then NOWDOING_TOKEN, then SERVICE_TOKEN, skipping empty ones', async () => {
    const started = await startServer();
    try {
      // Which token the client took shows in whether the service accepts it.
      const status = async (): Promise<number | undefined> => {
        const client = clientFor(started.port, { token: undefined, clock: started.clock });
        try {
          await client.getStatus();
          return 200;
        } catch (error) {
          return error instanceof ServiceError ? error.status : undefined;
        }
      };
      const wrong = 'wrong-token-value';
      const cases: [Parameters<typeof setEnvironment>[0], number][] = [
        [{ CLESSIRA_TOKEN: TEST_TOKEN, NOWDOING_TOKEN: wrong, SERVICE_TOKEN: wrong }, 200],
        [{ CLESSIRA_TOKEN: wrong, NOWDOING_TOKEN: TEST_TOKEN, SERVICE_TOKEN: TEST_TOKEN }, 401],
        [{ NOWDOING_TOKEN: TEST_TOKEN, SERVICE_TOKEN: wrong }, 200],
        [{ CLESSIRA_TOKEN: '', NOWDOING_TOKEN: '', SERVICE_TOKEN: TEST_TOKEN }, 200],
        [{ CLESSIRA_TOKEN: '', NOWDOING_TOKEN: wrong, SERVICE_TOKEN: TEST_TOKEN }, 401],
      ];
      for (const [environment, expected] of cases) {
        setEnvironment(environment);
        assert.equal(await status(), expected, JSON.stringify(Object.keys(environment)));
      }
    } finally {
      await started.server.close();
    }
  });

  it('reads the port from CLESSIRA_PORT, then NOWDOING_PORT, then SERVICE_PORT, and names the variable that is wrong', () => {
    const portWith = (environment: Parameters<typeof setEnvironment>[0]): number | undefined => {
      setEnvironment({ SERVICE_TOKEN: 't', ...environment });
      const client = new ServiceClient();
      clients.push(client);
      return client.port;
    };
    assert.equal(portWith({ CLESSIRA_PORT: '40001', NOWDOING_PORT: '40002', SERVICE_PORT: '40003' }), 40001);
    assert.equal(portWith({ NOWDOING_PORT: '40002', SERVICE_PORT: '40003' }), 40002);
    assert.equal(portWith({ SERVICE_PORT: '40003' }), 40003);
    assert.equal(portWith({ CLESSIRA_PORT: '', SERVICE_PORT: '40003' }), 40003);
    assert.equal(portWith({}), 39847);
    assert.equal(clientFor(40009).port, 40009, 'the option wins over every variable');
    for (const name of PORT_ENVIRONMENT_VARIABLES) {
      assert.throws(
        () => portWith({ SERVICE_PORT: '40003', [name]: 'forty' }),
        (error: unknown) =>
          error instanceof ConfigurationError &&
          error.message === `${name} must be a whole number from 1024 to 65535, not "forty".`,
      );
    }
    // The first set variable decides, even when a later one would have been valid.
    assert.throws(
      () => portWith({ NOWDOING_PORT: '80', SERVICE_PORT: '40003' }),
      /: NOWDOING_PORT must be a whole number from 1024 to 65535, not "80"\.$/,
    );
    // A socket has no port: a stale variable does not stand in its way.
    setEnvironment({ SERVICE_TOKEN: 't', CLESSIRA_PORT: 'forty' });
    const overSocket = new ServiceClient({ socketPath: '/tmp/a.sock' });
    clients.push(overSocket);
    assert.equal(overSocket.port, undefined);
  });

  it('never shows the token in util.inspect, JSON or String', () => {
    const client = clientFor(40000, { token: 'super-secret-token' });
    const overSocket = new ServiceClient({
      token: 'super-secret-token',
      socketPath: '/tmp/tt/api.sock',
      headerPrefix: 'auto',
    });
    clients.push(overSocket);
    for (const shown of [client, overSocket].flatMap((each) => [
      inspect(each, { showHidden: true, depth: 5 }),
      JSON.stringify(each),
      inspect({ each }),
    ])) {
      assert.equal(shown.includes('super-secret-token'), false, shown);
    }
    assert.equal(
      inspect(client),
      "ServiceClient { host: '127.0.0.1', port: 40000, headerPrefix: 'Clessira', token: '<redacted>' }",
    );
    assert.equal(
      inspect(overSocket),
      "ServiceClient { socketPath: '/tmp/tt/api.sock', headerPrefix: 'Clessira', token: '<redacted>' }",
    );
    assert.deepEqual(JSON.parse(JSON.stringify(overSocket)), {
      socketPath: '/tmp/tt/api.sock',
      headerPrefix: 'Clessira',
    });
    assert.deepEqual(JSON.parse(JSON.stringify(client)), { host: '127.0.0.1', port: 40000, headerPrefix: 'Clessira' });
  });
});

describe('client: operations against the reference server', () => {
  let started: StartedServer;
  let client: ServiceClient;
  let records: RequestRecord[];

  beforeEach(async () => {
    started = await startServer();
    records = [];
    client = clientFor(started.port, { clock: started.clock, onRequest: (record) => records.push(record) });
  });
  afterEach(() => started.server.close());

  it('runs all eight operations with typed results', async () => {
    assert.deepEqual(await client.healthcheck(), { license: 'valid' });
    assert.equal(await client.getCurrent(), null);
    const startedAtMs = started.clock();
    const start = await client.startActivity({ name: 'Write docs', createIfMissing: true });
    const id = start.activityID;
    assert.ok(id !== undefined);
    assert.deepEqual(start, {
      activityID: id,
      activityName: 'Write docs',
      created: true,
      startedAt: '2026-11-22T12:00:00Z',
      stopped: null,
    });
    started.clock.advance(61_000);
    // Both clocks agree: the offset is 0, and the running time is the client's to compute.
    assert.deepEqual(await client.getCurrent(), {
      activityID: id,
      activityName: 'Write docs',
      startedAtMs,
      isOnBreak: false,
      appClockOffsetMs: 0,
    });
    assert.deepEqual(await client.getStatus(), {
      isTracking: true,
      isOnBreak: false,
      currentActivity: { activityID: id, activityName: 'Write docs' },
      todaySeconds: 61,
    });
    assert.deepEqual(await client.searchActivities('docs', { limit: 5 }), [
      { activityID: id, activityName: 'Write docs', groupName: null },
    ]);
    assert.deepEqual(await client.searchActivities('nothing like it'), []);
    const entry = await client.logEntry({ activityID: id, durationMinutes: 15, note: 'review' });
    assert.match(entry.entryID ?? '', /^[0-9a-f-]{36}$/i);
    assert.deepEqual(
      { ...entry, entryID: '' },
      { entryID: '', activityID: id, activityName: 'Write docs', created: false, durationMinutes: 15, note: 'review' },
    );
    assert.deepEqual(await client.stopActivity(), {
      stopped: { activityID: id, activityName: 'Write docs' },
      durationSeconds: 61,
    });
    assert.deepEqual(
      await client.stopActivity(),
      { stopped: null, durationSeconds: undefined },
      'nothing ran: no duration',
    );
    assert.deepEqual(await client.notifyBranchChange({ branch: 'feature/x', repo: 'shop', previousBranch: 'main' }), {
      prompted: true,
    });
    assert.equal(started.server.controls.state.listBranchReports()[0]?.branch, 'feature/x');
    assert.deepEqual(
      records.map((record) => `${record.method} ${record.path} ${String(record.status)}`),
      [
        'GET /healthcheck 200',
        'GET /current 200',
        'POST /activities/start 200',
        'GET /current 200',
        'GET /status 200',
        'GET /activities/search 200',
        'GET /activities/search 200',
        'POST /entries 201',
        'POST /activities/stop 200',
        'POST /activities/stop 200',
        'POST /branch-changed 200',
      ],
    );
  });

  it('encodes the search term and signs the request-target exactly as sent', async () => {
    started.server.controls.seedActivity('R&D / 50% ünïcode?');
    const hits = await client.searchActivities('d / 50% ü');
    assert.deepEqual(
      hits.map((hit) => hit.activityName),
      ['R&D / 50% ünïcode?'],
    );
  });

  it('refuses arguments the service would refuse, without sending anything', async () => {
    const calls: [string, () => Promise<unknown>][] = [
      ['empty branch', () => client.notifyBranchChange({ branch: '  ' })],
      ['zero duration', () => client.logEntry({ name: 'A', durationMinutes: 0 })],
      ['negative duration', () => client.logEntry({ name: 'A', durationMinutes: -1 })],
      ['fractional minutes', () => client.logEntry({ name: 'A', durationMinutes: 1.5 })],
      ['no activity', () => client.logEntry({ durationMinutes: 5 })],
      ['no activity to start', () => client.startActivity({})],
      ['bad id', () => client.startActivity({ activityID: 'nope' })],
      ['limit 0', () => client.searchActivities('a', { limit: 0 })],
    ];
    for (const [what, call] of calls) {
      const error = await rejection(call());
      assert.ok(error instanceof ValidationError, what);
      assert.equal(error.status, undefined, what);
    }
    assert.equal(started.server.controls.debugView().length, 0, 'no request reached the server');
    assert.equal(records.length, 0);
  });

  it('maps 401, 404, 423, 429 and 503 from the reference server', async () => {
    const unknown = await rejection(client.logEntry({ name: 'Nobody', durationMinutes: 5 }));
    assert.ok(
      unknown instanceof NotFoundError &&
        unknown.status === 404 &&
        /No activity is named "Nobody"/.test(unknown.message),
    );

    started.server.controls.setUnwired('/branch-changed');
    const unwired = await rejection(client.notifyBranchChange({ branch: 'main' }));
    assert.ok(unwired instanceof UnavailableError && unwired.status === 503);
    assert.equal(unwired.reason, 'The application has not wired up /branch-changed; it is not available right now.');

    started.server.controls.setLicense('locked');
    const locked = await rejection(client.getStatus());
    assert.ok(locked instanceof HttpError && locked.status === 423 && locked.licenseLocked);
    assert.equal((await client.healthcheck()).license, 'locked');
    started.server.controls.setLicense('valid');

    const wrong = clientFor(started.port, { token: 'wrong-token-value', clock: started.clock });
    for (let i = 0; i < 11; i++) {
      const error = await rejection(wrong.getStatus());
      assert.ok(
        error instanceof AuthenticationError && error.status === 401 && error.clockSkewSeconds === undefined,
        String(i),
      );
      assert.equal(error.message.includes('wrong-token-value'), false);
    }
    const lockedOut = await rejection(client.getStatus());
    assert.ok(
      lockedOut instanceof HttpError &&
        lockedOut.status === 429 &&
        lockedOut.retryAfterSeconds === 60 &&
        !lockedOut.licenseLocked,
    );
  });

  it('says "your clock is off" when a 401 comes with a Date far from the local clock', async () => {
    const behind = clientFor(started.port, { clock: () => started.clock() - 300_000 });
    const error = await rejection(behind.getStatus());
    assert.ok(error instanceof AuthenticationError);
    assert.equal(error.clockSkewSeconds, 300);
    assert.match(error.message, /clock is 300 s behind the application's/);
    const ahead = clientFor(started.port, { clock: () => started.clock() + 90_000 });
    const aheadError = await rejection(ahead.getStatus());
    assert.ok(aheadError instanceof AuthenticationError && aheadError.clockSkewSeconds === -90);
  });

  it('talks to pre-rebrand builds with the NowDoing prefix', async () => {
    await started.server.close();
    started = await startServer({ headerPrefix: 'NowDoing' });
    const old = clientFor(started.port, { headerPrefix: 'NowDoing', clock: started.clock });
    assert.equal((await old.getStatus()).isTracking, false);
    const current = clientFor(started.port, { clock: started.clock });
    assert.ok((await rejection(current.getStatus())) instanceof AuthenticationError);
  });

  it('rejects with the abort reason when the signal is aborted, sending nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await rejection(client.getStatus({ signal: controller.signal }));
    assert.equal((error as Error).name, 'AbortError');
    assert.equal(records.length, 0);
  });
});

describe('client: status mapping and tolerant reading (canned answers)', () => {
  let canned: FaultServer | undefined;
  afterEach(async () => {
    await canned?.close();
    canned = undefined;
  });

  const answering = async (
    status: number,
    body: string,
    headers: Record<string, string> = {},
  ): Promise<ServiceClient> => {
    canned = await startCannedServer(() => ({ status, body, headers }));
    return clientFor(canned.port);
  };

  it('maps each status to its error class with the server sentence', async () => {
    const cases: [number, (error: unknown) => boolean][] = [
      [400, (error) => error instanceof ValidationError && error.status === 400],
      [404, (error) => error instanceof NotFoundError],
      [409, (error) => error instanceof ReplayError && error.status === 409],
      [423, (error) => error instanceof HttpError && error.licenseLocked],
      [500, (error) => error instanceof HttpError && error.status === 500 && !error.licenseLocked],
      [418, (error) => error instanceof HttpError && error.status === 418],
      [503, (error) => error instanceof UnavailableError],
    ];
    for (const [status, check] of cases) {
      const client = await answering(status, JSON.stringify({ error: `sentence for ${status}` }));
      const error = await rejection(client.getStatus());
      assert.ok(check(error), String(status));
      assert.ok(error instanceof ServiceError);
      if (status !== 423) assert.match(error.message, new RegExp(`sentence for ${status}`));
      await canned?.close();
    }
  });

  it('reads Retry-After on a 429', async () => {
    const client = await answering(429, '{"error":"locked out"}', { 'retry-after': '17' });
    const error = await rejection(client.getStatus());
    assert.ok(error instanceof HttpError && error.retryAfterSeconds === 17);
  });

  it('believes a Retry-After of at most five minutes: 99999999 s waits 300 s, and says so', async () => {
    const client = await answering(429, '{"error":"locked out"}', { 'retry-after': '99999999' });
    const error = await rejection(client.getStatus());
    assert.ok(error instanceof HttpError && error.retryAfterSeconds === 300, String(error));
    assert.match(error.message, /Try again in 300 s\./);
  });

  it('accepts any 2xx and every search shape the application SDKs read', async () => {
    const item = { id: '6f1c1d2e-0000-4000-8000-000000000001', name: 'Design', groupName: 'Work' };
    const expected = [{ activityID: item.id, activityName: 'Design', groupName: 'Work' }];
    const references = [{ activityID: item.id, activityName: 'Design' }];
    for (const body of [
      { ok: true, items: [item] },
      { items: [item] },
      { ok: true, result: { items: [item] } },
      { ok: true, result: [item] },
      { ok: true, result: references, items: [item] },
    ]) {
      const client = await answering(200, JSON.stringify(body));
      assert.deepEqual(await client.searchActivities('des'), expected, JSON.stringify(body));
      await canned?.close();
    }
    const created = await answering(201, JSON.stringify({ ok: true, result: { isTracking: true, extra: 1 } }));
    assert.deepEqual(
      await created.getStatus(),
      { isTracking: true, isOnBreak: false, currentActivity: null, todaySeconds: undefined },
      'a total not said stays not said, never 0',
    );
  });
});

describe('client: faults and safe retry', () => {
  let fault: FaultServer | undefined;
  let started: StartedServer | undefined;
  afterEach(async () => {
    await fault?.close();
    await started?.server.close();
    fault = undefined;
    started = undefined;
  });

  it('reports a refused connection as sent: false, retries a GET once and a POST never', async () => {
    const records: RequestRecord[] = [];
    const client = clientFor(await freePort(), { onRequest: (record) => records.push(record) });
    const get = await rejection(client.getStatus());
    assert.ok(
      get instanceof ConnectionError && !get.sent && /Nothing answers on http:\/\/127\.0\.0\.1:\d+/.test(get.message),
    );
    assert.deepEqual(
      records.map((record) => record.retry),
      [false, true],
    );
    records.length = 0;
    const post = await rejection(client.logEntry({ name: 'A', durationMinutes: 5 }));
    assert.ok(post instanceof ConnectionError && !post.sent);
    assert.deepEqual(
      records.map((record) => record.retry),
      [false],
    );
  });

  it('reports a reset before any answer as sent: true and re-sends the identical request once', async () => {
    fault = await startFaultServer('reset-on-request');
    const client = clientFor(fault.port);
    const error = await rejection(client.logEntry({ name: 'A', durationMinutes: 5 }));
    assert.ok(error instanceof ConnectionError && error.sent);
    const [first, second] = fault.requests();
    assert.equal(fault.requests().length, 2);
    assert.equal(first, second, 'same timestamp, nonce and signature');
  });

  it('keeps sent: true when the app took the request and is gone for the re-send', async () => {
    fault = await startFaultServer('reset-then-refuse');
    const client = clientFor(fault.port);
    const error = await rejection(client.logEntry({ name: 'A', durationMinutes: 5 }));
    assert.ok(
      error instanceof ConnectionError && error.sent,
      'a refused re-send must not hide that the first copy may have arrived',
    );
    assert.equal(fault.requests().length, 1);
  });

  it('times out a silent service as sent: true', async () => {
    fault = await startFaultServer('silent');
    const client = clientFor(fault.port, { timeoutMs: 200 });
    const error = await rejection(client.stopActivity());
    assert.ok(error instanceof ConnectionError && error.sent && /did not answer within 200 ms/.test(error.message));
  });

  it('reports a connection dropped mid-body as sent: true', async () => {
    fault = await startFaultServer('drop-mid-body');
    const client = clientFor(fault.port);
    const error = await rejection(client.getStatus());
    assert.ok(error instanceof ConnectionError && error.sent);
  });

  it('a POST /entries whose answer is lost ends with exactly one entry and AnswerLostError', async () => {
    started = await startServer();
    fault = await startAnswerLosingProxy(started.port);
    const client = clientFor(fault.port, { clock: started.clock });
    const error = await rejection(client.logEntry({ name: 'Once', durationMinutes: 25, createIfMissing: true }));
    assert.ok(error instanceof AnswerLostError && error.status === 409);
    assert.equal(started.server.controls.state.listEntries().length, 1);
    assert.deepEqual(
      started.server.controls.debugView().map((record) => record.status),
      [201, 409],
    );
  });

  it('does not re-send once the signed timestamp has left the 60 s window', async () => {
    fault = await startFaultServer('reset-on-request');
    let now = Date.now();
    const client = clientFor(fault.port, { clock: () => now });
    const pending = rejection(client.logEntry({ name: 'A', durationMinutes: 5 }));
    now += 60_000;
    const error = await pending;
    assert.ok(error instanceof ConnectionError && error.sent);
    assert.equal(fault.requests().length, 1);
  });
});
