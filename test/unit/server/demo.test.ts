import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataFile } from '../../../src/server/dataFile';
import { DEMO_RUNNING, demoSnapshot } from '../../../src/server/demo';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { signedSend } from '../../support/http';
import { manualClock, TEST_TOKEN, type StartedServer } from '../../support/server';

/** Noon on the machine's own calendar, so every demo minute falls on the server's today. */
const LOCAL_NOON = new Date(2026, 10, 24, 12, 0, 0).getTime();
const MINUTE = 60_000;

describe('server/demo: the state `npm start` shows', () => {
  let dir: string;
  let servers: ReferenceServer[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tt-demo-'));
    servers = [];
  });

  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await rm(dir, { recursive: true, force: true });
  });

  const start = async ({
    at = LOCAL_NOON,
    dataFile,
  }: { dataFile?: DataFile; at?: number } = {}): Promise<StartedServer> => {
    const clock = manualClock(at);
    const server = createReferenceServer({
      token: TEST_TOKEN,
      clock,
      initialState: demoSnapshot(clock(), randomUUID),
      ...(dataFile && { dataFile }),
    });
    servers.push(server);
    return { server, port: await server.listen(0), clock };
  };

  it('has two groups, five activities, one running for 25 minutes and entries logged at that moment', () => {
    let next = 0;
    const snapshot = demoSnapshot(LOCAL_NOON, () => `ID-${++next}`);
    assert.deepEqual([...new Set(snapshot.activities.map((activity) => activity.groupName))], ['Work', 'Personal']);
    assert.equal(snapshot.activities.length, 5);
    assert.equal(new Set(snapshot.activities.map((activity) => activity.id)).size, 5, 'ids are distinct');
    assert.ok(
      snapshot.activities.every((activity) => activity.id === activity.id.toLowerCase()),
      'ids are stored lower-case, as the server creates them',
    );
    const running = snapshot.activities.find((activity) => activity.id === snapshot.running?.activityID);
    assert.deepEqual(running && { name: running.name, groupName: running.groupName }, {
      name: DEMO_RUNNING.name,
      groupName: DEMO_RUNNING.groupName,
    });
    assert.equal(snapshot.running?.startedAt, LOCAL_NOON - 25 * MINUTE);
    assert.ok(snapshot.entries.length > 0 && snapshot.entries.every((entry) => entry.loggedAt === LOCAL_NOON));
    assert.ok(
      snapshot.sessions.every((session) => session.endedAt <= LOCAL_NOON - 25 * MINUTE),
      'the finished session ends before the running one began',
    );
  });

  it('is a data file the server would load: every rule a request must meet holds', async () => {
    const path = join(dir, 'data.json');
    const snapshot = demoSnapshot(LOCAL_NOON, randomUUID);
    await writeFile(path, JSON.stringify({ version: 1, ...snapshot }));
    assert.deepEqual(await new DataFile(path).load(), snapshot);
  });

  it('answers /status as tracking "Write docs" with 1h 55m today, with both groups', async () => {
    const started = await start();
    const status = await signedSend(started, { method: 'GET', target: '/status' });
    assert.equal(status.status, 200);
    const result = (
      status.json as {
        result: { isTracking: boolean; currentActivity: { activityName: string }; todaySeconds: number };
      }
    ).result;
    assert.equal(result.isTracking, true);
    assert.equal(result.currentActivity.activityName, 'Write docs');
    // 25 running, 45 in the finished session, 15 + 30 logged.
    assert.equal(result.todaySeconds, 115 * 60);
    const activities = started.server.controls.state
      .listActivities()
      .map((activity) => `${activity.groupName ?? ''}/${activity.name}`);
    assert.deepEqual(activities.sort(), [
      'Personal/Exercise',
      'Personal/Reading',
      'Work/Code review',
      'Work/Standup',
      'Work/Write docs',
    ]);
  });

  it('just after midnight still has the logged time today, and only what ran since midnight', async () => {
    // What a CI run at 00:07 saw: the running session began at 23:42, the finished one ended at 23:37.
    const started = await start({ at: new Date(2026, 10, 24, 0, 7, 0).getTime() });
    const status = await signedSend(started, { method: 'GET', target: '/status' });
    const result = (
      status.json as {
        result: { currentActivity: { activityName: string; elapsedSeconds?: number }; todaySeconds: number };
      }
    ).result;
    assert.equal(result.currentActivity.activityName, 'Write docs');
    assert.equal(result.todaySeconds, (15 + 30 + 7) * 60);
  });

  it('runs its activity for as long as --started-ago says, with the finished session before it', () => {
    const snapshot = demoSnapshot(LOCAL_NOON, randomUUID, 9 * 60 * MINUTE);
    assert.equal(snapshot.running?.startedAt, LOCAL_NOON - 9 * 60 * MINUTE);
    assert.ok(snapshot.sessions.every((session) => session.endedAt <= LOCAL_NOON - 9 * 60 * MINUTE));
  });

  it('gives way to a data file that already holds a state, and starts a new one from the demo', async () => {
    const path = join(dir, 'data.json');
    await writeFile(path, JSON.stringify({ version: 1, activities: [], sessions: [], running: null, entries: [] }));
    const kept = await start({ dataFile: new DataFile(path) });
    assert.deepEqual(kept.server.controls.state.listActivities(), [], 'the file wins over the demo');
    await kept.server.close();

    const fresh = await start({ dataFile: new DataFile(join(dir, 'new.json')) });
    assert.equal(fresh.server.controls.state.listActivities().length, 5);
  });
});
