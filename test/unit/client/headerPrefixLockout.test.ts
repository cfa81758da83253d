/**
 * `headerPrefix: auto` must never settle on the wrong prefix. A 429, a time-out or no
 * connection on either copy teaches nothing; a prefix is learned only from an answer that passed
 * authentication; what was learned is shared by the windows (here: clients sharing one record,
 * kept by the same functions the extension keeps in globalState) and checked again with the other
 * prefix, once, when the app refuses it.
 */
import assert from 'node:assert/strict';
import {
  AuthenticationError,
  ConfigurationError,
  ConnectionError,
  HttpError,
  ServiceClient,
  type HeaderPrefix,
  type ServiceClientOptions,
} from '../../../src/client';
import { channelClient } from '../../../src/extension/sessionClient';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { STORAGE_KEYS } from '../../../src/tracker/ids';
import { learnedPrefixKey, recallLearned } from '../../../src/tracker/model/learnedPrefix';
import { startCannedServer, type FaultServer } from '../../support/faults';
import { signedSend } from '../../support/http';
import { rejection } from '../../support/rejection';
import { manualClock, TEST_TOKEN, type ManualClock, type StartedServer } from '../../support/server';

/** globalState's one record, as every window of one machine sees it. */
interface SharedRecord {
  record: unknown;
}

/**
 * One window's client: `auto`, starting from and sharing into `shared`, built by the session's own
 * src/extension/sessionClient.ts.
 */
interface Window {
  readonly client: ServiceClient;
  /** What it reported learning, in order. */
  readonly learned: HeaderPrefix[];
  /** The statuses of the requests it sent, in order (undefined: no answer). */
  readonly statuses: (number | undefined)[];
}

describe("client: headerPrefix 'auto' never settles on the wrong prefix, and shares what it learned", () => {
  let clock: ManualClock;
  let app: ReferenceServer | undefined;
  let port = 0;
  const closers: (() => Promise<void>)[] = [];

  beforeEach(() => {
    clock = manualClock();
  });
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await app?.close();
    app = undefined;
  });

  /** The app as a first release (X-NowDoing-* only) that counts unsigned requests too (`--count-unsigned`). */
  async function startApp(
    options: { build?: 'first-release' | 'current'; token?: string; headerPrefix?: HeaderPrefix } = {},
  ): Promise<ReferenceServer> {
    await app?.close();
    app = createReferenceServer({
      token: options.token ?? TEST_TOKEN,
      build: options.build ?? 'first-release',
      countUnsigned: true,
      clock,
      ...(options.headerPrefix ? { headerPrefix: options.headerPrefix } : {}),
    });
    port = await app.listen(port);
    return app;
  }

  const started = (): StartedServer => ({ server: app!, port, clock });

  /** `realClock` for a server that dates its answers by the real clock. */
  function openWindow(shared: SharedRecord, options: { realClock?: boolean } = {}): Window {
    const channel = {
      kind: 'http',
      route: { kind: 'http', port },
      token: TEST_TOKEN,
      tokenSource: 'secretStorage',
    } as const;
    const key = learnedPrefixKey(channel);
    const learned: HeaderPrefix[] = [];
    const statuses: (number | undefined)[] = [];
    // globalState as every window sees it: what a window keeps there is what it learned.
    const memento = {
      get: (name: string): unknown => (name === STORAGE_KEYS.learnedHeaderPrefixes ? shared.record : undefined),
      update: (name: string, value: unknown): Promise<void> => {
        assert.equal(name, STORAGE_KEYS.learnedHeaderPrefixes);
        shared.record = value;
        const prefix = recallLearned(value, key)?.prefix;
        assert.ok(prefix !== undefined, 'a window keeps only a prefix it learned');
        learned.push(prefix);
        return Promise.resolve();
      },
    };
    const quiet = { info: () => undefined, warn: () => undefined };
    const client = channelClient(channel, {
      memento,
      log: quiet,
      headerPrefix: 'auto',
      onRequest: (record) => statuses.push(record.status),
      ...(options.realClock ? {} : { clock }),
    });
    closers.push(() => client.close());
    return { client, learned, statuses };
  }

  /** `count` failed sign-ins by another client: signed with a wrong token. */
  async function failSignIns(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const answer = await signedSend(started(), {
        method: 'GET',
        target: '/current',
        token: 'someone-elses-wrong-token',
        headerPrefix: 'NowDoing',
      });
      assert.equal(answer.status, 401);
    }
  }

  const statuses = (): number[] => app!.controls.debugView().map((record) => record.status);

  it('against a first release just pushed to 10 failed sign-ins: three windows wait out the lockout, then all work with the right token', async () => {
    await startApp();
    await failSignIns(10);
    const shared: SharedRecord = { record: undefined };
    const windows = [openWindow(shared), openWindow(shared), openWindow(shared)];
    for (const window of windows) {
      const error = await rejection(window.client.getStatus());
      assert.ok(
        error instanceof HttpError && error.status === 429,
        `a lockout, not "token rejected": ${String(error)}`,
      );
    }
    assert.equal(app!.controls.failedSignIns, 11, "the first window's Clessira copy was the 11th");
    assert.deepEqual(
      windows.map((window) => window.learned),
      [[], [], []],
      'nothing learned from a 429',
    );
    assert.equal(shared.record, undefined);

    clock.advance(61_000);
    for (let call = 0; call < 12; call++) {
      const window = windows[call % windows.length]!;
      assert.equal(await window.client.getCurrent(), null, `call ${call + 1} after the lockout`);
    }
    assert.equal(app!.controls.failedSignIns, 11, 'not one failed sign-in after the lockout');
    assert.deepEqual(
      windows.map((window) => window.statuses),
      [
        [401, 429, 200, 200, 200, 200],
        [429, 200, 200, 200, 200],
        [429, 200, 200, 200, 200],
      ],
      'each window: one request during the lockout (the first: its probe), then four that work',
    );
    assert.deepEqual(
      windows.map((window) => window.statuses.slice(-4)),
      [
        [200, 200, 200, 200],
        [200, 200, 200, 200],
        [200, 200, 200, 200],
      ],
    );
    assert.deepEqual(
      windows.map((window) => window.client.headerPrefix),
      ['NowDoing', 'NowDoing', 'NowDoing'],
    );
    assert.deepEqual(
      windows.flatMap((window) => window.learned),
      ['NowDoing'],
      'learned once, shared with the others',
    );

    // A reload: new clients, the same record. They sign in at once.
    for (const window of [openWindow(shared), openWindow(shared), openWindow(shared)]) {
      assert.equal(window.client.headerPrefix, 'NowDoing', 'what the windows learned, before any call');
      assert.equal(await window.client.getCurrent(), null);
      assert.deepEqual(window.statuses, [200], 'no probe after a reload');
      assert.deepEqual(window.learned, []);
    }
  });

  it('eleven windows starting together lock the app out at most once, and all work after it', async () => {
    await startApp();
    const shared: SharedRecord = { record: undefined };
    const windows = Array.from({ length: 11 }, () => openWindow(shared));
    const outcomes = await Promise.allSettled(windows.map((window) => window.client.getCurrent()));
    for (const outcome of outcomes) {
      if (outcome.status === 'fulfilled') continue;
      const error: unknown = outcome.reason;
      assert.ok(
        error instanceof HttpError && error.status === 429,
        `only a lockout may stop a window: ${String(error)}`,
      );
    }
    const before = app!.controls.failedSignIns;
    assert.ok(before <= 11, `${before} failed sign-ins`);

    clock.advance(61_000);
    for (const window of windows) assert.equal(await window.client.getCurrent(), null);
    for (const window of windows) assert.equal(await window.client.getCurrent(), null);
    assert.ok(
      app!.controls.failedSignIns - before <= 1,
      `${app!.controls.failedSignIns - before} failed sign-ins after the lockout`,
    );
    assert.ok(!windows.some((window) => window.statuses.slice(-2).includes(429)), 'no second lockout');
    assert.ok(
      windows.every((window) => window.learned.every((prefix) => prefix === 'NowDoing')),
      'no window learned Clessira',
    );
  });

  it('the other way round: a prefix learned from a current app is checked again when a first release answers with the same token', async () => {
    await startApp({ build: 'current' });
    const shared: SharedRecord = { record: undefined };
    const open = openWindow(shared);
    await open.client.getStatus();
    assert.deepEqual(open.learned, ['Clessira']);

    // The app restarts as a first release, same port, same token.
    await startApp();
    const fresh = openWindow(shared);
    assert.equal(fresh.client.headerPrefix, 'Clessira', 'what was learned is tried first');
    assert.equal(await fresh.client.getCurrent(), null);
    assert.deepEqual(statuses(), [401, 200], 'one refused request, then the other prefix');
    assert.deepEqual(fresh.learned, ['NowDoing']);
    assert.equal(await open.client.getCurrent(), null, 'the window that had learned Clessira follows too');
    assert.deepEqual(statuses(), [401, 200, 200], 'it found NowDoing in the shared record: no refused request');
    assert.deepEqual(open.learned, ['Clessira']);
    for (const window of [open, fresh]) assert.equal(window.client.headerPrefix, 'NowDoing');
  });

  it('a window that has seen its prefix work asks the other one once when the app refuses it, then calls the token rejected', async () => {
    await startApp({ build: 'current' });
    const window = openWindow({ record: undefined });
    await window.client.getStatus();
    // The app restarts as a first release: the known prefix is refused, the other one works.
    await startApp();
    assert.equal(await window.client.getCurrent(), null);
    assert.deepEqual(statuses(), [401, 200]);
    assert.deepEqual(window.learned, ['Clessira', 'NowDoing']);

    // The app restarts with another token: both refused, once each; later calls one copy each.
    await startApp({ token: 'a-token-the-window-does-not-have' });
    const rejected = await rejection(window.client.getCurrent());
    assert.ok(rejected instanceof AuthenticationError && rejected.clockSkewSeconds === undefined);
    assert.deepEqual(statuses(), [401, 401]);
    for (let call = 1; call <= 3; call++) {
      assert.ok((await rejection(window.client.getCurrent())) instanceof AuthenticationError);
      assert.equal(app!.controls.failedSignIns, 2 + call, `call ${call + 1}: no second probe`);
    }
    assert.deepEqual(window.learned, ['Clessira', 'NowDoing'], 'nothing learned from a rejected token');
  });

  it('concurrent calls refused on a known prefix: one asks the other prefix, the others wait and use it', async () => {
    await startApp({ build: 'current' });
    const window = openWindow({ record: undefined });
    await window.client.getStatus();
    // The same build with X-NowDoing-* headers: the known Clessira is refused by every call on its way.
    await startApp({ build: 'current', headerPrefix: 'NowDoing' });
    const results = await Promise.all([
      window.client.getStatus(),
      window.client.getCurrent(),
      window.client.healthcheck(),
    ]);
    assert.equal(results.length, 3);
    assert.equal(statuses().filter((status) => status === 401).length, 3, 'one refused copy per call, no more');
    assert.equal(statuses().filter((status) => status === 200).length, 3);
    assert.deepEqual(window.learned, ['Clessira', 'NowDoing']);
  });

  it('never asks with a configured prefix, whatever was learned, and refuses a learnedHeaderPrefix that is not a function', async () => {
    await startApp();
    let recalled = 0;
    const client = new ServiceClient({
      token: TEST_TOKEN,
      port,
      clock,
      headerPrefix: 'Clessira',
      learnedHeaderPrefix: () => {
        recalled++;
        return 'NowDoing';
      },
    });
    closers.push(() => client.close());
    assert.ok((await rejection(client.getCurrent())) instanceof AuthenticationError);
    assert.ok((await rejection(client.getCurrent())) instanceof AuthenticationError);
    assert.deepEqual(statuses(), [401, 401], 'Clessira as configured, no NowDoing try');
    assert.equal(recalled, 0);
    assert.throws(
      () =>
        new ServiceClient({
          token: TEST_TOKEN,
          port,
          learnedHeaderPrefix: 'NowDoing',
        } as unknown as ServiceClientOptions),
      (error: unknown) =>
        error instanceof ConfigurationError &&
        error.message ===
          'learnedHeaderPrefix must be a function that returns Clessira or NowDoing (or undefined), not string.',
    );
  });

  it('learns nothing when the second copy finds no connection or a 403: the next call starts with it', async () => {
    const answers: Record<HeaderPrefix, ('reset' | number)[]> = {
      Clessira: [401, 401],
      NowDoing: ['reset', 'reset', 403, 200],
    };
    const seen: string[] = [];
    const canned: FaultServer = await startCannedServer((request) => {
      const prefix: HeaderPrefix = request.headers['x-nowdoing-token'] === undefined ? 'Clessira' : 'NowDoing';
      const answer = answers[prefix].shift() ?? 500;
      seen.push(`${prefix} ${answer}`);
      if (answer === 'reset') return 'reset';
      return { status: answer, body: answer === 200 ? '{"ok":true,"result":{"isTracking":false}}' : '{"error":"no"}' };
    });
    closers.push(() => canned.close());
    port = canned.port;
    const window = openWindow({ record: undefined }, { realClock: true });

    const lost = await rejection(window.client.getStatus());
    assert.ok(lost instanceof ConnectionError, String(lost));
    assert.deepEqual(
      seen,
      ['Clessira 401', 'NowDoing reset', 'NowDoing reset'],
      'the GET was re-sent once, as PROTOCOL.md §7 says',
    );
    assert.deepEqual(window.learned, []);
    assert.equal(window.client.headerPrefix, 'NowDoing', 'the 401 ruled Clessira out for the next ask');

    const forbidden = await rejection(window.client.getStatus());
    assert.ok(forbidden instanceof HttpError && forbidden.status === 403);
    assert.deepEqual(window.learned, []);
    assert.equal((await window.client.getStatus()).isTracking, false);
    assert.deepEqual(seen.slice(3), ['NowDoing 403', 'NowDoing 200'], 'no Clessira copy: it was refused');
    assert.deepEqual(window.learned, ['NowDoing']);
  });
});
