/**
 * The coexistence part alone (src/extension/coexistence/coexistence.ts), built with a memento, a
 * recording log, a list of installed extensions and an answer the test gives in place of the user.
 * Only this extension is installed in this host, so the app's own extension is a manifest in that
 * list: its settings are not registered here, which is also how a write that fails is seen.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Coexistence } from '../../../../src/extension/coexistence/coexistence';
import type { InstalledExtension } from '../../../../src/tracker/coexistence/peers';
import { STORAGE_KEYS } from '../../../../src/tracker/ids';
import { FakeMemento, RecordingLog, settingsWith } from './fakes';

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
const BRANCHES = /reports branch switches too/;
const STATUS_BAR = /shows the running activity in the status bar too/;

describe('parts: Coexistence', function () {
  this.timeout(20_000);
  let memento: FakeMemento;
  let log: RecordingLog;
  let installed: InstalledExtension[];
  let changed: vscode.EventEmitter<void>;
  let asked: string[];
  let failures: string[];
  let told: string[];
  let part: Coexistence | undefined;

  /** The part, with `answer` choosing among each question's labels (undefined: dismissed). */
  const build = (answer: (message: string, labels: string[]) => string | undefined): Coexistence => {
    part = new Coexistence({
      ownId: OWN_ID,
      memento,
      log,
      settings: settingsWith(),
      ask: (message, ...labels) => {
        asked.push(message);
        return Promise.resolve(answer(message, labels));
      },
      extensions: () => installed,
      onDidChangeExtensions: changed.event,
      tell: { info: (message) => told.push(message), error: (message) => failures.push(message) },
    });
    return part;
  };

  beforeEach(() => {
    memento = new FakeMemento();
    log = new RecordingLog();
    installed = [PEER];
    changed = new vscode.EventEmitter<void>();
    asked = [];
    failures = [];
    told = [];
  });

  afterEach(async () => {
    part?.dispose();
    changed.dispose();
    const config = vscode.workspace.getConfiguration();
    await config.update('timeTracker.git.reportBranchChanges', undefined, vscode.ConfigurationTarget.Global);
    await config.update('timeTracker.statusBar.format', undefined, vscode.ConfigurationTarget.Global);
  });

  it('says nothing when only this extension is installed', async () => {
    installed = [];
    await build(() => undefined).check();
    assert.deepEqual(asked, []);
    assert.deepEqual(memento.keys(), []);
  });

  it('asks about branches, then the status bar; "Keep the app’s extension" turns ours off in the user settings and logs it', async () => {
    await build((_message, labels) => labels[1]).check();
    assert.equal(asked.length, 2);
    assert.match(asked[0] ?? '', BRANCHES);
    assert.match(asked[1] ?? '', STATUS_BAR);
    const inspected = vscode.workspace.getConfiguration('timeTracker').inspect('git.reportBranchChanges');
    assert.ok(inspected);
    assert.equal(inspected.globalValue, false);
    const format = vscode.workspace.getConfiguration('timeTracker').inspect('statusBar.format');
    assert.equal(format?.globalValue, '{today}');
    assert.equal(inspected.workspaceValue, undefined);
    const applied = log.at('info').filter((line) => line.includes('in the user settings'));
    assert.equal(applied.length, 2, log.toString());
    assert.match(applied[0] ?? '', /timeTracker\.git\.reportBranchChanges = false/);
    assert.deepEqual(memento.get(STORAGE_KEYS.coexistence), {
      branches: { answer: 'theirs', peers: 'nowdoing.nowdoing-vscode' },
      statusBar: { answer: 'theirs', peers: 'nowdoing.nowdoing-vscode' },
    });
  });

  it('remembers a dismissal without changing a setting, and asks again only when the app’s extensions change', async () => {
    const coexistence = build(() => undefined);
    await coexistence.check();
    assert.equal(asked.length, 2);
    assert.equal(
      vscode.workspace.getConfiguration('timeTracker').inspect('git.reportBranchChanges')?.globalValue,
      undefined,
    );
    await coexistence.check();
    assert.equal(asked.length, 2, 'asked again at the next start');
    installed = [
      PEER,
      {
        id: 'Clessira.clessira-vscode',
        packageJSON: { contributes: { configuration: { properties: { 'clessira.enabled': {} } } } },
      },
    ];
    changed.fire();
    await coexistence.check();
    assert.equal(asked.length, 4, 'not asked again once another of the app’s extensions came');
  });

  it('says so when the other’s setting cannot be written, and remembers the answer', async () => {
    // "Let Clessira Time Tracker report branches": nowdoing.enabled is no registered setting in this host.
    await build((message, labels) => (BRANCHES.test(message) ? labels[0] : undefined)).check();
    assert.equal(failures.length, 1);
    assert.match(failures[0] ?? '', /Let Clessira Time Tracker report branches.*could not change your user settings/);
    assert.equal(log.at('warn').length, 1, log.toString());
    assert.equal((memento.get(STORAGE_KEYS.coexistence) as { branches?: { answer: string } }).branches?.answer, 'ours');
  });

  it('Ask Again forgets the answer and asks anew; with nothing doubled, it says so', async () => {
    const coexistence = build(() => undefined);
    await coexistence.check();
    assert.equal(asked.length, 2);
    await coexistence.askAgain();
    assert.equal(asked.length, 4, 'asked again on demand');
    assert.deepEqual(told, []);
    installed = [];
    await coexistence.askAgain();
    assert.equal(asked.length, 4);
    assert.deepEqual(told, [
      "The app's own extension is not installed or not enabled here, so there is nothing to choose.",
    ]);
  });
});
