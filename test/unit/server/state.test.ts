import assert from 'node:assert/strict';
import { ServiceFailure } from '../../../src/server/failure';
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
    assert.throws(() => state.start({ name: 'Ghost' }), (error: unknown) => error instanceof ServiceFailure && error.status === 404);
    assert.throws(
      () => state.start({ activityID: '00000000-0000-4000-8000-999999999999', createIfMissing: true }),
      (error: unknown) => error instanceof ServiceFailure && error.status === 404,
    );
    assert.equal(state.listActivities().length, 0);
  });

  it('finds an activity by id in any case', () => {
    const { state } = stateWithClock();
    const { activityID } = state.seedActivity('A');
    assert.equal(state.start({ activityID: activityID.toUpperCase() }).activityID, activityID);
  });

  it('orders search hits: exact, then prefix, then the rest, each by name', () => {
    const { state } = stateWithClock();
    for (const name of ['Contest', 'testing', 'Test', 'attest', 'Tester', 'best']) state.seedActivity(name);
    assert.deepEqual(
      state.search('TEST', 20).references.map((hit) => hit.activityName),
      ['Test', 'Tester', 'testing', 'attest', 'Contest'],
    );
    assert.deepEqual(state.search('', 3).references.map((hit) => hit.activityName), ['attest', 'best', 'Contest']);
  });

  it('counts today: the parts of sessions inside the local day, the running session and today\'s entries', () => {
    const dayStart = new Date(2026, 10, 22, 0, 0, 0).getTime();
    const { state, clock } = stateWithClock(dayStart - 30 * 60_000);
    state.start({ name: 'Night', createIfMissing: true }); // 23:30 yesterday
    clock.set(dayStart + 15 * 60_000);
    state.stop(); // 00:15 today: 15 minutes count
    state.logEntry({ name: 'Night', durationMinutes: 1.5 }); // 90 s
    clock.set(dayStart + 10 * 3_600_000);
    state.start({ name: 'Night' });
    clock.advance(20_000); // running for 20 s
    assert.equal(state.status().todaySeconds, 15 * 60 + 90 + 20);
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
