/**
 * The branch-time part alone (src/extension/branchTime/branchTime.ts), built with a temporary
 * storage folder, a fake workspaceState, a branch reporter that watches no repository (so the
 * window counts under its first folder's name), a session whose state the test sets, a recording
 * log and message sink, and settings the test changes: where the window's ledger id is kept, what
 * a ledger file that cannot be read and a refused ticket prefix make it say, and what turning it
 * off does to the status bar's line.
 */
import * as assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { BranchReporter } from '../../../../src/extension/branchReporter';
import { BranchTime } from '../../../../src/extension/branchTime/branchTime';
import type { Session } from '../../../../src/extension/session';
import type { Settings } from '../../../../src/extension/settings';
import { nodeFileSystem } from '../../../../src/platform/fileSystemPort';
import { dayOf, EMPTY_BOOK, serializeBook } from '../../../../src/tracker/branchTime/ledgerBook';
import { LEDGER_FILE } from '../../../../src/tracker/branchTime/ledgerStore';
import { STORAGE_KEYS } from '../../../../src/tracker/ids';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';
import { FakeMemento, RecordingLog, RecordingMessages, settingsWith } from './fakes';

describe('parts: BranchTime', function () {
  this.timeout(20_000);
  let folder: string;
  let workspaceState: FakeMemento;
  let log: RecordingLog;
  let messages: RecordingMessages;
  let current: Settings;
  let stateChanged: vscode.EventEmitter<TrackerState>;
  const built: BranchTime[] = [];

  const build = (watched: BranchReporter['watched'] = [], now?: () => number): BranchTime => {
    const session: Pick<Session, 'onDidChangeState'> = { onDidChangeState: stateChanged.event };
    const part = new BranchTime({
      storageFolder: folder,
      workspaceState,
      session: session as Session,
      branches: { watched },
      log,
      messages,
      settings: () => current,
      ...(now === undefined ? {} : { now }),
    });
    built.push(part);
    return part;
  };
  const withSettings = (changes: Partial<Settings>): void => {
    current = { ...current, ...changes };
  };

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tt-branch-time-part-'));
    workspaceState = new FakeMemento();
    log = new RecordingLog();
    messages = new RecordingMessages(log);
    const base = settingsWith()();
    current = { ...base, branchTime: { ...base.branchTime, enabled: true } };
    stateChanged = new vscode.EventEmitter();
  });

  afterEach(async () => {
    for (const part of built.splice(0)) {
      part.dispose();
      // Disposing writes the ledger a last time; writes run one at a time, so this waits for it.
      await part.ledger.flush();
    }
    stateChanged.dispose();
    messages.dispose();
    await rm(folder, { recursive: true, force: true });
  });

  it("keeps the window's ledger id in workspaceState, and the next activation of the window reuses it", () => {
    build();
    const id = workspaceState.get<string>(STORAGE_KEYS.branchTimeWindow);
    assert.ok(typeof id === 'string' && id !== '', 'an id was kept');

    build();

    assert.equal(workspaceState.get(STORAGE_KEYS.branchTimeWindow), id);
  });

  it('keeps a ledger file it cannot read aside, says so once, and starts a new one', async () => {
    await writeFile(join(folder, LEDGER_FILE), 'not a ledger');
    const part = build();

    await part.start(Promise.resolve());

    const warnings = messages.said.filter((said) => said.kind === 'warning');
    assert.equal(warnings.length, 1, JSON.stringify(messages.said));
    const keptAs = (await readdir(folder)).find((name) => name.startsWith(`${LEDGER_FILE}.corrupt-`));
    assert.ok(keptAs !== undefined, `the file was kept aside: ${(await readdir(folder)).join(', ')}`);
    assert.equal(await readFile(join(folder, keptAs), 'utf8'), 'not a ledger');
    assert.ok(warnings[0]?.message.includes(keptAs), warnings[0]?.message);
    assert.ok(
      log.at('warn').some((line) => line.startsWith('The time-by-branch ledger')),
      log.toString(),
    );
    assert.deepEqual(part.ledger.current.rows, [], 'the new ledger is empty');
  });

  it('says once per list, with Open Settings, why a ticket prefix is not used, logs each, and uses the rest', () => {
    withSettings({ ticketPrefixes: ['PROJ-', 'OPS', 'x y'] });
    const part = build();

    const keys = part.ticketKeys();
    part.ticketKeys();

    assert.equal(keys.keyOf('feature/PROJ-12-then-OPS-3', false), 'OPS-3', 'the prefix that is one applies');
    assert.deepEqual(
      messages.said.map((said) => said.kind === 'warning' && said.actions),
      [['Open Settings']],
    );
    const [said] = messages.said;
    assert.match(
      said?.message ?? '',
      /^The ticket prefix "PROJ-" of timeTracker\.ticketPrefixes is not used: .*\(1 more in the log\.\)$/,
    );
    assert.equal(log.at('warn').length, 2, log.toString());

    withSettings({ ticketPrefixes: ['OPS', '1'] });
    part.ticketKeys();
    assert.equal(messages.said.length, 2, 'a new list with an entry not used is said again');
    withSettings({ ticketPrefixes: ['OPS'] });
    assert.equal(part.ticketKeys().keyOf('PROJ-1', false), undefined);
    assert.equal(messages.said.length, 2);
  });

  it("shows today's time under the window's folder, and no line once turned off", async () => {
    const part = build();
    await part.start(Promise.resolve());
    const name = vscode.workspace.workspaceFolders?.[0]?.name;
    assert.ok(name !== undefined, 'the suite has a workspace folder');

    assert.equal(part.ledger.place?.branch, name);
    assert.equal(part.branchToday()?.branch, name);

    let changed = 0;
    let lineChanged = 0;
    part.onDidChange(() => changed++);
    part.onDidChangeBranchToday(() => lineChanged++);
    withSettings({ branchTime: { ...current.branchTime, enabled: false } });
    await part.settingsChanged(Promise.resolve());

    assert.equal(part.enabled, false);
    assert.equal(part.branchToday(), undefined);
    assert.ok(changed > 0, 'the view was told');
    assert.ok(lineChanged > 0, 'the status bar was told');
  });

  it('tells the view of every poll that credits time, and the status bar only when its line reads otherwise', async () => {
    // Polls 10 s apart on the part's own clock, as at the default interval; the first one only starts the span.
    let nowMs = Date.now();
    const part = build([], () => nowMs);
    await part.start(Promise.resolve());
    let view = 0;
    let statusBar = 0;
    part.onDidChange(() => view++);
    part.onDidChangeBranchToday(() => statusBar++);
    const lines: string[] = [];
    for (let poll = 0; poll < 6; poll++) {
      stateChanged.fire({
        kind: 'tracking',
        activity: { activityID: 'A1', activityName: 'Dev' },
        onBreak: false,
        startedAtMs: undefined,
        appClockOffsetMs: 0,
        todaySeconds: undefined,
        observedAtMs: nowMs,
      });
      lines.push(part.branchToday()?.duration ?? 'none');
      nowMs += 10_000;
    }

    // 10 s and 20 s are under half a minute; 30 s and more round to a whole one.
    assert.deepEqual(lines, ['0m', '< 1m', '< 1m', '1m', '1m', '1m']);
    assert.equal(view, 5, 'each credit reached the view');
    assert.equal(statusBar, 2, 'the status bar heard twice: when its line went from 0m to < 1m, and to 1m');
  });

  it("counts today's time of a branch HEAD spells in another case on the row an earlier session wrote", async () => {
    // A repository that ignores case (APFS), switched to with `git checkout feature/Login` after an earlier session
    // on feature/login wrote today's row.
    const root = join(folder, 'MyApp');
    const gitDir = join(root, '.git');
    await mkdir(gitDir, { recursive: true });
    await writeFile(join(gitDir, 'HEAD'), 'ref: refs/heads/feature/Login\n');
    const now = Date.now();
    const earlier = { root, repository: 'MyApp', branch: 'feature/login', activityID: 'A1', activityName: 'Dev' };
    const row = { ...earlier, day: dayOf(now), ms: 30 * 60_000, firstMs: now - 1_000, lastMs: now };
    await writeFile(join(folder, LEDGER_FILE), serializeBook({ ...EMPTY_BOOK, rows: [row] }));
    const repository = { root, gitDir, ignoresCase: true };
    const part = build([{ repository, fileSystem: nodeFileSystem, lastBranch: 'feature/Login' }]);

    await part.start(Promise.resolve());

    assert.deepEqual(part.branchToday(), { branch: 'feature/login', duration: '30m' });
  });
});
