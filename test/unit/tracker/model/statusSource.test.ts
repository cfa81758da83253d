import assert from 'node:assert/strict';
import { ServiceClient, type RequestRecord } from '../../../../src/client';
import type { CurrentAnswer } from '../../../../src/client/answerTypes';
import type { StatusResult } from '../../../../src/protocol/types';
import { statusBarItem } from '../../../../src/tracker/statusBar/statusBarItem';
import { pollStatus, type StatusReader } from '../../../../src/tracker/model/statusSource';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';
import { freePort } from '../../../support/process';
import { startServer, TEST_TOKEN, type StartedServer } from '../../../support/server';

const HOUR_MS = 3_600_000;
const settings = { nowMs: 0, showTodayTotal: true, maxNameLength: 40, route: { kind: 'http', port: 39847 } } as const;

describe('tracker/statusSource against the reference server', () => {
  let started: StartedServer;
  let client: ServiceClient;
  let paths: string[];

  async function connect(options: Parameters<typeof startServer>[0] = {}): Promise<void> {
    started = await startServer(options);
    paths = [];
    client = new ServiceClient({
      token: TEST_TOKEN,
      port: started.port,
      clock: started.clock,
      headerPrefix: 'auto',
      onRequest: (record: RequestRecord) => paths.push(record.path),
    });
  }
  afterEach(async () => {
    await client.close();
    await started.server.close();
  });

  it('asks GET /current once per newly running activity, then only GET /status, and counts from its start', async () => {
    await connect();
    let state: TrackerState = (await pollStatus(client, { kind: 'starting' }, started.clock)).state;
    assert.equal(state.kind, 'idle');
    await client.startActivity({ name: 'Docs', createIfMissing: true });
    started.clock.advance(30_000);
    paths.length = 0;
    state = (await pollStatus(client, state, started.clock)).state;
    assert.deepEqual(paths, ['/status', '/current']);
    assert.equal(state.kind === 'tracking' && state.startedAtMs, started.clock() - 30_000);
    started.clock.advance(10_000);
    paths.length = 0;
    const outcome = await pollStatus(client, state, started.clock);
    assert.deepEqual(paths, ['/status']);
    assert.deepEqual(outcome.source, 'status');
    assert.equal(
      statusBarItem(outcome.state, { ...settings, nowMs: started.clock() }).text,
      '$(record) Docs < 1m · today 0m',
    );
  });

  it('turns failures into states: license locked, unwired, no token, offline', async () => {
    await connect();
    started.server.controls.setLicense('locked');
    assert.equal((await pollStatus(client, { kind: 'starting' }, started.clock)).state.kind, 'licenseLocked');
    started.server.controls.setLicense('valid');
    started.server.controls.setUnwired('/status');
    assert.equal((await pollStatus(client, { kind: 'starting' }, started.clock)).state.kind, 'unavailable');
    assert.deepEqual((await pollStatus(undefined, { kind: 'starting' }, started.clock)).state, { kind: 'noToken' });
    const port = await freePort();
    const nowhere = new ServiceClient({ token: TEST_TOKEN, port });
    try {
      assert.deepEqual((await pollStatus(nowhere, { kind: 'starting' }, started.clock)).state, { kind: 'offline' });
    } finally {
      await nowhere.close();
    }
  });

  it('polls an app without GET /status (a first release) through GET /current, with no total for today', async () => {
    await connect({ build: 'first-release', seedActivities: ['Review'] });
    let outcome = await pollStatus(client, { kind: 'starting' }, started.clock);
    assert.deepEqual(paths, ['/status', '/status', '/current'], 'one 401 finds the prefix, the 404 finds the build');
    assert.deepEqual(outcome, {
      state: {
        kind: 'idle',
        onBreak: false,
        todaySeconds: undefined,
        observedAtMs: started.clock(),
        firstRelease: true,
      },
      source: 'current',
    });
    started.server.controls.state.start({ name: 'Review' });
    started.clock.advance(65_000);
    paths.length = 0;
    outcome = await pollStatus(client, outcome.state, started.clock, outcome.source);
    assert.deepEqual(paths, ['/current'], 'no more GET /status for this app');
    const shown = statusBarItem(outcome.state, { ...settings, nowMs: started.clock() });
    assert.equal(shown.text, '$(record) Review 1m');
    assert.match(shown.tooltip, /does not report today's total, nor offer Stop and Log Time/);
    assert.doesNotMatch(shown.tooltip, /command:timeTracker\.(stop|log)\)/);
  });

  it('tries GET /status again after the app was away (an update restarts it)', async () => {
    await connect({ build: 'first-release' });
    const first = await pollStatus(client, { kind: 'starting' }, started.clock);
    assert.equal(first.source, 'current');
    await started.server.close();
    // A kept-alive connection may break first ("may have arrived"); then nothing answers.
    let away = await pollStatus(client, first.state, started.clock, first.source);
    if (away.state.kind === 'failed') away = await pollStatus(client, away.state, started.clock, away.source);
    assert.deepEqual(away, { state: { kind: 'offline' }, source: 'status' });
  });
});

describe('tracker/statusSource: the running time on the app clock', () => {
  /** A reader whose GET /current says what the test wants, as an app with its own clock would. */
  function reader(current: CurrentAnswer): StatusReader {
    const status: StatusResult = {
      isTracking: true,
      isOnBreak: false,
      currentActivity: { activityID: current.activityID, activityName: current.activityName },
      todaySeconds: 9_000,
    };
    return { getStatus: () => Promise.resolve(status), getCurrent: () => Promise.resolve(current) };
  }

  for (const skewMs of [90_000, -90_000]) {
    it(`shows about 2h for an activity started two hours ago, with this machine's clock ${skewMs > 0 ? 'behind' : 'ahead'} by 90 s`, async () => {
      const here = 1_800_000_000_000;
      const appNow = here + skewMs;
      const current: CurrentAnswer = {
        activityID: 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F',
        activityName: 'Deep work',
        startedAtMs: appNow - 2 * HOUR_MS,
        isOnBreak: false,
        appClockOffsetMs: skewMs,
      };
      const { state } = await pollStatus(reader(current), { kind: 'starting' }, () => here);
      assert.equal(statusBarItem(state, { ...settings, nowMs: here }).text, '$(record) Deep work 2h · today 2h 30m');
      assert.equal(
        statusBarItem(state, { ...settings, nowMs: here + 61_000 }).text,
        '$(record) Deep work 2h 1m · today 2h 31m',
      );
      // Without the offset the same answer would be 90 s off: the Date header is what corrects it.
      const naive = await pollStatus(
        reader({ ...current, appClockOffsetMs: undefined }),
        { kind: 'starting' },
        () => here,
      );
      assert.notEqual(
        statusBarItem(naive.state, { ...settings, nowMs: here }).text,
        '$(record) Deep work 2h · today 2h 30m',
      );
    });
  }

  it('shows the name alone when the app does not say when it started', async () => {
    const current: CurrentAnswer = {
      activityID: 'a1',
      activityName: 'Deep work',
      startedAtMs: undefined,
      isOnBreak: false,
      appClockOffsetMs: 0,
    };
    const { state } = await pollStatus(reader(current), { kind: 'starting' }, () => 0);
    assert.equal(statusBarItem(state, settings).text, '$(record) Deep work · today 2h 30m');
  });

  it('takes an upper-case id from GET /current for the lower-case one of GET /status', async () => {
    const current: CurrentAnswer = {
      activityID: 'AB12',
      activityName: 'Deep work',
      startedAtMs: -5_000,
      isOnBreak: false,
      appClockOffsetMs: 0,
    };
    const status: StatusResult = {
      isTracking: true,
      isOnBreak: false,
      currentActivity: { activityID: 'ab12', activityName: 'Deep work' },
      todaySeconds: 0,
    };
    const { state } = await pollStatus(
      { getStatus: () => Promise.resolve(status), getCurrent: () => Promise.resolve(current) },
      { kind: 'starting' },
      () => 0,
    );
    assert.equal(statusBarItem(state, settings).text, '$(record) Deep work < 1m · today 0m');
  });
});
