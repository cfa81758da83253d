import assert from 'node:assert/strict';
import { MAX_RECENT, type PickableActivity } from '../../../../src/tracker/pickers/activityPicks';
import {
  mergeRecent,
  readStampedRecent,
  RecentActivities,
  type RecentActivity,
} from '../../../../src/tracker/pickers/recentActivities';

const activity = <Extra extends Partial<RecentActivity>>(n: number, extra?: Extra): PickableActivity & Extra =>
  ({
    activityID: `00000000-0000-4000-8000-00000000000${n}`,
    activityName: `Activity ${n}`,
    ...extra,
  }) as PickableActivity & Extra;

/** globalState as a window may see it: a read can return a value older than the last write. */
class LaggingStore {
  written: unknown = undefined;
  served: unknown = undefined;
  get(): unknown {
    return this.served;
  }
  update(value: readonly RecentActivity[]): Promise<void> {
    this.written = value;
    return Promise.resolve();
  }
}

describe('tracker/pickers/recentActivities: every window shares them, none loses its own latest use', () => {
  it('lists its own latest use first even while the stored value read back is an older one', async () => {
    const store = new LaggingStore();
    let now = 1_000;
    const recent = new RecentActivities(store, () => now);
    store.served = [activity(1, { usedAtMs: 500 })];
    await recent.use(activity(2));
    now = 2_000;
    // Another window's write arrives late, without what this window just used.
    store.served = [activity(3, { usedAtMs: 900 }), activity(1, { usedAtMs: 500 })];
    assert.deepEqual(
      recent.list().map((item) => item.activityName),
      ['Activity 2', 'Activity 3', 'Activity 1'],
    );
    assert.deepEqual(
      (store.written as RecentActivity[]).map((item) => item.activityName),
      ['Activity 2', 'Activity 1'],
    );
  });

  it('reads the stored list again only when the store hands back another value, or this window used one', async () => {
    // The status bar asks for the running activity's group every second while tracking.
    let reads = 0;
    const counted = (n: number): RecentActivity => {
      const item = activity(n, { usedAtMs: n });
      return Object.defineProperty({ ...item }, 'activityID', {
        enumerable: true,
        get: () => {
          reads++;
          return item.activityID;
        },
      });
    };
    const store = new LaggingStore();
    const recent = new RecentActivities(store, () => 5_000);
    store.served = [counted(1), counted(2)];
    const first = recent.list();
    const readsOnce = reads;
    assert.ok(readsOnce > 0);
    assert.deepEqual(recent.list(), first);
    assert.equal(reads, readsOnce, 'the same stored value is not read again');
    recent.list().pop();
    assert.equal(recent.list().length, 2, 'a caller that changes its list changes nobody else’s');
    store.served = [counted(3)];
    assert.deepEqual(
      recent.list().map((item) => item.activityName),
      ['Activity 3'],
    );
    await recent.use(activity(4));
    assert.deepEqual(
      recent.list().map((item) => item.activityName),
      ['Activity 4', 'Activity 3'],
    );
  });

  it('takes another window’s newer use over this one’s older use of the same activity, and keeps a group either knew', () => {
    const merged = mergeRecent(
      [activity(1, { usedAtMs: 3_000 })],
      [activity(1, { usedAtMs: 1_000, groupName: 'Work' }), activity(2, { usedAtMs: 2_000 })],
    );
    assert.deepEqual(merged, [activity(1, { usedAtMs: 3_000, groupName: 'Work' }), activity(2, { usedAtMs: 2_000 })]);
  });

  it('reads a stored list of the wrong shape as empty, and only the timed activities of a mixed one, and stays short', () => {
    for (const stored of [undefined, null, 'Docs', { 0: activity(1, { usedAtMs: 1 }) }])
      assert.deepEqual(readStampedRecent(stored), [], JSON.stringify(stored));
    const timed = Array.from({ length: 9 }, (_, n) =>
      activity(n, { usedAtMs: 100 - n, ...(n === 1 ? { groupName: null } : {}) }),
    );
    const stored = [...timed, 'not an activity', { activityID: '2', usedAtMs: 1 }, activity(8)];
    assert.deepEqual(readStampedRecent(stored), timed.slice(0, MAX_RECENT));
    assert.deepEqual(
      readStampedRecent([
        { ...activity(1), usedAtMs: 'soon' },
        { ...activity(2), usedAtMs: Number.NaN },
      ]),
      [],
    );
  });
});
