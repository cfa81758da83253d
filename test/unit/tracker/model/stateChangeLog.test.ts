import assert from 'node:assert/strict';
import { describeStateChangeForLog } from '../../../../src/tracker/model/stateChangeLog';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';

const idle = (observedAtMs: number, onBreak = false): TrackerState => ({
  kind: 'idle',
  onBreak,
  todaySeconds: observedAtMs / 100,
  observedAtMs,
});
const tracking = (name: string, observedAtMs: number, onBreak = false): TrackerState => ({
  kind: 'tracking',
  activity: { activityID: `id-${name}`, activityName: name },
  onBreak,
  startedAtMs: 0,
  appClockOffsetMs: 0,
  todaySeconds: observedAtMs / 100,
  observedAtMs,
});

describe('tracker/stateChangeLog', () => {
  it('says nothing for a poll that changes nothing a user sees, however often it comes', () => {
    assert.equal(describeStateChangeForLog(idle(1000), idle(11_000)), undefined);
    assert.equal(describeStateChangeForLog(tracking('Docs', 1000), tracking('Docs', 11_000)), undefined);
    assert.equal(describeStateChangeForLog({ kind: 'offline' }, { kind: 'offline' }), undefined);
    assert.equal(
      describeStateChangeForLog({ kind: 'failed', message: 'Time-out.' }, { kind: 'failed', message: 'Time-out.' }),
      undefined,
    );
    assert.equal(
      describeStateChangeForLog({ kind: 'lockedOut', untilMs: 1 }, { kind: 'lockedOut', untilMs: 2 }),
      undefined,
    );
  });

  it('says once what changed: connected, started, stopped, offline, token rejected', () => {
    const lines: [TrackerState, TrackerState, string, 'info' | 'warn'][] = [
      [{ kind: 'starting' }, idle(0), 'Connected: nothing is tracked.', 'info'],
      [{ kind: 'offline' }, tracking('Docs', 0), 'Connected: Docs runs.', 'info'],
      [idle(0), tracking('Docs', 0), 'Started Docs.', 'info'],
      [tracking('Docs', 0), tracking('Review', 0), 'Started Review (instead of Docs).', 'info'],
      [tracking('Docs', 0), idle(0), 'Stopped Docs: nothing is tracked.', 'info'],
      [tracking('Docs', 0), tracking('Docs', 0, true), 'A break started; Docs is kept.', 'info'],
      [idle(0, true), idle(0), 'The break ended.', 'info'],
      [idle(0), { kind: 'offline' }, 'Offline: the app does not answer (it is closed, or its switch is off).', 'info'],
      [idle(0), { kind: 'tokenRejected', clockSkewSeconds: undefined }, 'The app rejected the token.', 'warn'],
      [
        idle(0),
        { kind: 'tokenRejected', clockSkewSeconds: 300 },
        "The app rejected the request: this computer's clock is 300 s off.",
        'warn',
      ],
      [idle(0), { kind: 'licenseLocked' }, "The app's license is locked.", 'warn'],
      [
        idle(0),
        { kind: 'lockedOut', untilMs: Date.UTC(2026, 0, 2, 10, 0, 30) },
        'The app refuses requests until 2026-01-02T10:00:30Z after too many failed sign-ins.',
        'warn',
      ],
      [idle(0), { kind: 'unavailable' }, 'The app does not offer its status (GET /status answers 503).', 'warn'],
      [
        { kind: 'failed', message: 'Time-out.' },
        { kind: 'failed', message: 'Answer lost.' },
        'Asking the app failed: Answer lost.',
        'warn',
      ],
    ];
    for (const [before, after, line, level] of lines)
      assert.deepEqual(describeStateChangeForLog(before, after), { level, line }, `${before.kind} → ${after.kind}`);
  });

  it('leaves "no token" to the line that says why there is no connection', () => {
    assert.equal(describeStateChangeForLog(idle(0), { kind: 'noToken' }), undefined);
  });
});
