import assert from 'node:assert/strict';
import { leadWithStop, linkQuestionEntry, menuFor, menuPlaceholder } from '../../../../src/tracker/pickers/menu';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';

const activity = { activityID: 'a1', activityName: 'Docs' };
/** Docs running, a minute today: each test changes what it is about. */
const tracking: TrackerState = {
  kind: 'tracking',
  activity,
  onBreak: false,
  startedAtMs: 0,
  appClockOffsetMs: 0,
  todaySeconds: 60,
  observedAtMs: 0,
};
const commands = (state: TrackerState, hasToken = false, queued = 0): string[] =>
  menuFor(state, hasToken, queued).map((entry) => entry.command.replace('timeTracker.', ''));

describe('tracker/menu', () => {
  it('offers Stop and Log Time where the app has them', () => {
    assert.deepEqual(commands(tracking), ['stop', 'start', 'log', 'checkConnection', 'showLog']);
    assert.deepEqual(commands({ kind: 'idle', onBreak: false, todaySeconds: 60, observedAtMs: 0 }), [
      'start',
      'log',
      'checkConnection',
      'showLog',
    ]);
    assert.deepEqual(
      commands({ kind: 'idle', onBreak: true, todaySeconds: 60, observedAtMs: 0 }),
      ['start', 'log', 'checkConnection', 'showLog'],
      'on break',
    );
    // Continue ends the break on the paused activity (a start of it); another start ends it too; Stop ends it.
    assert.deepEqual(
      commands({ ...tracking, onBreak: true }),
      ['start', 'start', 'stop', 'log', 'checkConnection', 'showLog'],
      'on break, an activity paused',
    );
    assert.deepEqual(commands({ ...tracking, onBreak: true, firstRelease: true }), [
      'start',
      'start',
      'checkConnection',
      'showLog',
    ]);
  });

  it('offers Continue "<activity>" first on a break, which starts the paused activity again', () => {
    const paused: TrackerState = { ...tracking, onBreak: true };
    const [first] = menuFor(paused, false);
    assert.deepEqual(first, {
      label: '$(debug-continue) Continue “Docs”',
      command: 'timeTracker.start',
      args: [{ activityID: 'a1' }],
    });
    assert.equal(
      menuFor({ ...paused, onBreak: false }, false)[0]?.command,
      'timeTracker.stop',
      'no Continue off a break',
    );
  });

  it('leaves Stop and Log Time out for a first release of the app (GET /current alone: no stop, no entries)', () => {
    assert.deepEqual(commands({ ...tracking, todaySeconds: undefined, firstRelease: true }), [
      'start',
      'checkConnection',
      'showLog',
    ]);
    assert.deepEqual(
      commands({ kind: 'idle', onBreak: false, todaySeconds: undefined, observedAtMs: 0, firstRelease: true }),
      ['start', 'checkConnection', 'showLog'],
    );
  });

  it("keeps Stop and Log Time for a full app that left today's total out", () => {
    assert.deepEqual(commands({ ...tracking, todaySeconds: undefined }), [
      'stop',
      'start',
      'log',
      'checkConnection',
      'showLog',
    ]);
  });

  it('offers Log Time (it queues) and the queue first while the app is offline, even with nothing queued yet', () => {
    assert.deepEqual(commands({ kind: 'offline' }), ['log', 'showQueue', 'checkConnection', 'showLog', 'setToken']);
    assert.deepEqual(commands({ kind: 'offline' }, true, 2), [
      'log',
      'showQueue',
      'checkConnection',
      'showLog',
      'setToken',
      'clearToken',
    ]);
    const [logTime, queue] = menuFor({ kind: 'offline' }, false, 2);
    assert.equal(logTime?.detail, 'The entry waits in the queue and is sent once the app takes it');
    assert.equal(queue?.label, '$(inbox) Show Queued Entries (2)');
    assert.equal(menuFor({ kind: 'offline' }, false, 0)[1]?.label, '$(inbox) Show Queued Entries');
  });

  it('offers Set Token first while the app rejects the token, and last during a lockout, which ends by itself', () => {
    assert.deepEqual(commands({ kind: 'tokenRejected', clockSkewSeconds: undefined }), [
      'setToken',
      'checkConnection',
      'log',
      'showLog',
    ]);
    assert.deepEqual(commands({ kind: 'tokenRejected', clockSkewSeconds: undefined }, true, 1), [
      'setToken',
      'clearToken',
      'checkConnection',
      'log',
      'showQueue',
      'showLog',
    ]);
    assert.deepEqual(commands({ kind: 'lockedOut', untilMs: 60_000 }), [
      'log',
      'checkConnection',
      'showLog',
      'setToken',
    ]);
    assert.deepEqual(commands({ kind: 'lockedOut', untilMs: 60_000 }, true, 1), [
      'log',
      'checkConnection',
      'showQueue',
      'showLog',
      'setToken',
      'clearToken',
    ]);
    // A clock that is off is no token's fault: setting it right and checking comes first.
    assert.deepEqual(commands({ kind: 'tokenRejected', clockSkewSeconds: 300 }), [
      'checkConnection',
      'log',
      'showLog',
      'setToken',
    ]);
  });

  it("leads with Check Connection when the app rejects its own integration's token, which is fixed in the app, not with Set Token", () => {
    const rejected = menuFor(
      { kind: 'tokenRejected', clockSkewSeconds: undefined },
      true,
      0,
      undefined,
      'integration',
    ).map((entry) => entry.command.replace('timeTracker.', ''));
    assert.deepEqual(rejected, ['checkConnection', 'log', 'showLog', 'setToken', 'clearToken']);
  });

  it('offers no Log Time where the app would refuse the entry and nothing would queue it', () => {
    assert.deepEqual(commands({ kind: 'noToken' }), ['setToken', 'checkConnection', 'showLog']);
    // The app answered: the token works, and the license is renewed in the app, then checked.
    assert.deepEqual(commands({ kind: 'licenseLocked' }, true), ['checkConnection', 'showLog']);
    assert.deepEqual(commands({ kind: 'licenseLocked' }, false, 2), ['checkConnection', 'showQueue', 'showLog']);
    assert.equal(
      menuFor({ kind: 'licenseLocked' }, true)[0]?.detail,
      'Once the license is activated or renewed in the app',
    );
    assert.deepEqual(commands({ kind: 'unavailable' }, false, 1), [
      'showQueue',
      'checkConnection',
      'showLog',
      'setToken',
    ]);
    assert.deepEqual(commands({ kind: 'starting' }), ['checkConnection', 'showLog', 'setToken']);
    assert.deepEqual(commands({ kind: 'failed', message: 'boom' }), ['showLog', 'checkConnection', 'setToken']);
  });

  it("says in its placeholder what the menu is for, and the state where it helps, not the status bar's spoken text", () => {
    const samples: TrackerState[] = [
      { kind: 'starting' },
      { kind: 'noToken' },
      { kind: 'offline' },
      { kind: 'tokenRejected', clockSkewSeconds: undefined },
      { kind: 'tokenRejected', clockSkewSeconds: 90 },
      { kind: 'lockedOut', untilMs: 0 },
      { kind: 'licenseLocked' },
      { kind: 'unavailable' },
      { kind: 'failed', message: 'boom' },
      { kind: 'idle', onBreak: false, todaySeconds: 0, observedAtMs: 0 },
      { kind: 'idle', onBreak: true, todaySeconds: 0, observedAtMs: 0 },
      { ...tracking, todaySeconds: 0 },
    ];
    const placeholders = samples.map(menuPlaceholder);
    for (const placeholder of placeholders) {
      assert.match(placeholder, /^Choose (what to do|how to connect)/);
      assert.doesNotMatch(placeholder, /Activate/);
    }
    assert.equal(new Set(placeholders).size, placeholders.length, 'each state in its own words');
    assert.equal(
      menuPlaceholder({ kind: 'offline' }),
      'Choose what to do while the app is not answering (logged time waits in the queue)',
    );
    assert.equal(menuPlaceholder(samples.at(-1)!), 'Choose what to do (tracking Docs)');
  });

  it('leads with Stop, before Undo and a question about links, once a session has run for hours', () => {
    const started = new Date(2026, 11, 4, 8, 3).getTime();
    const nowMs = started + 9 * 3_600_000;
    const offered = [linkQuestionEntry(), ...menuFor(tracking, false, 0, { started: 'Docs', previous: undefined })];
    assert.equal(offered[0]?.command, 'timeTracker.useRepositoryLinks', 'before');
    const led = leadWithStop(offered, { sinceMs: started, fromApp: true }, nowMs);
    assert.deepEqual(
      led.map((entry) => entry.command.replace('timeTracker.', '')),
      ['stop', 'useRepositoryLinks', 'undoLink', 'start', 'log', 'checkConnection', 'showLog'],
    );
    assert.equal(led[0]?.detail, 'Docs · running since 08:03');
    const seen = leadWithStop(offered, { sinceMs: started, fromApp: false }, nowMs);
    assert.equal(seen[0]?.detail, 'Docs · running at least since 08:03');
    const firstRelease = menuFor({ ...tracking, firstRelease: true }, false);
    assert.deepEqual(leadWithStop(firstRelease, { sinceMs: started, fromApp: true }, nowMs), firstRelease, 'no Stop');
  });
});
