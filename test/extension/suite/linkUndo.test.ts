/**
 * Undo of a linked start after its status bar notice is gone, in a real extension host: a branch
 * switch starts the linked activity; once the notice went (on its own timer, awaited through its
 * event), the tooltip still says which link started it with Undo, the menu leads with Undo Linked
 * Start, the palette lists the command, and Undo restarts what ran before. After another activity
 * starts, Undo says there is nothing to undo and changes nothing.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { LinkOutcome } from '../../../src/extension/links/linkStart';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { NotificationSpy } from '../soak/spy';
import { commandsOf, withMenuChoice } from './menuAnswers';
import { runningOn } from './connected';
import { kind, until, untilEvent } from './states';

const extensionId = 'clessira-tools.clessira-time-tracker';
const TOKEN = 'link-undo-test-token-5c2d';
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');

describe('links: Undo Automatic Start until what runs changes', function () {
  // The notice stays its real 8 s; each wait is on an event.
  this.timeout(40_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer;
  let root: string;
  const made: string[] = [];
  const git = (...args: string[]): void => void execFileSync('git', args, { cwd: root, stdio: 'ignore' });
  const switchTo = (branch: string): void => {
    made.push(branch);
    git('checkout', '-q', '-b', branch);
  };
  const running = (): string | undefined => runningOn(server);
  const tracks = (name: string): Promise<unknown> =>
    until(api, (state) => state.kind === 'tracking' && state.activity.activityName === name, `${name} running`);
  const nextLink = (): Promise<LinkOutcome> =>
    untilEvent<LinkOutcome | undefined>(
      api.onDidActOnLink,
      () => undefined,
      (outcome) => outcome !== undefined,
      () => `no link outcome; the status bar shows ${api.text}`,
      10_000,
    ) as Promise<LinkOutcome>;
  const noticeGone = (): Promise<boolean> =>
    untilEvent(
      api.onDidChangeLinkNotice,
      () => true,
      (shows) => !shows,
      () => `the notice did not go; the status bar shows ${api.text}`,
      15_000,
    );

  before(async function () {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) this.skip();
    root = folder.uri.fsPath;
    server = createReferenceServer({ token: TOKEN, answers: 'full' });
    const port = await server.listen(0);
    api = (await vscode.extensions.getExtension(extensionId)!.activate()) as TimeTrackerApi;
    await config().update('port', port, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('timeTracker.setToken', TOKEN);
    await until(api, kind('idle'), 'the extension connected to the test server');
    await config().update(
      'links',
      [{ branch: 'fix/**', activity: '{ticket}', createIfMissing: true }],
      vscode.ConfigurationTarget.Global,
    );
    await api.branchWatchReady();
  });

  after(async () => {
    await config().update('links', undefined, vscode.ConfigurationTarget.Global);
    git('checkout', '-q', 'main');
    for (const branch of made.splice(0)) git('branch', '-q', '-D', branch);
    await server.close().catch(() => undefined);
  });

  it('offers Undo in the tooltip, the menu and the palette after the notice is gone, and Undo restarts what ran', async () => {
    server.controls.state.start({ name: 'Docs', createIfMissing: true });
    await tracks('Docs');
    const linked = nextLink();
    switchTo('fix/PROJ-801-login');
    assert.deepEqual(await linked, { kind: 'started', activity: 'PROJ-801', previous: 'Docs' });
    await noticeGone();
    await tracks('PROJ-801');
    assert.ok(!api.text.includes('linked to this branch'), `the notice is gone: ${api.text}`);
    assert.ok(
      api.tooltip.includes('Started by the link for fix/\\*\\*. [Undo](command:timeTracker.undoLink) restarts Docs.'),
      api.tooltip,
    );

    const palette = (
      vscode.extensions.getExtension(extensionId)!.packageJSON as {
        contributes: { menus: { commandPalette: { command: string; when?: string }[] } };
      }
    ).contributes.menus.commandPalette;
    assert.equal(
      palette.find(({ command }) => command === 'timeTracker.undoLink')?.when,
      undefined,
      'listed in the palette in every state',
    );
    assert.ok((await vscode.commands.getCommands(true)).includes('timeTracker.undoLink'));

    const spy = new NotificationSpy();
    const menu = await withMenuChoice('timeTracker.undoLink', () =>
      vscode.commands.executeCommand('timeTracker.showMenu'),
    ).finally(() => spy.dispose());
    assert.deepEqual(
      spy.shown.map(({ message }) => message),
      ['PROJ-801 stays in the app: the link created it, and activities cannot be deleted here.'],
      'the app has no delete',
    );
    assert.equal(commandsOf(menu)[0], 'undoLink', JSON.stringify(menu.entries));
    assert.equal(menu.entries[0]?.label, '$(discard) Undo Automatic Start');
    assert.equal(running(), 'Docs', 'Undo from the menu restarted what ran before');
    await tracks('Docs');
    assert.doesNotMatch(api.tooltip, /undoLink/, 'nothing left to undo');
  });

  it('says there is nothing to undo once another activity started, and changes nothing', async () => {
    const linked = nextLink();
    switchTo('fix/PROJ-802-crash');
    assert.deepEqual(await linked, { kind: 'started', activity: 'PROJ-802', previous: 'Docs' });
    await tracks('PROJ-802');
    server.controls.state.start({ name: 'Standup', createIfMissing: true });
    await tracks('Standup');
    assert.doesNotMatch(api.tooltip, /undoLink/);
    const menu = await withMenuChoice(undefined, () => vscode.commands.executeCommand('timeTracker.showMenu'));
    assert.ok(!commandsOf(menu).includes('undoLink'), JSON.stringify(menu.entries));
    const spy = new NotificationSpy();
    try {
      await vscode.commands.executeCommand('timeTracker.undoLink');
    } finally {
      spy.dispose();
    }
    assert.deepEqual(
      spy.shown.map(({ message }) => message),
      [
        'Nothing to undo: no link started what runs now. Undo takes back a linked start until another activity starts or tracking stops.',
      ],
    );
    assert.equal(running(), 'Standup');
  });
});
