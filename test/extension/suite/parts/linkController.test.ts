/**
 * The link controller alone (src/extension/links/linkController.ts): a real session over a fake
 * secret store against the reference server, the links in the settings it is handed, a recording
 * log and message sink, and the status bar's notice recorded. What a linked branch starts, and
 * what an unlinked one and a refused link do.
 */
import * as assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { WatchedRepository } from '../../../../src/extension/branchReporter';
import { LinkController } from '../../../../src/extension/links/linkController';
import type { LinkOutcome } from '../../../../src/extension/links/linkStart';
import type { Session } from '../../../../src/extension/session';
import type { BranchChange } from '../../../../src/git/branchWatcher';
import { nodeFileSystem } from '../../../../src/platform/fileSystemPort';
import { createReferenceServer, type ReferenceServer } from '../../../../src/server/server';
import { ticketKeys } from '../../../../src/tracker/branchTime/ticketKeys';
import { STORAGE_KEYS } from '../../../../src/tracker/ids';
import type { NoticeWords } from '../../../../src/tracker/links/linkNotice';
import { RecentActivities } from '../../../../src/tracker/pickers/recentActivities';
import { FakeMemento, RecordingLog, RecordingMessages, type FakeSecretStorage } from './fakes';
import { buildSession } from './sessionFakes';

const TOKEN = 'link-part-token-c47a';
const ACTIVITY = 'Link Part Work';

describe('parts: LinkController', function () {
  this.timeout(20_000);
  let server: ReferenceServer;
  let port: number;
  let folder: string;
  let secrets: FakeSecretStorage;
  let session: Session;
  let log: RecordingLog;
  let messages: RecordingMessages;
  let notices: (NoticeWords | undefined)[];
  let controller: LinkController | undefined;

  const build = async (links: unknown, watched: readonly WatchedRepository[] = []): Promise<LinkController> => {
    const linkSettings = { links: { enabled: true, sources: [{ scope: 'user' as const, value: links }] } };
    const { settings, ...built } = buildSession({ port, home: folder, log, token: TOKEN, settings: linkSettings });
    ({ session, secrets } = built);
    await session.reconnect();
    assert.equal(session.state.kind, 'idle', log.toString());
    const recentStore = new FakeMemento();
    controller = new LinkController({
      session,
      branches: { watched },
      log,
      messages,
      settings,
      tickets: () => ticketKeys(settings().ticketPrefixes),
      recent: new RecentActivities({
        get: () => recentStore.get(STORAGE_KEYS.recentActivities),
        update: (value) => recentStore.update(STORAGE_KEYS.recentActivities, value),
      }),
      workspaceState: new FakeMemento(),
      storageFolder: folder,
      trusted: () => true,
    });
    const part = controller;
    part.onDidChangeNotice(() => notices.push(part.notice));
    return controller;
  };

  const switchTo = (branch: string, ignoresCase = false): BranchChange => ({
    repository: { root: join(folder, 'repo'), gitDir: join(folder, 'repo', '.git'), ignoresCase },
    branch,
    previousBranch: 'main',
  });

  const nextOutcome = (part: LinkController): Promise<LinkOutcome> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the link did not act; log:\n${log.toString()}`)), 10_000);
      const subscription = part.onDidAct((outcome) => {
        clearTimeout(timer);
        subscription.dispose();
        resolve(outcome);
      });
    });

  beforeEach(async () => {
    // A server of its own per test: what one link started does not run in the next test.
    server = createReferenceServer({ token: TOKEN, seedActivities: [ACTIVITY] });
    port = await server.listen(0);
    folder = await mkdtemp(join(tmpdir(), 'tt-link-part-'));
    log = new RecordingLog();
    messages = new RecordingMessages(log);
    notices = [];
  });

  afterEach(async () => {
    controller?.dispose();
    controller = undefined;
    session.dispose();
    secrets.dispose();
    messages.dispose();
    await server.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('starts the activity a branch link names, shows it in the status bar and keeps its Undo', async () => {
    const part = await build([{ branch: 'part-link/**', activity: ACTIVITY }]);
    const acted = nextOutcome(part);

    assert.equal(part.decides(switchTo('part-link/one')), true, 'the link decides the switch');
    const outcome = await acted;

    assert.deepEqual(outcome, { kind: 'started', activity: ACTIVITY, previous: undefined });
    const running = server.controls.state.snapshot().running;
    const [activity] = server.controls.state.listActivities();
    assert.equal(running?.activityID, activity?.id);
    assert.ok(
      notices.some((notice) => notice !== undefined),
      'a notice showed',
    );
    assert.equal(part.undo?.started.activityName, ACTIVITY, 'Undo takes back what the link started');
  });

  it('leaves a branch no link names to the branch reporter, and starts nothing', async () => {
    const part = await build([{ branch: 'part-link/**', activity: ACTIVITY }]);
    assert.equal(part.decides(switchTo('unlinked')), false);
    assert.equal(server.controls.state.snapshot().running, null);
    assert.deepEqual(notices, []);
  });

  it('decides a switch to the branch in another case only where the repository ignores case', async () => {
    const part = await build([{ branch: 'part-link/login', activity: ACTIVITY }]);
    assert.equal(part.decides(switchTo('part-link/Login')), false, 'another branch where case counts');
    assert.equal(server.controls.state.snapshot().running, null);
    const acted = nextOutcome(part);

    assert.equal(part.decides(switchTo('part-link/Login', true)), true, 'the same branch where git ignores case');

    assert.equal((await acted).kind, 'started');
  });

  it("reads a folder's branch by the name the watcher first saw, where the repository ignores case", async () => {
    const root = join(folder, 'repo');
    await mkdir(join(root, '.git'), { recursive: true });
    // What git on a Mac writes after `git checkout part-link/Login` on part-link/login.
    await writeFile(join(root, '.git', 'HEAD'), 'ref: refs/heads/part-link/Login\n');
    const watchedAs = (ignoresCase: boolean): WatchedRepository => ({
      repository: { root, gitDir: join(root, '.git'), ignoresCase },
      fileSystem: nodeFileSystem,
      lastBranch: 'part-link/login',
    });
    // The controller reads the list each time it asks, as it reads the branch reporter's.
    const watched = [watchedAs(true)];
    const part = await build([], watched);
    assert.equal(await part.branchOf(vscode.Uri.file(root)), 'part-link/login');
    assert.equal(await part.branchOf(vscode.Uri.file(join(root, 'src'))), 'part-link/login', 'a folder inside');
    watched[0] = watchedAs(false);
    assert.equal(await part.branchOf(vscode.Uri.file(root)), 'part-link/Login', 'as HEAD says where case counts');
    assert.equal(await part.branchOf(vscode.Uri.file(folder)), 'part-link/Login', 'the folder holding it');
  });

  it('says once, with the settings to fix it, why a link is refused', async () => {
    await build([{ branch: 'part-link/**' }]);
    const advice = messages.said.filter((said) => said.kind === 'advice');
    assert.equal(advice.length, 1, JSON.stringify(messages.said));
    assert.ok(advice[0]?.kind === 'advice' && advice[0].action === 'openSettings');
    assert.ok(log.at('warn').length > 0, log.toString());
  });
});
