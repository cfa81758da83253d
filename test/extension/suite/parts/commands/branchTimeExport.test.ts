/**
 * Export Time by Branch as CSV from a keybinding's arguments (src/extension/commands/branchTime.ts)
 * through its services: the branch-time part as a small fake over rows the test writes
 * (./branchTimeFake.ts), a recording log and message sink, and the save dialog answered with a
 * file in a temporary folder. What is written there, and what is said instead when there is
 * nothing to write or the file cannot be written.
 */
import * as assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { exportBranchTimeCsv } from '../../../../../src/extension/commands/branchTime';
import type { CommandServices } from '../../../../../src/extension/commands/services';
import type { LedgerRow } from '../../../../../src/tracker/branchTime/ledgerBook';
import { RecordingLog, RecordingMessages } from '../fakes';
import { branchTimeFake, rowToday } from './branchTimeFake';

describe('parts: commands/branchTime (Export as CSV)', () => {
  let folder: string;
  let log: RecordingLog;
  let messages: RecordingMessages;
  /** The save dialogs shown: each answers with `target`. */
  let dialogs: number;
  let target: vscode.Uri | undefined;
  const window = vscode.window as unknown as Record<'showSaveDialog', unknown>;
  const showSaveDialog = window.showSaveDialog;

  const servicesWith = (enabled: boolean, rows: readonly LedgerRow[]): CommandServices => {
    const used: Pick<CommandServices, 'branchTime' | 'messages' | 'log'> = {
      branchTime: branchTimeFake(enabled, rows).part,
      messages,
      log,
    };
    return used as CommandServices;
  };

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tt-export-part-'));
    log = new RecordingLog();
    messages = new RecordingMessages(log);
    dialogs = 0;
    target = vscode.Uri.file(join(folder, 'today.csv'));
    window.showSaveDialog = () => {
      dialogs++;
      return Promise.resolve(target);
    };
  });

  afterEach(async () => {
    window.showSaveDialog = showSaveDialog;
    messages.dispose();
    await rm(folder, { recursive: true, force: true });
  });

  it("writes the period's rows to the file chosen, and says how many and where, with Open", async () => {
    const row = rowToday();
    await exportBranchTimeCsv(servicesWith(true, [row]), { period: 'today' });

    const csv = await readFile(join(folder, 'today.csv'), 'utf8');
    assert.deepEqual(csv.split('\r\n'), [
      '\uFEFFdate,repository,branch,ticket,activity,seconds',
      `${row.day},shop,feature/PROJ-7-login,PROJ-7,Review,1500`,
      '',
    ]);
    const file = join(folder, 'today.csv');
    assert.deepEqual(messages.said, [
      { kind: 'info', message: `Exported 1 row of time by branch (Today) to ${file}.`, actions: ['Open'] },
    ]);
    assert.ok(log.at('info').includes(`timeTracker.exportBranchTimeCsv: wrote 1 rows to ${file}.`), log.toString());
  });

  it('says there is nothing to export for an empty period, and asks for no file', async () => {
    await exportBranchTimeCsv(servicesWith(true, [rowToday()]), { period: 'lastWeek' });

    assert.equal(dialogs, 0);
    assert.deepEqual(messages.said, [
      { kind: 'info', message: 'No time by branch for Last Week: there is nothing to export.', actions: [] },
    ]);
  });

  it('says why a file cannot be written, with Show Log, and exports nothing', async () => {
    target = vscode.Uri.file(join(folder, 'no-such-folder', 'today.csv'));
    // A file where the folder should be: the write cannot make it.
    await vscode.workspace.fs.writeFile(vscode.Uri.file(join(folder, 'no-such-folder')), new Uint8Array());

    await exportBranchTimeCsv(servicesWith(true, [rowToday()]), { period: 'today' });

    assert.equal(existsSync(target.fsPath), false);
    const [said] = messages.said;
    assert.ok(said?.kind === 'error', JSON.stringify(messages.said));
    assert.ok(said.message.startsWith(`Could not write ${target.fsPath}: `), said.message);
    assert.deepEqual(said.actions, ['Show Log']);
    assert.equal(log.at('error').length, 1, log.toString());
  });
});
