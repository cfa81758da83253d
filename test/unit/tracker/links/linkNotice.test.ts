import assert from 'node:assert/strict';
import { ticketKeys } from '../../../../src/tracker/branchTime/ticketKeys';
import {
  failedNotice,
  heldNotice,
  LINK_NOTICE_MS,
  linkHold,
  linkStep,
  startedNotice,
  TransientNotice,
  type StatusNotice,
} from '../../../../src/tracker/links/linkNotice';
import { decideLink, parseLinks, type LinkDecision } from '../../../../src/tracker/links/links';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';
import { ManualTime } from '../../../support/manualTime';

const NOW = 1_000_000;
const idle = (onBreak = false): TrackerState => ({ kind: 'idle', onBreak, todaySeconds: 0, observedAtMs: NOW });
const tracking = (onBreak = false): TrackerState => ({
  kind: 'tracking',
  activity: { activityID: 'a1', activityName: 'Docs' },
  onBreak,
  startedAtMs: undefined,
  appClockOffsetMs: 0,
  todaySeconds: 0,
  observedAtMs: NOW,
});

function decision(place: { branch?: string; folder?: string }): LinkDecision {
  const { links } = parseLinks([
    { branch: '**', activity: '{ticket}' },
    { folder: 'acme', activity: 'Acme $(bug)' },
  ]);
  return decideLink(links, { folders: [`/w/${place.folder ?? 'x'}`], branch: place.branch }, ticketKeys([]))!;
}

describe('tracker/links/linkNotice', () => {
  it('holds a link back while nothing may start: no token, offline, token rejected, locked out, license locked, on a break', () => {
    assert.equal(linkHold({ kind: 'noToken' }, false, NOW), 'noToken');
    assert.equal(
      linkHold({ kind: 'remoteHost' }, false, NOW),
      'remoteHost',
      'not "the app is not answering": nothing asked it',
    );
    assert.equal(linkHold({ kind: 'offline' }, false, NOW), 'offline');
    assert.equal(linkHold({ kind: 'offline' }, true, NOW), 'offline');
    assert.equal(linkHold({ kind: 'tokenRejected', clockSkewSeconds: undefined }, true, NOW), 'tokenRejected');
    assert.equal(linkHold({ kind: 'lockedOut', untilMs: NOW + 5_000 }, true, NOW), 'lockedOut');
    assert.equal(linkHold({ kind: 'licenseLocked' }, true, NOW), 'licenseLocked');
    assert.equal(linkHold(idle(true), true, NOW), 'onBreak');
    assert.equal(linkHold(tracking(true), true, NOW), 'onBreak');
    assert.equal(linkHold(idle(), true, NOW), undefined);
    assert.equal(linkHold(tracking(), true, NOW), undefined);
    assert.equal(
      linkHold({ kind: 'lockedOut', untilMs: NOW - 1 }, true, NOW),
      'unknown',
      'a lockout that ended: the app has not said since what runs',
    );
  });

  it('acts only on a fresh answer that said what runs: never before one, after a failed poll, or on an old one', () => {
    assert.equal(linkHold({ kind: 'starting' }, true, NOW), 'unknown');
    assert.equal(linkHold({ kind: 'failed', message: 'The app did not answer within 5 s.' }, true, NOW), 'unknown');
    assert.equal(linkHold({ kind: 'unavailable' }, true, NOW), 'unknown');
    assert.equal(linkHold(idle(), true, NOW + 30_000), undefined, 'as old as it may be');
    assert.equal(linkHold(idle(), true, NOW + 30_001), 'unknown');
    assert.equal(linkHold(tracking(), true, NOW + 5_001, 5_000), 'unknown', 'a shorter age from the poll interval');
    assert.equal(linkHold(idle(), true, NOW - 60_000), 'unknown', 'an answer from the future (the clock set back)');
    const held = heldNotice(decision({ branch: 'PROJ-8' }), 'unknown', false);
    assert.match(
      held.accessibilityLabel,
      /PROJ-8 is linked here but was not started: the app did not say just now what it tracks\./,
    );
  });

  it('a failed first poll holds a switch and an opening: no start whose Undo would stop what the app ran', () => {
    const failed: TrackerState = { kind: 'failed', message: 'The app answered 500.' };
    for (const trigger of ['switch', 'open'] as const) {
      assert.deepEqual(
        linkStep(decision({ branch: 'PROJ-9' }), { state: failed, connected: true, nowMs: NOW, trigger }),
        { kind: 'hold', hold: 'unknown' },
      );
    }
  });

  it('an opening starts nothing after the user stopped on purpose; a switch still does', () => {
    const situation = { state: idle(), connected: true, nowMs: NOW, stoppedAtMs: NOW - 1_000 };
    assert.deepEqual(linkStep(decision({ branch: 'PROJ-10' }), { ...situation, trigger: 'open' }), {
      kind: 'stopped',
      stoppedAtMs: NOW - 1_000,
    });
    assert.equal(linkStep(decision({ branch: 'PROJ-10' }), { ...situation, trigger: 'switch' }).kind, 'start');
    assert.deepEqual(
      linkStep(decision({ branch: 'PROJ-10' }), { ...situation, state: { kind: 'offline' }, trigger: 'open' }),
      { kind: 'hold', hold: 'offline' },
      'offline says that first',
    );
  });

  it('says "Tracking PROJ-123 (linked to this branch)", with Undo restarting what ran, or stopping', () => {
    const started = startedNotice(decision({ branch: 'feature/PROJ-123' }), 'PROJ-123', 'Write *docs*', false);
    assert.equal(started.text, '$(link) Tracking PROJ-123 (linked to this branch)');
    assert.equal(started.command, 'timeTracker.undoLink');
    assert.match(started.tooltip, /\[Undo\]\(command:timeTracker\.undoLink\) restarts Write \\\*docs\\\*\./);
    assert.match(started.accessibilityLabel, /^Tracking PROJ-123 \(linked to this branch\)\. Activate to undo\.$/);
    const fromNothing = startedNotice(decision({ branch: 'PROJ-9' }), 'PROJ-9', undefined, false);
    assert.match(fromNothing.tooltip, /\[Undo\]\(command:timeTracker\.undoLink\) stops it again\./);
  });

  it("says whose link started it in the user's words, with a way to it, and never the setting's id", () => {
    const openUser = '[Open your links](command:workbench.action.openSettings?%5B%22timeTracker.links%22%5D)';
    const openRepository =
      "[Open this repository's links](command:workbench.action.openWorkspaceSettings?%5B%22timeTracker.links%22%5D)";
    const yours = startedNotice(decision({ branch: 'fix/PROJ-123' }), 'Code review', undefined, false, 'user');
    assert.ok(
      yours.tooltip.startsWith(
        `Your link for this branch (\\*\\*) started Code review without asking. ${openUser}\n\n`,
      ),
      yours.tooltip,
    );
    const folder = startedNotice(decision({ folder: 'acme' }), 'Code review', undefined, false, 'user');
    assert.ok(
      folder.tooltip.startsWith(`Your link for this folder (acme) started Code review without asking. ${openUser}`),
      folder.tooltip,
    );
    const repository = startedNotice(decision({ branch: 'PROJ-1' }), 'Review', undefined, false, 'workspace');
    assert.ok(
      repository.tooltip.startsWith(
        `This repository's link for this branch (\\*\\*) started Review without asking. ${openRepository}`,
      ),
      repository.tooltip,
    );
    const secret = startedNotice(decision({ folder: 'acme' }), 'Code review', undefined, true, 'workspace');
    assert.ok(
      secret.tooltip.startsWith(
        `This repository's link for this folder started an activity without asking. ${openRepository}`,
      ),
      secret.tooltip,
    );
    for (const notice of [yours, folder, repository, secret])
      assert.doesNotMatch(notice.tooltip.replace(/\]\(command:[^)]*\)/g, ']'), /timeTracker/);
  });

  it('says "linked to this folder" for a folder link, and shows a name from the app as typed, never as an icon', () => {
    const started = startedNotice(decision({ folder: 'acme' }), 'Acme $(bug)', undefined, false);
    assert.equal(started.text, '$(link) Tracking Acme \\$(bug) (linked to this folder)');
    assert.equal(started.accessibilityLabel, 'Tracking Acme $(bug) (linked to this folder). Activate to undo.');
  });

  it('says once why the link did not act, and that nothing is queued', () => {
    const held = heldNotice(decision({ branch: 'PROJ-1' }), 'offline', false);
    assert.equal(held.text, '$(link) PROJ-1 not started');
    assert.equal(
      held.accessibilityLabel,
      'PROJ-1 is linked here but was not started: the app is not answering. Nothing is queued; start it yourself once the app takes requests.',
    );
    assert.notEqual(held.command, 'timeTracker.undoLink');
    for (const hold of ['noToken', 'remoteHost', 'tokenRejected', 'lockedOut', 'licenseLocked', 'onBreak'] as const) {
      assert.match(heldNotice(decision({ branch: 'PROJ-1' }), hold, false).accessibilityLabel, /not started: [a-z]/);
    }
    assert.match(
      failedNotice(decision({ branch: 'PROJ-1' }), 'No such activity.', false).accessibilityLabel,
      /could not be started: No such activity\.$/,
    );
  });

  it('names no activity while the status bar is private: that the linked activity started, with Undo, or why not', () => {
    const secret = 'Client Secret $(bug)';
    const fromBranch = startedNotice(decision({ branch: 'PROJ-7' }), secret, 'Other client', true);
    const fromFolder = startedNotice(decision({ folder: 'acme' }), secret, undefined, true);
    const held = heldNotice(decision({ folder: 'acme' }), 'offline', true);
    const failed = failedNotice(decision({ folder: 'acme' }), `No activity ${secret}.`, true);
    for (const notice of [fromBranch, fromFolder, held, failed]) {
      // A command link's target is not shown; its label is.
      const shown = (words: string): string => words.replace(/\]\(command:[^)]*\)/g, ']');
      for (const words of [notice.text, notice.tooltip, notice.accessibilityLabel])
        assert.doesNotMatch(shown(words), /Client|Secret|Other|Acme|PROJ|bug|\d/, words);
    }
    assert.equal(fromBranch.text, '$(link) Tracking started (linked to this branch)');
    assert.equal(fromBranch.command, 'timeTracker.undoLink');
    assert.match(fromBranch.tooltip, /\[Undo\]\(command:timeTracker\.undoLink\) restarts the previous activity\./);
    assert.equal(fromBranch.accessibilityLabel, 'Tracking started (linked to this branch). Activate to undo.');
    assert.equal(fromFolder.text, '$(link) Tracking started (linked to this folder)');
    assert.match(fromFolder.tooltip, /stops it again\./);
    assert.equal(held.text, '$(link) Linked activity not started');
    assert.match(held.accessibilityLabel, /^The activity linked here was not started: the app is not answering\./);
    assert.equal(failed.command, 'timeTracker.showLog', "the log has the app's words");
  });

  it('shows a notice for a few seconds on an injected clock; a newer one replaces it, and clear ends it', () => {
    const time = new ManualTime();
    const seen: (StatusNotice | undefined)[] = [];
    const notice = new TransientNotice((shown) => seen.push(shown), time);
    const first = heldNotice(decision({ branch: 'PROJ-1' }), 'offline', false);
    let expired = 0;
    notice.show(first, () => expired++);
    assert.equal(notice.current, first);
    time.advance(LINK_NOTICE_MS - 1);
    assert.equal(notice.current, first);
    time.advance(1);
    assert.equal(notice.current, undefined);
    assert.equal(expired, 1);
    assert.deepEqual(seen, [first, undefined]);

    const second = startedNotice(decision({ branch: 'PROJ-2' }), 'PROJ-2', undefined, false);
    notice.show(first, () => expired++);
    time.advance(1_000);
    notice.show(second);
    time.advance(LINK_NOTICE_MS - 1);
    assert.equal(notice.current, second, 'the newer one has its own few seconds');
    assert.equal(expired, 1, 'the replaced one does not expire later');
    notice.clear();
    assert.equal(notice.current, undefined);
    assert.equal(time.pending.size, 0);
  });

  it('starts the linked activity on a switch by name with createIfMissing as the link says, or by the id this window knows', () => {
    const ticketLink = decideLink(
      parseLinks([{ branch: '**', activity: '{ticket}', createIfMissing: true }]).links,
      { folders: ['/w'], branch: 'PROJ-3' },
      ticketKeys([]),
    )!;
    const situation = { state: tracking(), connected: true, nowMs: NOW, trigger: 'switch' as const };
    assert.deepEqual(linkStep(ticketLink, situation), {
      kind: 'start',
      request: { name: 'PROJ-3', createIfMissing: true },
      previous: { activityID: 'a1', activityName: 'Docs' },
    });
    assert.deepEqual(linkStep(decision({ branch: 'PROJ-3' }), { ...situation, state: idle() }), {
      kind: 'start',
      request: { name: 'PROJ-3' },
      previous: undefined,
    });
    const known = { activityID: 'P3', activityName: 'PROJ-3' };
    assert.deepEqual(linkStep(ticketLink, { ...situation, known }), {
      kind: 'start',
      request: { activityID: 'P3' },
      previous: { activityID: 'a1', activityName: 'Docs' },
    });
  });

  it("starts nothing when the linked activity runs, and on a window's opening only while nothing runs", () => {
    const docs = decideLink(
      parseLinks([{ folder: 'w', activity: 'docs' }]).links,
      { folders: ['/w'] },
      ticketKeys([]),
    )!;
    assert.deepEqual(linkStep(docs, { state: tracking(), connected: true, nowMs: NOW, trigger: 'switch' }), {
      kind: 'alreadyRunning',
    });
    assert.deepEqual(
      linkStep(decision({ branch: 'PROJ-4' }), { state: tracking(), connected: true, nowMs: NOW, trigger: 'open' }),
      { kind: 'leave' },
    );
    assert.equal(
      linkStep(decision({ branch: 'PROJ-4' }), { state: idle(), connected: true, nowMs: NOW, trigger: 'open' }).kind,
      'start',
    );
  });

  it('holds back, never queues: offline, no token, locked out, on a break', () => {
    const step = (state: TrackerState, connected = true) =>
      linkStep(decision({ branch: 'PROJ-5' }), { state, connected, nowMs: NOW, trigger: 'switch' });
    assert.deepEqual(step({ kind: 'offline' }), { kind: 'hold', hold: 'offline' });
    assert.deepEqual(step({ kind: 'noToken' }, false), { kind: 'hold', hold: 'noToken' });
    assert.deepEqual(step({ kind: 'lockedOut', untilMs: NOW + 60_000 }), { kind: 'hold', hold: 'lockedOut' });
    assert.deepEqual(step(idle(true)), { kind: 'hold', hold: 'onBreak' });
  });
});
