import assert from 'node:assert/strict';
import { RequestRefusal } from '../../../src/server/errors';
import { ServiceState } from '../../../src/server/state';
import { manualClock } from '../../support/server';

function stateWithClock(startMs?: number): { state: ServiceState; clock: ReturnType<typeof manualClock> } {
  const clock = manualClock(startMs);
  let counter = 0;
  const newId = (): string => `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`;
  return { state: new ServiceState(clock, newId), clock };
}

describe('server/state', () => {
  it('starting another activity ends the running one and names it as stopped', () => {
    const { state, clock } = stateWithClock();
    const a = state.start({ name: 'A', createIfMissing: true });
    clock.advance(60_000);
    const b = state.start({ name: 'B', createIfMissing: true });
    assert.deepEqual(b.stopped, { activityID: a.activityID, activityName: 'A' });
    assert.equal(state.listSessions().length, 1);
    assert.equal(state.status().currentActivity?.activityName, 'B');
  });

  it('starting the running activity changes nothing and keeps its startedAt', () => {
    const { state, clock } = stateWithClock();
    const first = state.start({ name: 'A', createIfMissing: true });
    clock.advance(5_000);
    const again = state.start({ name: ' a ' });
    assert.deepEqual(again, { ...first, created: false, stopped: null });
    assert.equal(state.listSessions().length, 0);
  });

  it('looks names up trimmed and without case, and never creates a duplicate', () => {
    const { state } = stateWithClock();
    const created = state.logEntry({ name: '  Code Review ', durationMinutes: 5, createIfMissing: true });
    const reused = state.logEntry({ name: 'code review', durationMinutes: 5, createIfMissing: true });
    assert.equal(created.created, true);
    assert.equal(created.activityName, 'Code Review');
    assert.equal(reused.created, false);
    assert.equal(reused.activityID, created.activityID);
    assert.equal(state.listActivities().length, 1);
  });

  it('refuses an unknown name without createIfMissing, and an unknown id even with it', () => {
    const { state } = stateWithClock();
    assert.throws(
      () => state.start({ name: 'Ghost' }),
      (error: unknown) => error instanceof RequestRefusal && error.status === 404,
    );
    assert.throws(
      () => state.start({ activityID: '00000000-0000-4000-8000-999999999999', createIfMissing: true }),
      (error: unknown) => error instanceof RequestRefusal && error.status === 404,
    );
    assert.equal(state.listActivities().length, 0);
  });

  it('finds an activity by id in any case', () => {
    const { state } = stateWithClock();
    const { activityID } = state.seedActivity('A');
    assert.equal(state.start({ activityID: activityID.toUpperCase() }).activityID, activityID);
  });

  it('treats an id in another letter case as the same activity everywhere: start again, entries, references', () => {
    const { state, clock } = stateWithClock();
    const { activityID } = state.seedActivity('A');
    const first = state.start({ activityID });
    clock.advance(5_000);
    const again = state.start({ activityID: activityID.toUpperCase() });
    assert.deepEqual(again, { ...first, stopped: null }, 'the running activity, not a new session');
    assert.equal(state.listSessions().length, 0);
    const entry = state.logEntry({ activityID: activityID.toUpperCase(), durationMinutes: 5 });
    assert.equal(entry.activityID, activityID, 'answers carry the id as the service stores it');
    assert.equal(state.current()?.activityID, activityID);
  });

  it('keeps activities whose stored ids are upper-case (as the app writes them) reachable in either case', () => {
    const { state } = stateWithClock();
    const upperID = '6F9619FF-8B86-4011-B42D-00C04FC964FF';
    state.restore({
      activities: [{ id: upperID, name: 'Swift', groupName: null }],
      sessions: [],
      running: null,
      entries: [],
    });
    assert.equal(state.start({ activityID: upperID.toLowerCase() }).activityID, upperID);
    assert.equal(state.status().currentActivity?.activityID, upperID);
    assert.equal(state.start({ activityID: upperID }).stopped, null, 'the running one, whatever the case asked for');
  });

  it('gives activities groups: one name per group, found by name only while it is unambiguous', () => {
    const { state } = stateWithClock();
    const work = state.seedActivity(' Deep work ', ' Work ');
    const again = state.seedActivity('deep WORK', 'work');
    assert.equal(again.activityID, work.activityID, 'the same name in the same group is the same activity');
    assert.deepEqual(
      state.start({ name: 'deep work' }).activityID,
      work.activityID,
      'a name only one group has is found',
    );
    const home = state.seedActivity('Deep work', 'Home');
    const none = state.seedActivity('Deep work');
    assert.equal(new Set([work.activityID, home.activityID, none.activityID]).size, 3);
    assert.deepEqual(
      state.listActivities().map(({ name, groupName }) => [name, groupName]),
      [
        ['Deep work', 'Work'],
        ['Deep work', 'Home'],
        ['Deep work', null],
      ],
    );
    assert.deepEqual(
      state.search('deep', 20).items.map((item) => item.groupName),
      [null, 'Home', 'Work'],
      'same-named hits ordered by group, none first',
    );
    assert.throws(
      () => state.logEntry({ name: 'DEEP WORK', durationMinutes: 5, createIfMissing: true }),
      (error: unknown) =>
        error instanceof RequestRefusal &&
        error.status === 400 &&
        error.message ===
          'The name "DEEP WORK" belongs to 3 activities, in Work, Home and no group; send the activityID of the one you mean.',
    );
    assert.equal(state.listActivities().length, 3, 'an ambiguous name creates nothing');
    assert.equal(state.logEntry({ activityID: home.activityID, durationMinutes: 5 }).activityName, 'Deep work');
  });

  it('sends startedAt in whole seconds and no elapsed time', () => {
    const { state, clock } = stateWithClock(Date.UTC(2026, 4, 26, 14, 30, 0, 999));
    const started = state.start({ name: 'A', createIfMissing: true });
    assert.equal(started.startedAt, '2026-05-26T14:30:00Z');
    clock.advance(7_200_000);
    assert.deepEqual(state.current(), {
      activityID: started.activityID,
      activityName: 'A',
      startedAt: '2026-05-26T14:30:00Z',
      isOnBreak: false,
    });
    assert.equal(
      state.start({ name: 'a' }).startedAt,
      '2026-05-26T14:30:00Z',
      'starting the running one keeps its startedAt',
    );
  });

  it('keeps repoPath with each branch report, null when none was sent', () => {
    const { state } = stateWithClock();
    state.branchChanged({ branch: 'main', repoPath: '/Users/me/src/shop' });
    state.branchChanged({ branch: 'dev' });
    assert.deepEqual(
      state.listBranchReports().map(({ branch, repoPath }) => ({ branch, repoPath })),
      [
        { branch: 'main', repoPath: '/Users/me/src/shop' },
        { branch: 'dev', repoPath: null },
      ],
    );
  });

  it('orders search hits: exact, then prefix, then the rest, each by name', () => {
    const { state } = stateWithClock();
    for (const name of ['Contest', 'testing', 'Test', 'attest', 'Tester', 'best']) state.seedActivity(name);
    assert.deepEqual(
      state.search('TEST', 20).references.map((hit) => hit.activityName),
      ['Test', 'Tester', 'testing', 'attest', 'Contest'],
    );
    assert.deepEqual(
      state.search('', 3).references.map((hit) => hit.activityName),
      ['attest', 'best', 'Contest'],
    );
  });

  it("counts today: the parts of sessions inside the local day, the running session and today's entries", () => {
    const dayStart = new Date(2026, 10, 22, 0, 0, 0).getTime();
    const { state, clock } = stateWithClock(dayStart - 30 * 60_000);
    state.start({ name: 'Night', createIfMissing: true }); // 23:30 yesterday
    clock.set(dayStart + 15 * 60_000);
    state.stop(); // 00:15 today: 15 minutes count
    state.logEntry({ name: 'Night', durationMinutes: 2 }); // 120 s
    clock.set(dayStart + 10 * 3_600_000);
    state.start({ name: 'Night' });
    clock.advance(20_000); // running for 20 s
    assert.equal(state.status().todaySeconds, 15 * 60 + 120 + 20);
    clock.set(dayStart + 24 * 3_600_000 + 1_000); // one second into the next day
    assert.equal(state.status().todaySeconds, 1, "only the running session's part after midnight");
  });

  it('stop reports whole seconds and keeps the break flag; start clears it', () => {
    const { state, clock } = stateWithClock();
    state.setBreak(true);
    assert.deepEqual(state.stop(), { stopped: null, durationSeconds: null });
    assert.equal(state.isOnBreak, true);
    state.start({ name: 'A', createIfMissing: true });
    assert.equal(state.isOnBreak, false);
    state.setBreak(true);
    clock.advance(61_999);
    assert.equal(state.stop().durationSeconds, 61);
    assert.equal(state.isOnBreak, true);
  });

  it('restores a snapshot exactly', () => {
    const { state, clock } = stateWithClock();
    state.start({ name: 'A', createIfMissing: true });
    clock.advance(1_000);
    state.logEntry({ name: 'B', durationMinutes: 3, note: 'n', createIfMissing: true });
    const copy = stateWithClock().state;
    copy.restore(JSON.parse(JSON.stringify(state.snapshot())) as ReturnType<ServiceState['snapshot']>);
    assert.deepEqual(copy.snapshot(), state.snapshot());
    assert.equal(copy.start({ name: 'b' }).created, false);
  });
});
