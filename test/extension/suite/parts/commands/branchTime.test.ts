/**
 * Copy Summary (src/extension/commands/branchTime.ts) through its services: the branch-time part
 * as a small fake over rows the test writes (./branchTimeFake.ts), a recording message sink, and
 * the window's real clipboard. What it copies, and what it says instead when the ledger is off or
 * the period is empty.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { copyBranchSummary } from '../../../../../src/extension/commands/branchTime';
import type { CommandServices } from '../../../../../src/extension/commands/services';
import type { LedgerRow } from '../../../../../src/tracker/branchTime/ledgerBook';
import { RecordingLog, RecordingMessages } from '../fakes';
import { branchTimeFake, rowToday, type BranchTimeFake } from './branchTimeFake';

const UNTOUCHED = 'the clipboard before the command';

describe('parts: commands/branchTime (Copy Summary)', () => {
  let messages: RecordingMessages;
  let branchTime: BranchTimeFake;

  const servicesWith = (enabled: boolean, rows: readonly LedgerRow[]): CommandServices => {
    branchTime = branchTimeFake(enabled, rows);
    const used: Pick<CommandServices, 'branchTime' | 'messages'> = { branchTime: branchTime.part, messages };
    return used as CommandServices;
  };
  const today = rowToday();

  beforeEach(async () => {
    messages = new RecordingMessages(new RecordingLog());
    await vscode.env.clipboard.writeText(UNTOUCHED);
  });

  afterEach(() => {
    messages.dispose();
  });

  it("copies the period's lines, a branch by its ticket key with its activity, read afresh from the ledger", async () => {
    await copyBranchSummary(servicesWith(true, [today]), { kind: 'today' }, 'plain');

    const text = await vscode.env.clipboard.readText();
    assert.match(text, /^Time by branch, Today \(\d{4}-\d\d-\d\d\): 25m$/m);
    assert.match(text, /^PROJ-7.*: 25m$/m);
    assert.match(text, /^ {2}Review: 25m$/m);
    assert.equal(branchTime.refreshed(), 1, 'the ledger was read again first');
    assert.deepEqual(messages.said, [{ kind: 'status', message: 'Copied the summary of Today.' }]);
  });

  it('says there is nothing yet for a period without time, and copies nothing', async () => {
    await copyBranchSummary(servicesWith(true, [today]), { kind: 'lastWeek' }, 'markdown');

    assert.equal(await vscode.env.clipboard.readText(), UNTOUCHED);
    assert.deepEqual(messages.said, [
      {
        kind: 'info',
        message: 'No time by branch for Last Week yet: it is counted while the app tracks an activity.',
        actions: [],
      },
    ]);
  });

  it('with tracking by branch off, says so with Open Settings, and copies nothing', async () => {
    await copyBranchSummary(servicesWith(false, [today]), { kind: 'today' }, 'plain');

    assert.equal(await vscode.env.clipboard.readText(), UNTOUCHED);
    assert.equal(branchTime.refreshed(), 0);
    assert.deepEqual(messages.said, [
      {
        kind: 'info',
        message: 'Tracking by branch is off (timeTracker.branchTime.enabled), so there is no summary to copy.',
        actions: ['Open Settings'],
      },
    ]);
  });
});
