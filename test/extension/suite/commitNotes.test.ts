/**
 * Log Time's note from the commits, in a real extension host against the reference server and real git: two commits
 * you made on a branch of the workspace's repository are offered, both, as the note, and a colleague's between them
 * is not; the user edits it, and the edited note is what POST /entries carries. The branch is an orphan one, so its
 * history is these three commits alone: the workspace's first commit on `main`, made minutes ago, is no part of what
 * is asserted.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import type { HandledSwitch } from '../../../src/extension/branchReporter';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { ReferenceServer } from '../../../src/server/server';
import { connectToNewServer } from './connected';
import { untilEvent } from './states';
import { withWizardAnswers, type Box, type PickerSeen } from './wizardAnswers';

const TOKEN = 'commit-notes-test-token-8b2f';
const ACTIVITY = 'Notes from commits';
const BRANCH = 'notes-from-commits';
const SUBJECTS = ['Parse the week by ticket', 'Round per ticket and day'];

describe('Log Time offers the subjects of the commits as the note', function () {
  this.timeout(40_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer;
  let root = '';
  const git = (...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=Extension Tests', '-c', 'user.email=tests@example.invalid', ...args], {
      cwd: root,
      encoding: 'utf8',
    });

  /** Runs `switchBranch` and resolves once the extension has handled the switch to `branch`. */
  async function switched(branch: string, switchBranch: () => void): Promise<void> {
    const seen = untilEvent<HandledSwitch | undefined>(
      api.onDidHandleBranchSwitch,
      () => undefined,
      (change) => change?.branch === branch,
      () => `the switch to ${branch} was not handled`,
      10_000,
    );
    switchBranch();
    await seen;
  }

  before(async function () {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) this.skip();
    root = folder.uri.fsPath;
    ({ api, server } = await connectToNewServer(TOKEN, { seedActivities: [ACTIVITY] }));
    assert.deepEqual(await api.branchWatchReady(), [root]);
  });

  after(async () => {
    if (root === '') return;
    git('checkout', '-q', '-f', 'main');
    git('branch', '-q', '-D', BRANCH);
    await server.close();
  });

  it("offers your two commits made on the branch, not a colleague's, and sends the note as edited", async () => {
    await switched(BRANCH, () => git('checkout', '-q', '--orphan', BRANCH));
    const [first, second] = SUBJECTS;
    git('commit', '-q', '--allow-empty', '-m', first!, '-m', 'The body is no note.');
    // The last -c wins: this commit's author is someone else, as a commit pulled or merged in is.
    git('-c', 'user.email=colleague@example.invalid', 'commit', '-q', '--allow-empty', '-m', "A colleague's fix");
    git('commit', '-q', '--allow-empty', '-m', second!);
    const boxes: Box[] = [];
    const seen: PickerSeen[] = [];
    await withWizardAnswers(
      {
        pick: ACTIVITY,
        typed: ['45', (offered) => `${offered}; reviewed`],
        boxes,
        seen,
        pickerTyping: { text: 'Notes from', keystrokeMs: 20 },
      },
      () => vscode.commands.executeCommand('timeTracker.log'),
    );
    assert.equal(boxes.length, 2, JSON.stringify({ boxes, seen }));
    const note = boxes[1]!;
    assert.equal(note.value, SUBJECTS.join('; '));
    assert.equal(note.prompt, `The subjects of 2 commits on ${BRANCH} in the last 45m: edit them, or clear them.`);
    const entries = server.controls.state.listEntries();
    assert.deepEqual(
      entries.map(({ durationMinutes, note: sent }) => [durationMinutes, sent]),
      [[45, `${SUBJECTS.join('; ')}; reviewed`]],
    );
  });
});
