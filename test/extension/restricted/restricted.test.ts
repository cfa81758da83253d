/**
 * A user clones a stranger's repository and opens it: VS Code opens it in Restricted Mode, and its
 * `.vscode/settings.json` (./workspace.mjs) sets every timeTracker.* value that would act in the
 * user's name. The user's own settings (./driver.mjs) say private status bar and a 2 s poll, the
 * app runs idle, and the ledger holds 60 days of the user's history and today's time on a ticket's
 * branch. What the user must get is what an empty folder gives: nothing started or created, the
 * user's pace, the user's privacy, the user's history and ticket keys, and a status bar that keeps
 * following the app on any branch.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { ServiceClient } from '../../../src/client';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import { parseBook } from '../../../src/tracker/branchTime/ledgerBook';
import { requiredParam } from '../launch';
import { EXTENSION_ID } from '../suite/connected';
import { answering } from '../suite/pressEnter';
import { askTool } from '../suite/toolCalls';
import { kind, until } from '../suite/states';
import { withWizardAnswers, type Box } from '../suite/wizardAnswers';

/** ./workspace.mjs's INJECTED_ACTIVITY: the name the repository's links start and create. */
const INJECTED_ACTIVITY = 'Injected by the repository';
/** A branch the repository's `{ "branch": "*" }` link would start and create its activity on. */
const LINKED_BRANCH = 'hostile-switch';
/** At the user's 2 s, a window in the background asks every 6 s at the most, so 14 s hold two answers. */
const PACE_WINDOW_MS = 14_000;

describe('a cloned repository with hostile settings, opened in Restricted Mode', function () {
  this.timeout(60_000);
  const param = (name: string): string => requiredParam(name, 'restricted');
  let api: TimeTrackerApi;
  let app: ServiceClient;
  let root: string;

  /** How many answers of the app the window gets in `ms` (a poll each, as nothing else asks). */
  const answersWithin = (ms: number): Promise<number> =>
    new Promise((resolve) => {
      let count = 0;
      const subscription = api.onDidChangeState(() => count++);
      setTimeout(() => {
        subscription.dispose();
        resolve(count);
      }, ms);
    });

  before(async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the suite opens the hostile repository');
    root = folder.uri.fsPath;
    app = new ServiceClient({ port: Number(param('port')), token: param('token') });
    api = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as TimeTrackerApi;
    await until(api, kind('idle'), "the extension connected to the user's app", 20_000);
  });

  it('opens the folder untrusted', () => {
    assert.equal(vscode.workspace.isTrusted, false);
  });

  it("starts and creates nothing at opening, whatever the repository's links say", async () => {
    await answersWithin(PACE_WINDOW_MS);
    const status = await app.getStatus();
    assert.equal(status.isTracking, false, `the app tracks ${status.currentActivity?.activityName ?? 'something'}`);
    const found = await app.searchActivities(INJECTED_ACTIVITY);
    assert.deepEqual(
      found.map((match) => match.activityName),
      [],
    );
  });

  it("says that Restricted Mode keeps the repository's 2 links unread, in Use This Repository's Links… and the tooltip", async () => {
    console.log(
      'PROBE',
      JSON.stringify(vscode.workspace.getConfiguration('timeTracker').inspect('links')),
      JSON.stringify(
        vscode.workspace.getConfiguration('timeTracker', vscode.workspace.workspaceFolders![0]!.uri).inspect('links'),
      ),
    );
    const seen: { message: string; buttons: unknown[] }[] = [];
    const window = vscode.window as unknown as { showInformationMessage: (...args: unknown[]) => Thenable<unknown> };
    const original = window.showInformationMessage;
    window.showInformationMessage = (message: unknown, ...buttons: unknown[]) => {
      seen.push({ message: String(message), buttons });
      return Promise.resolve(undefined);
    };
    try {
      await vscode.commands.executeCommand('timeTracker.useRepositoryLinks');
    } finally {
      window.showInformationMessage = original;
    }
    assert.equal(seen.length, 1, JSON.stringify(seen));
    assert.match(seen[0]!.message, /^This folder is in Restricted Mode, so its 2 links are not read\./);
    assert.deepEqual(seen[0]!.buttons, ['Manage Workspace Trust']);
    assert.match(api.tooltip, /Restricted Mode/);
    assert.match(api.tooltip, /2 links/);
  });

  it("asks the app at the user's pace, not at the repository's 1e7 seconds", async () => {
    const answers = await answersWithin(PACE_WINDOW_MS);
    // Fewer than two: the repository's interval (or its clamp to an hour) was obeyed; hundreds: a
    // timer overflowed to 1 ms.
    assert.ok(answers >= 2 && answers <= PACE_WINDOW_MS / 1000, `${answers} answers in ${PACE_WINDOW_MS / 1000} s`);
  });

  it("refuses the agent's start, stop and log here, asking nothing and sending nothing; its status tool answers", async () => {
    const writes: [string, object][] = [
      ['timeTracker_start', { name: INJECTED_ACTIVITY, createIfMissing: true }],
      ['timeTracker_logTime', { name: INJECTED_ACTIVITY, createIfMissing: true, durationMinutes: 30 }],
      ['timeTracker_stop', {}],
    ];
    const asked = await answering(async () => {
      for (const [name, input] of writes) {
        const said = await askTool(name, input);
        assert.match(
          said,
          /^This workspace is not trusted, so the time tracker does not start, stop or log time/,
          said,
        );
      }
    });
    assert.deepEqual(asked, [], 'no question for what will not be done');
    assert.equal((await app.getStatus()).isTracking, false);
    assert.deepEqual(
      (await app.searchActivities(INJECTED_ACTIVITY)).map((match) => match.activityName),
      [],
    );
    assert.match(await askTool('timeTracker_status'), /^Not tracking\./);
  });

  it("keeps the user's private status bar while the app tracks", async () => {
    const activity = param('activity');
    await app.startActivity({ name: activity });
    await until(api, kind('tracking'), 'tracking the user’s activity');
    const shown = `${api.text}\n${api.tooltip}`;
    assert.ok(!shown.includes(activity), `the status bar shows the name: ${shown}`);
    assert.doesNotMatch(api.text, /\d+:\d\d|\d+\s?(h|m|min)\b/, `the status bar shows a time: ${api.text}`);
  });

  it("keeps the user's branch-time history past the repository's one day", async () => {
    // Writes this window's time, and with it the pruning by keepDays, before the file is read.
    await api.branchTimeSummary('today');
    const read = parseBook(await readFile(param('ledgerFile'), 'utf8'));
    assert.ok('book' in read, `the ledger is no book: ${'problem' in read ? read.problem : ''}`);
    const history = read.book.rows.filter((row) => row.repository === 'billing-app');
    assert.equal(history.length, Number(param('seededDays')));
  });

  it("writes the ticket keys the user's settings find, not those the repository's prefixes leave", async () => {
    const root = param('ticketRoot');
    const branch = param('ticketBranch');
    await vscode.commands.executeCommand('timeTracker.copyBranchSummary', {
      type: 'branch',
      kind: 'today',
      root,
      branch,
    });
    const text = await vscode.env.clipboard.readText();
    assert.match(text, new RegExp(`^PROJ-7 ${branch}: 25m$`, 'm'), text);
  });

  it("follows the app after a switch to a branch the repository's links match", async () => {
    const switched = new Promise<string>((resolve) => {
      const subscription = api.onDidHandleBranchSwitch((handled) => {
        if (handled.branch !== LINKED_BRANCH) return;
        subscription.dispose();
        resolve(handled.branch);
      });
    });
    execFileSync('git', ['checkout', '-q', '-b', LINKED_BRANCH], { cwd: root, stdio: 'ignore' });
    assert.equal(await switched, LINKED_BRANCH);
    await app.stopActivity();
    await until(api, kind('idle'), 'the stop the app made, after the switch');
    const found = await app.searchActivities(INJECTED_ACTIVITY);
    assert.deepEqual(
      found.map((match) => match.activityName),
      [],
    );
  });

  it("offers no commit of the repository as Log Time's note: nothing of its git is run", async () => {
    const user = vscode.workspace.getConfiguration('timeTracker');
    const wasPrivate = user.inspect<boolean>('statusBar.private')?.globalValue;
    // Public for this test, so that only the folder's trust keeps the commits unread.
    await user.update('statusBar.private', false, vscode.ConfigurationTarget.Global);
    const boxes: Box[] = [];
    try {
      execFileSync(
        'git',
        [
          '-c',
          'user.name=A',
          '-c',
          'user.email=a@example.invalid',
          'commit',
          '-q',
          '--allow-empty',
          '-m',
          'A subject of the repository',
        ],
        { cwd: root, stdio: 'ignore' },
      );
      await withWizardAnswers(
        {
          pick: param('activity'),
          typed: ['20', ''],
          boxes,
          pickerTyping: { text: param('activity'), keystrokeMs: 20 },
        },
        () => vscode.commands.executeCommand('timeTracker.log'),
      );
    } finally {
      await user.update('statusBar.private', wasPrivate, vscode.ConfigurationTarget.Global);
    }
    assert.equal(boxes.length, 2, JSON.stringify(boxes));
    assert.deepEqual([boxes[1]!.value, boxes[1]!.prompt], ['', 'Press Enter to log without a note']);
  });
});
