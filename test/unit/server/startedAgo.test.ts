import assert from 'node:assert/strict';
import { ServiceState } from '../../../src/server/state';
import { signedSend } from '../../support/http';
import { manualClock, startServer } from '../../support/server';

const HOUR = 3_600_000;

describe('server: a session started long ago (--started-ago)', () => {
  it('starts the activity as the app would, then moves its start back; what ran before ends now', () => {
    const clock = manualClock();
    let next = 0;
    const state = new ServiceState(clock, () => `id-${++next}`);
    const before = state.seedActivity('Before');
    const docs = state.seedActivity('Docs');
    state.start({ activityID: before.activityID });
    clock.advance(60_000);
    const result = state.startAgo({ activityID: docs.activityID }, 9 * HOUR);
    assert.equal(result.startedAt, new Date(clock() - 9 * HOUR).toISOString().replace('.000', ''));
    assert.equal(result.stopped?.activityName, 'Before');
    assert.equal(state.snapshot().running?.startedAt, clock() - 9 * HOUR);
    assert.deepEqual(state.current(), { ...docs, startedAt: result.startedAt, isOnBreak: false });
  });

  it('runs the first seeded activity from that long ago when the server starts', async () => {
    const clock = manualClock();
    const started = await startServer({ clock, seedActivities: ['Docs', 'Other'], seedStartedAgoMs: 9 * HOUR });
    try {
      const current = await signedSend(started, { method: 'GET', target: '/current' });
      const result = (current.json as { result: { activityName: string; startedAt: string } }).result;
      assert.equal(result.activityName, 'Docs');
      assert.equal(Date.parse(result.startedAt), clock() - 9 * HOUR);
    } finally {
      await started.server.close();
    }
  });
});
