/**
 * The coexistence part alone (src/extension/coexistence/coexistence.ts), built with a memento, a
 * recording log and message sink, and a list of installed extensions. Only this extension is
 * installed in this host, so the app's own extension is a manifest in that list; its settings are
 * not registered here, so they read as its manifest's defaults: on.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Coexistence } from '../../../../src/extension/coexistence/coexistence';
import type { Settings } from '../../../../src/extension/settings';
import type { InstalledExtension } from '../../../../src/tracker/coexistence/peers';
import { STORAGE_KEYS } from '../../../../src/tracker/ids';
import { FakeMemento, RecordingLog, RecordingMessages, settingsWith } from './fakes';

const OWN_ID = 'clessira-tools.clessira-time-tracker';
const PEER: InstalledExtension = {
  id: 'NowDoing.nowdoing-vscode',
  packageJSON: {
    contributes: {
      configuration: {
        properties: { 'nowdoing.enabled': {}, 'nowdoing.showCurrentActivity': {}, 'nowdoing.showElapsedTime': {} },
      },
    },
  },
};
const BRANCHES = /reports branch switches in this window, so this one does not/;
const STATUS_BAR = /status bar too\. To hide either item, right-click the status bar/;

describe('parts: Coexistence', function () {
  this.timeout(20_000);
  let memento: FakeMemento;
  let log: RecordingLog;
  let messages: RecordingMessages;
  let installed: InstalledExtension[];
  let changed: vscode.EventEmitter<void>;
  let part: Coexistence | undefined;

  const build = (git: Partial<Settings['git']> = {}): Coexistence => {
    const base = settingsWith()();
    part = new Coexistence({
      ownId: OWN_ID,
      memento,
      log,
      settings: settingsWith({ git: { ...base.git, reportBranchChanges: true, ...git } }),
      messages,
      extensions: () => installed,
      onDidChangeExtensions: changed.event,
    });
    return part;
  };

  const userValues = (): unknown[] => {
    const config = vscode.workspace.getConfiguration();
    return ['timeTracker.git.reportBranchChanges', 'timeTracker.statusBar.format'].map(
      (key) => config.inspect(key)?.globalValue,
    );
  };

  beforeEach(() => {
    memento = new FakeMemento();
    log = new RecordingLog();
    messages = new RecordingMessages(log);
    installed = [PEER];
    changed = new vscode.EventEmitter<void>();
  });

  afterEach(() => {
    part?.dispose();
    part = undefined;
    changed.dispose();
    messages.dispose();
  });

  it('says nothing and steps aside for nothing when only this extension is installed', async () => {
    installed = [];
    const coexistence = build();
    await coexistence.check();
    assert.equal(coexistence.reportingPeer(), undefined);
    assert.deepEqual(messages.said, []);
    assert.deepEqual(memento.keys(), []);
  });

  it('leaves branch reports to the app’s extension and says so once, with the status bar, in one message', async () => {
    const before = userValues();
    const coexistence = build();
    await coexistence.check();

    assert.equal(coexistence.reportingPeer()?.id, PEER.id);
    assert.equal(messages.said.length, 1, JSON.stringify(messages.said));
    const [said] = messages.said;
    assert.ok(said?.kind === 'info');
    assert.match(said.message, BRANCHES);
    assert.match(said.message, STATUS_BAR);
    assert.deepEqual(said.actions, ['Open Settings']);
    assert.ok(log.at('info').some((line) => line.includes(`Beside ${PEER.id}, which reports branch switches`)));

    await coexistence.check();
    changed.fire();
    await coexistence.check();
    assert.equal(messages.said.length, 1, 'said once, not at each look');
    assert.deepEqual(userValues(), before, 'no setting written');
  });

  it('remembers what was said for every window: a new window says nothing again', async () => {
    await build().check();
    part?.dispose();
    await build().check();
    assert.equal(messages.said.length, 1);
    assert.deepEqual(memento.get(STORAGE_KEYS.coexistence), { branches: PEER.id, statusBar: PEER.id });
  });

  it('reports beside it where the user’s own reportBranchChanges is "always", and says only the status bar', async () => {
    const coexistence = build({ reportBranchChanges: 'always', reportBesideAppExtension: true });
    await coexistence.check();
    assert.equal(coexistence.reportingPeer(), undefined);
    const [said] = messages.said;
    assert.ok(said?.kind === 'info');
    assert.doesNotMatch(said.message, BRANCHES);
    assert.match(said.message, STATUS_BAR);
    assert.deepEqual(said.actions, []);
  });

  it('says nothing of branches while this extension’s own reports are off', async () => {
    await build({ reportBranchChanges: false }).check();
    const [said] = messages.said;
    assert.ok(said?.kind === 'info');
    assert.doesNotMatch(said.message, BRANCHES);
  });

  it('looks again when the installed extensions change, and tells the status bar', async () => {
    installed = [];
    const coexistence = build();
    await coexistence.check();
    let told = 0;
    coexistence.onDidChange(() => told++);
    installed = [PEER];
    const said = messages.next((one) => one.kind === 'info', 'the message beside the app’s extension');
    changed.fire();
    await said;
    assert.equal(coexistence.reportingPeer()?.id, PEER.id);
    assert.ok(told >= 1, 'the status bar hears of it');
  });
});
