import assert from 'node:assert/strict';
import { ticketKeys } from '../../../../src/tracker/branchTime/ticketKeys';
import {
  claimOpening,
  maxAnswerAgeMs,
  OPENING_CLAIM_MS,
  readStopped,
  startedSince,
  STOP_HOLD_MS,
  STOP_SETTLE_MS,
  stopHolding,
  stoppedNotice,
} from '../../../../src/tracker/links/linkOpening';
import { decideLink, parseLinks } from '../../../../src/tracker/links/links';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';

// Local times, so that the day's end is the same whatever the machine's time zone.
const STOPPED = new Date(2026, 10, 27, 18, 2).getTime();
const tracking = (observedAtMs: number): TrackerState => ({
  kind: 'tracking',
  activity: { activityID: 'a1', activityName: 'Docs' },
  onBreak: false,
  startedAtMs: undefined,
  appClockOffsetMs: 0,
  todaySeconds: 0,
  observedAtMs,
});

describe('tracker/links/linkOpening', () => {
  it('takes an answer as fresh for one poll interval, at most 30 s', () => {
    assert.equal(maxAnswerAgeMs(5), 5_000);
    assert.equal(maxAnswerAgeMs(3600), 30_000);
    assert.equal(maxAnswerAgeMs(0), 2_000);
    assert.equal(maxAnswerAgeMs(Number.NaN), 2_000);
  });

  it('holds openings back for STOP_HOLD_MS after a stop on purpose, across midnight', () => {
    const record = readStopped({ atMs: STOPPED });
    assert.equal(stopHolding(record, STOPPED + 60_000), STOPPED, 'a reload a minute later');
    assert.equal(stopHolding(record, STOPPED + STOP_HOLD_MS - 1), STOPPED);
    assert.equal(stopHolding(record, STOPPED + STOP_HOLD_MS), undefined, 'then openings start links again');
    const late = readStopped({ atMs: new Date(2026, 10, 27, 23, 50).getTime() });
    assert.equal(
      stopHolding(late, new Date(2026, 10, 28, 0, 10).getTime()),
      late?.atMs,
      'a stop at 23:50 is still a stop at 00:10',
    );
    assert.equal(
      stopHolding(late, new Date(2026, 10, 28, 7, 30).getTime()),
      late?.atMs,
      'and at a restore the next morning',
    );
    assert.ok(STOP_HOLD_MS >= 8 * 3_600_000 && STOP_HOLD_MS <= 24 * 3_600_000, 'some hours: a night, not days');
    assert.equal(
      stopHolding(record, STOPPED - 1),
      undefined,
      'a stop from the future (a clock set back) holds nothing',
    );
    assert.equal(stopHolding(undefined, STOPPED), undefined);
    for (const stored of [undefined, null, 'x', { atMs: 'x' }, { atMs: -1 }, { atMs: Number.POSITIVE_INFINITY }])
      assert.equal(readStopped(stored), undefined);
  });

  it('forgets the stop once an answer received after it says the app tracks', () => {
    const record = readStopped({ atMs: STOPPED });
    assert.equal(startedSince(record, tracking(STOPPED + STOP_SETTLE_MS + 1)), true);
    assert.equal(startedSince(record, tracking(STOPPED - 1)), false, 'an answer from before the stop');
    assert.equal(
      startedSince(record, tracking(STOPPED + 1_000)),
      false,
      'a poll that was on the wire while Stop went out',
    );
    assert.equal(
      startedSince(record, { kind: 'idle', onBreak: false, todaySeconds: 0, observedAtMs: STOPPED + 60_000 }),
      false,
    );
    assert.equal(startedSince(undefined, tracking(STOPPED + 60_000)), false);
  });

  it('says once why the opening did not start, with the time of the stop', () => {
    const decision = decideLink(
      parseLinks([{ folder: 'w', activity: 'Acme' }]).links,
      { folders: ['/w'] },
      ticketKeys([]),
    )!;
    const notice = stoppedNotice(decision, STOPPED, false, 'en-GB');
    assert.equal(notice.text, '$(link) Acme not started');
    assert.equal(
      notice.accessibilityLabel,
      'Acme is linked here but was not started: you stopped tracking at 18:02, and opening a window does not start it again. Start it from the menu when you want to.',
    );
    assert.equal(notice.command, 'timeTracker.showMenu');
    const hidden = stoppedNotice(decision, STOPPED, true, 'en-GB');
    assert.equal(hidden.text, '$(link) Linked activity not started');
    assert.ok(
      ![hidden.text, hidden.tooltip, hidden.accessibilityLabel].some(
        (said) => said.includes('Acme') || said.includes('18:02'),
      ),
      JSON.stringify(hidden),
    );
  });

  it('lets the first window that claims the opening of an activity act, and no other for a minute', () => {
    const first = claimOpening(undefined, 'Acme', STOPPED);
    assert.deepEqual(first, { won: true, claims: { acme: STOPPED } });
    const stored = (JSON.parse(JSON.stringify(first)) as { claims: unknown }).claims;
    assert.deepEqual(
      claimOpening(stored, 'ACME ', STOPPED + 5_000),
      { won: false, claimedAtMs: STOPPED },
      'the same activity, in any case',
    );
    assert.deepEqual(claimOpening(stored, 'Other', STOPPED + 5_000), {
      won: true,
      claims: { acme: STOPPED, other: STOPPED + 5_000 },
    });
    assert.deepEqual(
      claimOpening(stored, 'Acme', STOPPED + OPENING_CLAIM_MS),
      { won: true, claims: { acme: STOPPED + OPENING_CLAIM_MS } },
      'a minute later; the old claim dropped',
    );
    assert.equal(
      claimOpening(stored, 'Acme', STOPPED - OPENING_CLAIM_MS).won,
      true,
      'a claim from far ahead of the clock holds nothing',
    );
    for (const junk of [null, 'x', [1], { acme: 'x' }]) assert.equal(claimOpening(junk, 'Acme', STOPPED).won, true);
  });
});
