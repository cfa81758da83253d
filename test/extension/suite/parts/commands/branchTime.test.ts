/**
 * Copy Summary (src/extension/commands/branchTime.ts) through its services: the branch-time part
 * as a small fake over rows the test writes (the summary and the ticket pattern are the real pure
 * functions), a recording message sink, and the window's real clipboard. What it copies, and what
 * it says instead when the ledger is off or the period is empty.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { BranchTime } from '../../../../../src/extension/branchTime/branchTime';
import { copyBranchSummary } from '../../../../../src/extension/commands/branchTime';
import type { CommandServices } from '../../../../../src/extension/commands/services';
import { ticketMatcher } from '../../../../../src/tracker/branchTime/copySummary';
import { dayOf, type LedgerRow } from '../../../../../src/tracker/branchTime/ledgerBook';
import { summarize } from '../../../../../src/tracker/branchTime/summary';
import { RecordingLog, RecordingMessages } from '../fakes';

const UNTOUCHED = 'the clipboard before the command';

describe('parts: commands/branchTime (Copy Summary)', () => {
  let messages: RecordingMessages;
  let refreshed: number;

  const servicesWith = (enabled: boolean, rows: readonly LedgerRow[]): CommandServices => {
    const branchTime: Pick<BranchTime, 'enabled' | 'summary' | 'ticketMatcher'> & {
      ledger: Pick<BranchTime['ledger'], 'refresh'>;
    } = {
      enabled,
      ledger: {
        refresh: () => {
          refreshed++;
          return Promise.resolve();
        },
      },
      summary: (kind) => summarize(rows, kind, Date.now()),
      ticketMatcher: () => ticketMatcher(''),
    };
    const used: Pick<CommandServices, 'branchTime' | 'messages'> = {
      branchTime: branchTime as BranchTime,
      messages,
    };
    return used as CommandServices;
  };
  const today: LedgerRow = {
    root: '/work/shop',
    repository: 'shop',
    branch: 'feature/PROJ-7-login',
    activityID: 'a1',
    activityName: 'Review',
    day: dayOf(Date.now()),
    ms: 25 * 60_000,
    firstMs: Date.now() - 30 * 60_000,
    lastMs: Date.now() - 5 * 60_000,
  };

  beforeEach(async () => {
    messages = new RecordingMessages(new RecordingLog());
    refreshed = 0;
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
    assert.equal(refreshed, 1, 'the ledger was read again first');
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
    assert.equal(refreshed, 0);
    assert.deepEqual(messages.said, [
      {
        kind: 'info',
        message: 'Tracking by branch is off (timeTracker.branchTime.enabled), so there is no summary to copy.',
        actions: ['Open Settings'],
      },
    ]);
  });
});
