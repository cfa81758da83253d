import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from '../../../../src/tracker/ids';
import { linkUndo, undoAfter, undoParagraph, type LinkUndo } from '../../../../src/tracker/links/linkUndo';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';
import { menuFor } from '../../../../src/tracker/pickers/menu';
import type { StatusBarInputs } from '../../../../src/tracker/statusBar/factTypes';
import { statusBarItem } from '../../../../src/tracker/statusBar/statusBarItem';

const NOW = 1_000_000;
const docs = { activityID: 'A1', activityName: 'Docs' };
const ticket = { activityID: 'b2', activityName: 'PROJ-123' };
const tracking = (activity: { activityID: string; activityName: string }, onBreak = false): TrackerState => ({
  kind: 'tracking',
  activity,
  onBreak,
  startedAtMs: undefined,
  appClockOffsetMs: 0,
  todaySeconds: 0,
  observedAtMs: NOW,
});
const idle: TrackerState = { kind: 'idle', onBreak: false, todaySeconds: 0, observedAtMs: NOW };
const branchLink = { position: 1, branch: 'fix/**', activity: '{ticket}', createIfMissing: true };
const fromDocs = linkUndo(branchLink, { activityID: 'B2', activityName: 'PROJ-123' }, docs);
const fromNothing = linkUndo(branchLink, { activityID: undefined, activityName: 'PROJ-123' }, undefined);

/** The undo after each state in turn (undefined once it ended). */
function after(undo: LinkUndo, ...states: TrackerState[]): LinkUndo | undefined {
  let kept: LinkUndo | undefined = undo;
  for (const state of states) kept = kept && undoAfter(kept, state);
  return kept;
}

describe('tracker/links/linkUndo: Undo of a linked start stands until what runs changes', () => {
  it('stands while the started activity runs, however long (no notice timing in the decision), on a break too', () => {
    assert.ok(after(fromDocs, tracking(ticket), tracking(ticket), tracking(ticket, true), tracking(ticket)));
    assert.ok(after(fromNothing, tracking(ticket)), 'by name when the app did not give the id');
  });

  it('stands while no answer says what runs: offline, token rejected, a failed poll', () => {
    assert.ok(
      after(
        fromDocs,
        tracking(ticket),
        { kind: 'offline' },
        { kind: 'failed', message: 'x' },
        { kind: 'tokenRejected', clockSkewSeconds: undefined },
      ),
    );
  });

  it('ends once an answer shows another activity or none: started or stopped by anyone', () => {
    assert.equal(
      after(fromDocs, tracking(ticket), tracking(docs)),
      undefined,
      'the user (or Undo elsewhere) went back',
    );
    assert.equal(after(fromDocs, tracking(ticket), tracking({ activityID: 'c3', activityName: 'Standup' })), undefined);
    assert.equal(after(fromDocs, tracking(ticket), idle), undefined, 'stopped');
    assert.equal(after(fromNothing, tracking(ticket), idle), undefined);
  });

  it('waits for the start while answers still show what ran before it, but not for a third activity', () => {
    assert.equal(after(fromDocs, tracking(docs)), fromDocs, 'an answer older than the start');
    assert.equal(after(fromNothing, idle), fromNothing);
    assert.equal(after(fromDocs, idle), undefined, 'nothing ran before, and nothing runs: stopped since');
    assert.equal(after(fromDocs, tracking({ activityID: 'c3', activityName: 'Standup' })), undefined);
  });

  it('says in the tooltip which link started what runs, with Undo; private, without the branch or names', () => {
    assert.equal(
      undoParagraph(fromDocs, false),
      'Started by the link for fix/\\*\\*. [Undo](command:timeTracker.undoLink) restarts Docs.',
    );
    assert.equal(
      undoParagraph(fromNothing, false),
      'Started by the link for fix/\\*\\*. [Undo](command:timeTracker.undoLink) stops it again.',
    );
    assert.equal(
      undoParagraph({ branch: undefined, previous: docs }, false),
      'Started by the link for this folder. [Undo](command:timeTracker.undoLink) restarts Docs.',
    );
    assert.equal(
      undoParagraph(fromDocs, true),
      'Started by a link. [Undo](command:timeTracker.undoLink) restarts the previous activity.',
    );
  });

  it('puts the paragraph in the tracking tooltip only while Undo stands', () => {
    const settings: StatusBarInputs = {
      nowMs: NOW,
      showTodayTotal: true,
      maxNameLength: 40,
      route: { kind: 'http', port: 1 },
    };
    const plain = statusBarItem(tracking(ticket), settings).tooltip;
    assert.doesNotMatch(plain, /undoLink/);
    const linked = statusBarItem(tracking(ticket), { ...settings, linkedStart: fromDocs }).tooltip;
    assert.match(
      linked,
      /Started by the link for fix\/\\\*\\\*\. \[Undo\]\(command:timeTracker\.undoLink\) restarts Docs\./,
    );
    assert.doesNotMatch(
      statusBarItem(tracking(ticket), { ...settings, linkedStart: fromDocs, private: true }).tooltip,
      /Docs|fix/,
    );
  });

  it('offers Undo Automatic Start first in the menu while it stands, saying what it restarts', () => {
    const [first] = menuFor(tracking(ticket), true, 0, { started: 'PROJ-123', previous: 'Docs' });
    assert.deepEqual(first, {
      label: '$(discard) Undo Automatic Start',
      command: COMMANDS.undoLink,
      detail: 'Restarts Docs instead of PROJ-123',
    });
    assert.equal(
      menuFor(tracking(ticket), true, 0, { started: 'PROJ-123', previous: undefined })[0]?.detail,
      'Stops PROJ-123, which a link started',
    );
    assert.ok(!menuFor(tracking(ticket), true, 0).some(({ command }) => command === COMMANDS.undoLink));
  });

  it('lists Undo Automatic Start in the palette in every state, under a title "Time Tracker: Undo" finds', () => {
    const root = join(__dirname, '..', '..', '..', '..', '..');
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      contributes: { menus: { commandPalette: { command: string; when?: string }[] } };
    };
    const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
    assert.equal(
      manifest.contributes.menus.commandPalette.find(({ command }) => command === COMMANDS.undoLink)?.when,
      undefined,
      'no `when` hides it',
    );
    assert.match(`${nls['command.category']}: ${nls['command.undoLink']}`, /^Time Tracker: Undo\b/);
  });
});
