import assert from 'node:assert/strict';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';
import {
  sentFromQueue,
  startedConfirmation,
  STOPPED_NAME_MAX,
  stoppedConfirmation,
  undoneConfirmation,
} from '../../../../src/tracker/statusBar/confirmations';

const NOW = 10_000_000;
const docs = { activityID: 'a1', activityName: 'Client Docs' };
const tracking: TrackerState = {
  kind: 'tracking',
  activity: docs,
  onBreak: false,
  startedAtMs: NOW - 25 * 60_000,
  appClockOffsetMs: 0,
  todaySeconds: 0,
  observedAtMs: NOW,
};
const idle: TrackerState = { kind: 'idle', onBreak: false, todaySeconds: 0, observedAtMs: NOW };

describe('tracker/statusBar/confirmations: the status bar lines after Start, Stop and Undo', () => {
  it('names the activity and the time while the status bar is not private', () => {
    assert.equal(startedConfirmation('Client Docs', false), '$(record) Tracking Client Docs');
    assert.equal(
      startedConfirmation('$(bug) fix', false),
      '$(record) Tracking \\$(bug) fix',
      'a name shows as typed, never as an icon',
    );
    assert.equal(startedConfirmation(undefined, false), '$(record) Tracking started.');
    assert.equal(
      stoppedConfirmation({ stopped: docs, durationSeconds: 90 * 60 }, idle, NOW, false, 40),
      '$(debug-stop) Stopped Client Docs after 1h 30m',
    );
    assert.equal(
      stoppedConfirmation({ stopped: undefined, durationSeconds: undefined }, tracking, NOW, false, 40),
      '$(debug-stop) Stopped Client Docs after 25m',
      'the poll says what ran and since when',
    );
    assert.equal(
      stoppedConfirmation({ stopped: docs, durationSeconds: undefined }, idle, NOW, false, 40),
      '$(debug-stop) Stopped Client Docs',
    );
    assert.equal(
      undoneConfirmation({ previous: 'Other Client', started: 'PROJ-1' }, false),
      '$(discard) Tracking Other Client again',
    );
    assert.equal(undoneConfirmation({ previous: undefined, started: 'PROJ-1' }, false), '$(discard) Stopped PROJ-1');
  });

  it('says a stop after less than half a minute as "< 1m", as Time by Branch does, never "0m"', () => {
    assert.equal(
      stoppedConfirmation({ stopped: docs, durationSeconds: 20 }, idle, NOW, false, 40),
      '$(debug-stop) Stopped Client Docs after < 1m',
    );
    assert.equal(
      stoppedConfirmation({ stopped: docs, durationSeconds: 0 }, idle, NOW, false, 40),
      '$(debug-stop) Stopped Client Docs after < 1m',
    );
    assert.equal(
      stoppedConfirmation({ stopped: docs, durationSeconds: 146 }, idle, NOW, false, 40),
      '$(debug-stop) Stopped Client Docs after 2m',
    );
  });

  it('cuts a long name, never the duration, so "after 1m" stays in view', () => {
    const long = { activityID: 'a2', activityName: 'Quarterly planning for the platform migration workstream' };
    const said = stoppedConfirmation({ stopped: long, durationSeconds: 60 }, idle, NOW, false, 40);
    assert.equal(
      said,
      '$(debug-stop) Stopped Quarterly planning for the pl… after 1m',
      `the name cut to ${STOPPED_NAME_MAX} characters, the ellipsis included`,
    );
    assert.equal(
      stoppedConfirmation({ stopped: long, durationSeconds: 60 }, idle, NOW, false, 12),
      '$(debug-stop) Stopped Quarterly p… after 1m',
      "the user's shorter maxNameLength holds too",
    );
    assert.equal(
      stoppedConfirmation({ stopped: long, durationSeconds: 60 }, idle, NOW, false, 200),
      said,
      'a longer setting does not let the message run past the status bar',
    );
  });

  it('says what happened and names nothing while private: no activity, no time', () => {
    const lines = [
      startedConfirmation('Client Docs', true),
      stoppedConfirmation({ stopped: docs, durationSeconds: 90 * 60 }, idle, NOW, true, 40),
      stoppedConfirmation({ stopped: undefined, durationSeconds: undefined }, tracking, NOW, true, 40),
      undoneConfirmation({ previous: 'Other Client', started: 'PROJ-1' }, true),
      undoneConfirmation({ previous: undefined, started: 'PROJ-1' }, true),
    ];
    assert.deepEqual(lines, [
      '$(record) Tracking started.',
      '$(debug-stop) Tracking stopped.',
      '$(debug-stop) Tracking stopped.',
      '$(discard) Tracking the previous activity again.',
      '$(discard) Tracking stopped.',
    ]);
  });

  it('says nothing in the status bar when nothing ran, private or not (Stop says it where the user looks)', () => {
    for (const isPrivate of [false, true]) {
      assert.equal(
        stoppedConfirmation({ stopped: null, durationSeconds: undefined }, tracking, NOW, isPrivate, 40),
        undefined,
      );
      assert.equal(
        stoppedConfirmation({ stopped: undefined, durationSeconds: undefined }, idle, NOW, isPrivate, 40),
        undefined,
      );
    }
  });

  it('says what queued entries went out, and while private only how many', () => {
    const one = [{ minutes: 45, name: 'Client Docs', cause: 'offline' as const }];
    const two = [...one, { minutes: 20, name: 'Reviews', cause: 'offline' as const }];
    assert.equal(sentFromQueue(one, false), 'Sent 45m on Client Docs (logged while the app was offline).');
    assert.equal(sentFromQueue(two, false), 'Sent 2 entries logged while the app was offline, 1h 5m in all.');
    assert.equal(sentFromQueue(one, true), 'Sent an entry logged while the app was offline.');
    assert.equal(sentFromQueue(two, true), 'Sent 2 entries logged while the app was offline.');
    assert.equal(sentFromQueue([], true), undefined);
  });

  it('says why the sent entries had waited: offline, a lockout, a refused token, a locked license, or, mixed or not known here, that the app could not take them', () => {
    const lockedOut = [{ minutes: 45, name: 'Client Docs', cause: 'lockedOut' as const }];
    assert.equal(
      sentFromQueue(lockedOut, false),
      'Sent 45m on Client Docs (logged while the app locked requests out).',
    );
    assert.equal(
      sentFromQueue([...lockedOut, ...lockedOut], true),
      'Sent 2 entries logged while the app locked requests out.',
    );
    assert.equal(
      sentFromQueue([{ minutes: 5, name: 'Reviews', cause: 'refused' as const }], true),
      'Sent an entry logged while the app refused requests.',
    );
    assert.equal(
      sentFromQueue([{ minutes: 5, name: 'Reviews', cause: 'licenseLocked' as const }], false),
      'Sent 5m on Reviews (logged while the license was locked).',
    );
    assert.equal(
      sentFromQueue([{ minutes: 5, name: 'Reviews', cause: 'offline' as const }], false),
      'Sent 5m on Reviews (logged while the app was offline).',
    );
    const mixed = [...lockedOut, { minutes: 20, name: 'Reviews', cause: 'offline' as const }];
    assert.equal(sentFromQueue(mixed, false), 'Sent 2 entries queued while the app could not take them, 1h 5m in all.');
    assert.equal(
      sentFromQueue([{ minutes: 5, name: 'Reviews', cause: undefined }], false),
      'Sent 5m on Reviews (queued while the app could not take it).',
    );
  });
});
