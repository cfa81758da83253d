import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  HttpError,
  NotFoundError,
  ServiceClient,
  ValidationError,
  type ServiceClientOptions,
} from '../../../src/client';
import { startServer, TEST_TOKEN, type StartedServer } from '../../support/server';
import { rejection } from '../../support/rejection';

// What the client returns from the answers the application may give (PROTOCOL.md §8): what was
// said, `undefined` for what was not, and nothing invented.

interface Seen {
  readonly method: string;
  readonly target: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

interface Canned {
  readonly status?: number;
  readonly body: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** An HTTP server that records each request with its body and answers what `answer` says; it checks nothing. */
async function startRecordingServer(
  answer: (seen: Seen) => Canned,
): Promise<{ port: number; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const record = { method: request.method ?? '', target: request.url ?? '', headers: request.headers, body };
      seen.push(record);
      const canned = answer(record);
      response
        .writeHead(canned.status ?? 200, { 'content-type': 'application/json; charset=utf-8', ...canned.headers })
        .end(canned.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const UPPER_ID = '6F1C1D2E-0A0B-4C0D-8E0F-00000000000A';
const OTHER_ID = '6F1C1D2E-0A0B-4C0D-8E0F-00000000000B';

describe('client: answers as the app gives them (canned)', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /** A client against a server that answers every request with `body` (status 200 unless given). */
  const answering = async (
    canned: Canned | ((seen: Seen) => Canned),
    options: ServiceClientOptions = {},
  ): Promise<{ client: ServiceClient; seen: Seen[] }> => {
    const server = await startRecordingServer(typeof canned === 'function' ? canned : () => canned);
    const client = new ServiceClient({ token: TEST_TOKEN, port: server.port, ...options });
    closers.push(
      () => server.close(),
      () => client.close(),
    );
    return { client, seen: server.seen };
  };

  it('healthcheck: the license as said, and undefined when not said, never "valid" from nothing', async () => {
    const cases: [string, 'valid' | 'locked' | undefined][] = [
      ['{"ok":true}', undefined],
      ['{"ok":true,"result":{"status":"ok","license":"locked","version":"1"}}', 'locked'],
      ['{"ok":true,"result":{"status":"ok","license":"valid","version":"1"}}', 'valid'],
      ['{"status":"ok","license":"locked"}', 'locked'],
      ['{"ok":true,"result":{"license":"expired"}}', undefined],
      ['{"ok":true,"result":null}', undefined],
    ];
    for (const [body, license] of cases) {
      const { client } = await answering({ body });
      const health = await client.healthcheck();
      assert.deepEqual(health, { license }, body);
      assert.ok(Object.hasOwn(health, 'license'), 'the field is there, saying "not said"');
    }
  });

  it('getCurrent: null for nothing running, the activity with its start and the app clock offset otherwise', async () => {
    const now = Date.UTC(2026, 4, 26, 16, 30, 0);
    const date = new Date(now + 5_000).toUTCString();
    const full = {
      activityID: UPPER_ID,
      activityName: 'Deep work',
      startedAt: '2026-05-26T14:30:00Z',
      isOnBreak: true,
    };
    const expected = {
      activityID: UPPER_ID,
      activityName: 'Deep work',
      startedAtMs: Date.UTC(2026, 4, 26, 14, 30, 0),
      isOnBreak: true,
      appClockOffsetMs: 5_000,
    };
    const cases: [string, unknown][] = [
      ['{"ok":true,"result":null}', null],
      ['{"ok":true}', null],
      ['{}', null],
      [JSON.stringify({ ok: true, result: full }), expected],
      [JSON.stringify(full), expected],
      [JSON.stringify({ ok: true, result: { ...full, elapsedSeconds: 99, extra: 1 } }), expected],
      [
        JSON.stringify({ ok: true, result: { ...full, startedAt: '2026-05-26T16:30:00.250+02:00' } }),
        { ...expected, startedAtMs: Date.UTC(2026, 4, 26, 14, 30, 0, 250) },
      ],
      [JSON.stringify({ ok: true, result: { ...full, startedAt: '2026-05-26T14:30:00' } }), expected],
      [
        JSON.stringify({ ok: true, result: { activityID: UPPER_ID, activityName: 'Deep work' } }),
        { ...expected, startedAtMs: undefined, isOnBreak: false },
      ],
      [
        JSON.stringify({ ok: true, result: { ...full, startedAt: 'yesterday' } }),
        { ...expected, startedAtMs: undefined },
      ],
      [
        JSON.stringify({ ok: true, result: { ...full, startedAt: 1_780_000_000 } }),
        { ...expected, startedAtMs: undefined },
      ],
    ];
    for (const [body, answer] of cases) {
      const { client } = await answering({ body, headers: { date } }, { clock: () => now });
      assert.deepEqual(await client.getCurrent(), answer, body);
    }
  });

  it('getCurrent: no usable Date header, no offset', async () => {
    const body = JSON.stringify({
      ok: true,
      result: { activityID: UPPER_ID, activityName: 'A', startedAt: '2026-05-26T14:30:00Z', isOnBreak: false },
    });
    const { client } = await answering({ body, headers: { date: 'sometime today' } });
    const current = await client.getCurrent();
    assert.ok(current);
    assert.equal(current.appClockOffsetMs, undefined);
    assert.ok(Object.hasOwn(current, 'appClockOffsetMs'));
    assert.equal('elapsedSeconds' in current, false, 'the client reads no elapsed time of the app');
  });

  it('searchActivities: keeps the group from every shape, prefers items to references, ids as given', async () => {
    const items = [
      { id: UPPER_ID, name: 'Design', groupName: 'Client A' },
      { id: OTHER_ID, name: 'Design', groupName: 'Client B' },
      { id: OTHER_ID.toLowerCase(), name: 'Design review', groupName: null },
    ];
    const expected = [
      { activityID: UPPER_ID, activityName: 'Design', groupName: 'Client A' },
      { activityID: OTHER_ID, activityName: 'Design', groupName: 'Client B' },
      { activityID: OTHER_ID.toLowerCase(), activityName: 'Design review', groupName: null },
    ];
    const references = items.map((item) => ({ activityID: item.id, activityName: item.name }));
    for (const body of [
      { items },
      { ok: true, items },
      { ok: true, result: { items } },
      { ok: true, result: items },
      { ok: true, result: references, items },
    ]) {
      const { client } = await answering({ body: JSON.stringify(body) });
      assert.deepEqual(await client.searchActivities('des'), expected, JSON.stringify(body));
    }
    // References alone say nothing about groups.
    const { client } = await answering({ body: JSON.stringify({ ok: true, result: references }) });
    const plain = await client.searchActivities('des');
    assert.deepEqual(
      plain,
      expected.map((match) => ({ ...match, groupName: undefined })),
    );
    // Entries that name nothing are dropped; a group that is not a string or null is not said.
    const { client: odd } = await answering({
      body: JSON.stringify({ items: [{ groupName: 'X' }, 7, { id: UPPER_ID, name: 'A', groupName: 3 }] }),
    });
    assert.deepEqual(await odd.searchActivities(''), [
      { activityID: UPPER_ID, activityName: 'A', groupName: undefined },
    ]);
  });

  it('startActivity: reads the minimal flat answer and the full one; sends an upper-case id as given', async () => {
    const { client, seen } = await answering({
      body: JSON.stringify({ activityID: UPPER_ID, activityName: 'Deep work', created: false }),
    });
    assert.deepEqual(await client.startActivity({ activityID: UPPER_ID }), {
      activityID: UPPER_ID,
      activityName: 'Deep work',
      created: false,
      startedAt: undefined,
      stopped: undefined,
    });
    assert.deepEqual(JSON.parse(seen[0]?.body ?? ''), { activityID: UPPER_ID });

    const full = {
      activityID: UPPER_ID,
      activityName: 'Deep work',
      created: true,
      startedAt: '2026-05-26T14:30:00Z',
      stopped: { activityID: OTHER_ID, activityName: 'Mail' },
    };
    const { client: reference } = await answering({ body: JSON.stringify({ ok: true, result: full }) });
    assert.deepEqual(await reference.startActivity({ name: 'Deep work', createIfMissing: true }), full);
    const { client: none } = await answering({
      body: JSON.stringify({ ok: true, result: { ...full, stopped: null } }),
    });
    assert.equal((await none.startActivity({ name: 'Deep work' })).stopped, null);
  });

  it('stopActivity: "not said" for {"ok": true}, null for nothing running, and a stop without a duration', async () => {
    const cases: [unknown, unknown][] = [
      [{ ok: true }, { stopped: undefined, durationSeconds: undefined }],
      [
        { ok: true, result: { stopped: null, durationSeconds: null } },
        { stopped: null, durationSeconds: undefined },
      ],
      [
        { ok: true, result: { stopped: { activityID: UPPER_ID, activityName: 'A' }, durationSeconds: 61 } },
        { stopped: { activityID: UPPER_ID, activityName: 'A' }, durationSeconds: 61 },
      ],
      [
        { ok: true, result: { stopped: { activityID: UPPER_ID, activityName: 'A' } } },
        { stopped: { activityID: UPPER_ID, activityName: 'A' }, durationSeconds: undefined },
      ],
    ];
    for (const [body, expected] of cases) {
      const { client } = await answering({ body: JSON.stringify(body) });
      assert.deepEqual(await client.stopActivity(), expected, JSON.stringify(body));
    }
  });

  it('logEntry: reads the flat answer with 200 or 201 and the full one; a note left out is not said', async () => {
    const flat = {
      entryID: UPPER_ID,
      activityID: OTHER_ID,
      activityName: 'Design',
      durationMinutes: 90,
      created: false,
    };
    for (const status of [200, 201]) {
      const { client } = await answering({ status, body: JSON.stringify(flat) });
      assert.deepEqual(
        await client.logEntry({ activityID: OTHER_ID, durationMinutes: 90 }),
        { ...flat, note: undefined },
        String(status),
      );
    }
    const full = { ...flat, note: null };
    const { client } = await answering({ status: 201, body: JSON.stringify({ ok: true, result: full }) });
    assert.deepEqual(await client.logEntry({ name: 'Design', durationMinutes: 90 }), full);
  });

  it('notifyBranchChange: prompted as said, undefined for {"ok": true}; sends repoPath when given', async () => {
    const { client, seen } = await answering({ body: '{"ok":true}' });
    assert.deepEqual(
      await client.notifyBranchChange({ branch: 'feature/x', repo: 'shop', repoPath: '/Users/me/src/shop' }),
      { prompted: undefined },
    );
    assert.deepEqual(JSON.parse(seen[0]?.body ?? ''), {
      branch: 'feature/x',
      repo: 'shop',
      repoPath: '/Users/me/src/shop',
    });
    await client.notifyBranchChange({ branch: 'main' });
    assert.deepEqual(JSON.parse(seen[1]?.body ?? ''), { branch: 'main' }, 'no repoPath when none is given');
    const { client: full } = await answering({ body: '{"ok":true,"result":{"prompted":true}}' });
    assert.deepEqual(await full.notifyBranchChange({ branch: 'main' }), { prompted: true });
  });

  /** Every operation against an app answering `status` and `body` sees a success that said nothing. */
  const assertSaysNothing = async (status: number, body: string): Promise<void> => {
    const what = `${status} ${JSON.stringify(body).slice(0, 80)}`;
    const { client, seen } = await answering({ status, body });
    assert.deepEqual(await client.healthcheck(), { license: undefined }, what);
    assert.equal(await client.getCurrent(), null, what);
    assert.deepEqual(await client.searchActivities('a'), [], what);
    assert.deepEqual(
      await client.startActivity({ name: 'A' }),
      {
        activityID: undefined,
        activityName: undefined,
        created: undefined,
        startedAt: undefined,
        stopped: undefined,
      },
      what,
    );
    assert.deepEqual(await client.stopActivity(), { stopped: undefined, durationSeconds: undefined }, what);
    assert.deepEqual(
      await client.logEntry({ name: 'A', durationMinutes: 5 }),
      {
        entryID: undefined,
        activityID: undefined,
        activityName: undefined,
        created: undefined,
        durationMinutes: undefined,
        note: undefined,
      },
      what,
    );
    assert.deepEqual(await client.notifyBranchChange({ branch: 'main' }), { prompted: undefined }, what);
    // The status bar cannot show "not said": a status that says nothing is an error.
    const error = await rejection(client.getStatus());
    assert.ok(error instanceof HttpError && error.status === status && error.body === body, what);
    assert.match(
      error.message,
      new RegExp(`^The service answered ${status} to GET /status without saying whether it is tracking\\.$`),
    );
    assert.equal(seen.length, 8, 'each operation sent once, none re-sent');
  };

  it('takes a 2xx whose body is not a JSON object as a success with nothing said, for every operation', async () => {
    const bodies: [number, string][] = [
      [200, ''],
      [200, 'OK'],
      [200, '[]'],
      [200, '"ok"'],
      [200, 'null'],
      [200, '42'],
      [201, '{"ok":'],
      [204, ''],
    ];
    for (const [status, body] of bodies) await assertSaysNothing(status, body);
  });

  it('takes an answer carrying an id that is no id (1,000 characters, a space, a bidi override) as one that is not JSON', async () => {
    // Every ledger row and queued entry carries the activity's id: a 900 KB one made 900 KB rows.
    const reference = (activityID: string) => ({ activityID, activityName: 'A' });
    const everyAnswer = (id: string) => ({
      license: 'valid',
      isTracking: true,
      currentActivity: reference(id),
      ...reference(id),
      entryID: UPPER_ID,
      items: [{ id: UPPER_ID, name: 'A', groupName: null }],
      stopped: reference(UPPER_ID),
      prompted: true,
    });
    for (const id of ['a'.repeat(1000), 'a'.repeat(129), `${UPPER_ID} `, `${UPPER_ID}\u202E`, '']) {
      await assertSaysNothing(200, JSON.stringify(everyAnswer(id)));
      await assertSaysNothing(200, JSON.stringify({ ok: true, result: { ...everyAnswer(UPPER_ID), entryID: id } }));
      await assertSaysNothing(
        200,
        JSON.stringify({
          items: [
            { id: UPPER_ID, name: 'A' },
            { id, name: 'B' },
          ],
        }),
      );
      await assertSaysNothing(200, JSON.stringify({ ...everyAnswer(UPPER_ID), stopped: reference(id) }));
    }
    // Ids that are not UUIDs but have the shape of one are read as sent.
    for (const id of [UPPER_ID.toLowerCase(), 'a'.repeat(128), 'proj:42.b_c-D']) {
      const { client } = await answering({ body: JSON.stringify(everyAnswer(id)) });
      assert.equal((await client.getCurrent())?.activityID, id);
      assert.equal((await client.getStatus()).currentActivity?.activityID, id);
    }
  });

  it('getStatus: an answer without isTracking is an error, the rest is read as before', async () => {
    for (const body of ['{"ok":true}', '{"ok":true,"result":null}', '{"ok":true,"result":{"isTracking":"yes"}}']) {
      const { client } = await answering({ body });
      const error = await rejection(client.getStatus());
      assert.ok(error instanceof HttpError && error.status === 200, body);
    }
    const status = {
      isTracking: true,
      isOnBreak: false,
      currentActivity: { activityID: UPPER_ID, activityName: 'A' },
      todaySeconds: 120,
    };
    for (const body of [{ ok: true, result: status }, status]) {
      const { client } = await answering({ body: JSON.stringify(body) });
      assert.deepEqual(await client.getStatus(), status);
    }
  });

  it('refuses a non-integer durationMinutes before sending anything', async () => {
    const { client, seen } = await answering({ body: '{}' });
    for (const durationMinutes of [1.5, 0.5, 89.99, Number.NaN, Number.POSITIVE_INFINITY]) {
      const error = await rejection(client.logEntry({ name: 'A', durationMinutes }));
      assert.ok(error instanceof ValidationError && error.status === undefined, String(durationMinutes));
      assert.match(error.message, /durationMinutes/);
    }
    assert.equal(seen.length, 0);
  });
});

describe('client: the reference server as the app ships (--answers minimal, --build first-release)', () => {
  let started: StartedServer | undefined;
  let client: ServiceClient | undefined;
  afterEach(async () => {
    await client?.close();
    await started?.server.close();
    client = undefined;
    started = undefined;
  });

  const UPPER_UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;

  it('minimal answers: what was said, "not said" for the rest, groups and upper-case ids kept', async () => {
    started = await startServer({ answers: 'minimal' });
    const server = started;
    const inA = server.server.controls.seedActivity('Design', 'Client A');
    server.server.controls.seedActivity('Design', 'Client B');
    client = new ServiceClient({ token: TEST_TOKEN, port: server.port, clock: server.clock });

    assert.deepEqual(await client.healthcheck(), { license: undefined });
    const matches = await client.searchActivities('design');
    assert.deepEqual(
      matches.map((match) => [match.activityName, match.groupName]),
      [
        ['Design', 'Client A'],
        ['Design', 'Client B'],
      ],
    );
    for (const match of matches) assert.match(match.activityID, UPPER_UUID);
    const id = matches[0]?.activityID ?? '';
    assert.equal(id.toLowerCase(), inA.activityID.toLowerCase());

    // The upper-case id goes out as read, and the server finds the activity by it.
    const startedAtMs = server.clock();
    assert.deepEqual(await client.startActivity({ activityID: id }), {
      activityID: id,
      activityName: 'Design',
      created: false,
      startedAt: undefined,
      stopped: undefined,
    });
    server.clock.advance(90_000);
    assert.deepEqual(await client.getCurrent(), {
      activityID: id,
      activityName: 'Design',
      startedAtMs,
      isOnBreak: false,
      appClockOffsetMs: 0,
    });
    assert.equal((await client.getStatus()).currentActivity?.activityID, id);

    const entry = await client.logEntry({ activityID: id, durationMinutes: 90 });
    assert.match(entry.entryID ?? '', UPPER_UUID);
    assert.deepEqual(
      { ...entry, entryID: '' },
      { entryID: '', activityID: id, activityName: 'Design', created: false, durationMinutes: 90, note: undefined },
    );

    assert.deepEqual(
      await client.stopActivity(),
      { stopped: undefined, durationSeconds: undefined },
      'stopped, with no duration said',
    );
    assert.equal(await client.getCurrent(), null);
    assert.deepEqual(
      await client.notifyBranchChange({ branch: 'feature/x', repo: 'shop', repoPath: '/Users/me/src/shop' }),
      { prompted: undefined },
    );
    assert.equal(server.server.controls.state.listBranchReports()[0]?.repoPath, '/Users/me/src/shop');
    assert.equal(server.server.controls.state.listEntries().length, 1);
  });

  it('a first-release build: the five endpoints answer, /status, /activities/stop and /entries are 404', async () => {
    started = await startServer({ build: 'first-release', answers: 'minimal' });
    const server = started;
    const old = new ServiceClient({
      token: TEST_TOKEN,
      port: server.port,
      clock: server.clock,
      headerPrefix: 'NowDoing',
    });
    client = old;
    assert.deepEqual(await old.healthcheck(), { license: undefined });
    const start = await old.startActivity({ name: 'Old app', createIfMissing: true });
    assert.equal(start.created, true);
    assert.equal((await old.getCurrent())?.activityName, 'Old app');
    assert.deepEqual(
      (await old.searchActivities('old')).map((match) => match.activityName),
      ['Old app'],
    );
    assert.deepEqual(await old.notifyBranchChange({ branch: 'main' }), { prompted: undefined });
    const missing: (() => Promise<unknown>)[] = [
      () => old.getStatus(),
      () => old.stopActivity(),
      () => old.logEntry({ name: 'Old app', durationMinutes: 5 }),
    ];
    for (const call of missing) assert.ok((await rejection(call())) instanceof NotFoundError);
    assert.deepEqual(
      server.server.controls.debugView().map((record) => `${record.path} ${record.status}`),
      [
        '/healthcheck 200',
        '/activities/start 200',
        '/current 200',
        '/activities/search 200',
        '/branch-changed 200',
        '/status 404',
        '/activities/stop 404',
        '/entries 404',
      ],
    );
    assert.equal(server.server.controls.state.listEntries().length, 0);
  });
});

describe('client: elapsed time from startedAt and the Date header offset', () => {
  let started: StartedServer | undefined;
  let client: ServiceClient | undefined;
  let canned: Awaited<ReturnType<typeof startRecordingServer>> | undefined;
  afterEach(async () => {
    await client?.close();
    await started?.server.close();
    await canned?.close();
    client = undefined;
    started = undefined;
    canned = undefined;
  });

  const HOUR_MS = 3_600_000;

  // The app refuses a timestamp more than 60 s from its clock (401), so against the reference
  // server the clocks may differ by less than that; the canned server below checks nothing and
  // shows the 90 s of the issue.
  for (const appAheadMs of [45_000, -45_000]) {
    it(`reference server ${appAheadMs > 0 ? 'ahead of' : 'behind'} this machine by 45 s: offset ≈ ${appAheadMs} ms, two hours elapsed`, async () => {
      started = await startServer();
      const server = started;
      // Off the whole second, so the Date header's one-second resolution shows.
      server.clock.advance(400);
      const machine = (): number => server.clock() - appAheadMs;
      client = new ServiceClient({ token: TEST_TOKEN, port: server.port, clock: machine });
      const now = server.clock();
      server.clock.set(now - 2 * HOUR_MS);
      const start = await client.startActivity({ name: 'Deep work', createIfMissing: true });
      server.clock.set(now);
      const current = await client.getCurrent();
      assert.ok(current);
      assert.equal(current.activityID, start.activityID);
      assert.ok(current.appClockOffsetMs !== undefined && current.startedAtMs !== undefined);
      assert.ok(Math.abs(current.appClockOffsetMs - appAheadMs) < 1_000, `offset ${current.appClockOffsetMs}`);
      const elapsedMs = machine() + current.appClockOffsetMs - current.startedAtMs;
      assert.ok(Math.abs(elapsedMs - 2 * HOUR_MS) < 1_000, `elapsed ${elapsedMs}`);
      // Without the offset the skewed clock would be 45 s off.
      assert.ok(Math.abs(machine() - current.startedAtMs - 2 * HOUR_MS) > 40_000);
    });
  }

  for (const appAheadMs of [90_000, -90_000]) {
    it(`an app ${appAheadMs > 0 ? 'ahead of' : 'behind'} this machine by 90 s: offset ≈ ${appAheadMs} ms, Date.now() + offset - startedAtMs ≈ two hours`, async () => {
      // The app answers as it ships: its own clock in Date, startedAt two hours before, whole seconds.
      canned = await startRecordingServer(() => {
        const appSecond = Math.floor((Date.now() + appAheadMs) / 1000);
        const startedAt = new Date((appSecond - 7_200) * 1000).toISOString().replace('.000Z', 'Z');
        return {
          body: JSON.stringify({
            ok: true,
            result: { activityID: UPPER_ID, activityName: 'Deep work', startedAt, isOnBreak: false },
          }),
          headers: { date: new Date(appSecond * 1000).toUTCString() },
        };
      });
      client = new ServiceClient({ token: TEST_TOKEN, port: canned.port });
      const current = await client.getCurrent();
      assert.ok(current?.appClockOffsetMs !== undefined && current.startedAtMs !== undefined);
      assert.ok(Math.abs(current.appClockOffsetMs - appAheadMs) < 1_000, `offset ${current.appClockOffsetMs}`);
      const elapsedMs = Date.now() + current.appClockOffsetMs - current.startedAtMs;
      assert.ok(Math.abs(elapsedMs - 2 * HOUR_MS) < 1_000, `elapsed ${elapsedMs}`);
    });
  }
});
