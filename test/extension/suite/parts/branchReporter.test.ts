/**
 * The branch reporter alone (src/extension/branchReporter.ts), built with a fake session that
 * hands out a real client of the reference server and a recording log and message sink. The test
 * follows its HEAD reads as the composition root does (core.ts), and says itself whether a link
 * decided a switch or the app's own extension reports it. The repository is the suite's workspace
 * folder (real git, made by test/extension/workspace.mjs): the reporter watches the window's
 * folders, and adding one would turn this window into a multi-root workspace, which restarts the
 * extension host.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { ServiceClient } from '../../../../src/client';
import { BranchReporter, type HandledSwitch } from '../../../../src/extension/branchReporter';
import type { Session } from '../../../../src/extension/session';
import { createReferenceServer, type ReferenceServer } from '../../../../src/server/server';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';
import { git } from '../../../support/git';
import { RecordingLog, RecordingMessages, settingsWith } from './fakes';

const TOKEN = 'branch-reporter-part-token-3a9c';
const PREFIX = 'part-reporter';

type SessionPort = Pick<Session, 'state' | 'channel' | 'ready' | 'onDidChangeState'>;

describe('parts: BranchReporter', function () {
  this.timeout(20_000);
  let server: ReferenceServer;
  let session: SessionPort;
  let stateChanged: vscode.EventEmitter<TrackerState>;
  let root = '';
  let startBranch: string;
  let log: RecordingLog;
  let messages: RecordingMessages;
  let reporter: BranchReporter | undefined;
  /** The branches a link decides, as the test says, and every switch the reads brought. */
  const linked = new Set<string>();
  const asked: string[] = [];
  /** The app's own extension that reports switches, as the test says. */
  let appExtension: { readonly id: string } | undefined;
  const follow = (part: BranchReporter): void => {
    part.onDidReadHead(({ switched, fileSystem }) => {
      if (switched === undefined) return;
      asked.push(switched.branch);
      void part.report(switched, fileSystem, { linked: linked.has(switched.branch), appExtension });
    });
  };

  const build = (ignoreBranches: readonly string[] = [`${PREFIX}-tmp-*`]): BranchReporter => {
    const base = settingsWith()();
    const settings = settingsWith({
      git: { ...base.git, reportBranchChanges: true, ignoreBranches },
      branchTime: { ...base.branchTime, enabled: false },
    });
    reporter = new BranchReporter({ session, log, settings, messages });
    follow(reporter);
    return reporter;
  };

  /** Checks out `branch` (made afresh) and resolves with what the reporter did with the switch. */
  const switchTo = async (part: BranchReporter, branch: string): Promise<HandledSwitch> => {
    const handled = new Promise<HandledSwitch>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no switch to ${branch} handled; log:\n${log.toString()}`)),
        10_000,
      );
      const subscription = part.onDidHandle((change) => {
        if (change.branch !== branch) return;
        clearTimeout(timer);
        subscription.dispose();
        resolve(change);
      });
    });
    git(root, 'checkout', '-q', '-B', branch);
    return handled;
  };

  const reports = (): { branch: string; previousBranch: string | null }[] =>
    server.controls.state.listBranchReports().map(({ branch, previousBranch }) => ({ branch, previousBranch }));

  before(async function () {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) this.skip();
    root = folder.uri.fsPath;
    startBranch = git(root, 'rev-parse', '--abbrev-ref', 'HEAD').trim();
    server = createReferenceServer({ token: TOKEN });
    const port = await server.listen(0);
    const client = new ServiceClient({ token: TOKEN, port });
    stateChanged = new vscode.EventEmitter<TrackerState>();
    session = {
      state: { kind: 'idle', onBreak: false, todaySeconds: 0, observedAtMs: Date.now() },
      channel: { kind: 'http', route: { kind: 'http', port }, token: TOKEN, tokenSource: 'secretStorage' },
      ready: () => Promise.resolve(client),
      onDidChangeState: stateChanged.event,
    };
  });

  beforeEach(() => {
    log = new RecordingLog();
    messages = new RecordingMessages(log);
    linked.clear();
    asked.length = 0;
    appExtension = undefined;
  });

  afterEach(() => {
    reporter?.dispose();
    reporter = undefined;
    messages.dispose();
  });

  after(async () => {
    if (root === '') return;
    git(root, 'checkout', '-q', startBranch);
    for (const branch of git(root, 'branch', '--list', `${PREFIX}-*`, '--format=%(refname:short)').split('\n'))
      if (branch !== '') git(root, 'branch', '-q', '-D', branch);
    stateChanged.dispose();
    await server.close();
  });

  it('watches the workspace repository and reports a switch with POST /branch-changed', async () => {
    const part = build();
    await part.apply(false);
    assert.deepEqual(
      part.watched.map(({ repository }) => repository.root),
      [root],
    );
    const before = git(root, 'rev-parse', '--abbrev-ref', 'HEAD').trim();

    const handled = await switchTo(part, `${PREFIX}-feature`);

    assert.equal(handled.outcome, 'reported', log.toString());
    assert.deepEqual(reports(), [{ branch: `${PREFIX}-feature`, previousBranch: before }]);
    const [report] = server.controls.state.listBranchReports();
    assert.ok(report);
    assert.equal(report.repoPath, root, 'the repository root goes along');
    assert.deepEqual(asked, [`${PREFIX}-feature`], 'the read carried the switch');
    assert.ok(log.at('info').includes(`Reported the switch to ${PREFIX}-feature in ${report.repo ?? '?'}.`));
  });

  it('reports no branch its ignore globs match, and logs why', async () => {
    const part = build();
    await part.apply(false);
    const count = reports().length;

    const handled = await switchTo(part, `${PREFIX}-tmp-1`);

    assert.equal(handled.outcome, 'ignored');
    assert.equal(reports().length, count, 'nothing sent');
    assert.ok(
      log.at('info').includes(`Branch ${PREFIX}-tmp-1 is ignored (timeTracker.git.ignoreBranches); not reported.`),
      log.toString(),
    );
  });

  describe('where the repository ignores case (core.ignorecase, as git sets it on a Mac)', () => {
    let ignoreCase: string | undefined;

    /** Sets the workspace repository's core.ignorecase (before the reporter finds it), or unsets it. */
    const setIgnoreCase = (value: string | undefined): void => {
      if (value !== undefined) git(root, 'config', 'core.ignorecase', value);
      else if (git(root, 'config', '--list', '--local').includes('core.ignorecase='))
        git(root, 'config', '--unset-all', 'core.ignorecase');
    };

    before(() => {
      const line = git(root, 'config', '--list', '--local')
        .split('\n')
        .find((entry) => entry.startsWith('core.ignorecase='));
      ignoreCase = line?.slice('core.ignorecase='.length);
    });

    after(() => setIgnoreCase(ignoreCase));

    it('ignores a branch its ignore globs match in another case', async () => {
      setIgnoreCase('true');
      const part = build([`${PREFIX}-skip/*`]);
      await part.apply(false);
      assert.equal(part.watched[0]?.repository.ignoresCase, true, 'read from the config');
      const count = reports().length;

      const handled = await switchTo(part, `${PREFIX}-Skip/One`);

      assert.equal(handled.outcome, 'ignored', log.toString());
      assert.equal(reports().length, count, 'nothing sent');
    });

    it('reports that branch where the repository tells the cases apart', async () => {
      setIgnoreCase('false');
      const part = build([`${PREFIX}-skip/*`]);
      await part.apply(false);
      assert.equal(part.watched[0]?.repository.ignoresCase, false);

      const handled = await switchTo(part, `${PREFIX}-Skip/Two`);

      assert.equal(handled.outcome, 'reported', log.toString());
      assert.equal(reports().at(-1)?.branch, `${PREFIX}-Skip/Two`);
    });
  });

  it('leaves a branch a link decides unreported', async () => {
    const part = build();
    await part.apply(false);
    const count = reports().length;
    linked.add(`${PREFIX}-linked`);

    const handled = await switchTo(part, `${PREFIX}-linked`);

    assert.equal(handled.outcome, 'linked');
    assert.deepEqual(asked, [`${PREFIX}-linked`]);
    assert.equal(reports().length, count, 'nothing sent');
  });

  it("leaves a switch the app's own extension reports unreported, and logs which extension", async () => {
    const part = build();
    await part.apply(false);
    const count = reports().length;
    appExtension = { id: 'NowDoing.nowdoing-vscode' };

    const handled = await switchTo(part, `${PREFIX}-beside`);

    assert.equal(handled.outcome, 'appExtension');
    assert.equal(reports().length, count, 'nothing sent');
    assert.ok(
      log.at('info').some((line) => line.includes('not reported: NowDoing.nowdoing-vscode reports it')),
      log.toString(),
    );
  });

  it('says once, with the settings to fix it, that a glob too long ignores nothing', async () => {
    const part = build([`${PREFIX}-${'x'.repeat(1_100)}*`, 'y'.repeat(1_100)]);
    await part.apply(false);

    const advice = messages.said.filter((said) => said.kind === 'advice');
    assert.equal(advice.length, 1, JSON.stringify(messages.said));
    const [said] = advice;
    assert.ok(said?.kind === 'advice');
    assert.equal(said.action, 'openSettings');
    assert.ok(said.message.includes('1 more in the log'), said.message);
    assert.equal(log.at('warn').length, 2, log.toString());
  });
});
