/**
 * The tools this extension gives the editor's agent, in a real extension host against the reference server: listed
 * through `vscode.lm.tools` with their schemas, and called through `vscode.lm.invokeTool` as an agent calls them. The
 * status tool says what the server runs in the status bar's words; the time-by-branch tool what the ledger holds; while
 * the status bar is private, neither names an activity or a time. The locked license and the lockout are said in the
 * status bar's words, and nothing is sent for them; a log in the lockout waits in the queue.
 */
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import { ServiceClient } from '../../../src/client';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { connectToNewServer, runningOn } from './connected';
import { answering, type Asked } from './pressEnter';
import { kind, ledgerHasTimeToday, until, untilQueued } from './states';
import { askTool } from './toolCalls';

const TOKEN = 'agent-tools-token-5e21';
const NAME = 'Review the agent tools';
const OTHER = 'Pair on the tools';
/** What a write tool answered outside a chat, and the question it asked first (Enter takes its yes, Go On). */
async function askWith(name: string, input: object, answer?: string): Promise<{ said: string; asked: Asked[] }> {
  let said = '';
  const asked = await answering(
    async () => (said = await askTool(name, input)),
    answer === undefined ? undefined : () => answer,
  );
  return { said, asked };
}
const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');

describe("the editor agent's tools", function () {
  this.timeout(60_000);
  let api: TimeTrackerApi;
  let server: ReferenceServer;
  let port: number;
  /** Every request the server answered, by path (the debug view keeps only the last 25). */
  const requests: string[] = [];

  before(async function () {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) this.skip();
    execFileSync('git', ['checkout', '-q', 'main'], { cwd: folder.uri.fsPath, stdio: 'ignore' });
    ({ api, server, port } = await connectToNewServer(TOKEN, {
      onRequest: (_line, record) => requests.push(record.path),
    }));
    await api.branchWatchReady();
  });

  afterEach(() => config().update('statusBar.private', undefined, vscode.ConfigurationTarget.Global));

  after(async () => {
    server.controls.state.stop();
    await config().update('pollIntervalSeconds', undefined, vscode.ConfigurationTarget.Global);
    await config().update('port', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('timeTracker.clearToken');
    await server.close();
  });

  it('lists each tool with its description for the model and its input schema', () => {
    const ours = vscode.lm.tools.filter((tool) => tool.name.startsWith('timeTracker_'));
    assert.deepEqual(ours.map((tool) => tool.name).sort(), [
      'timeTracker_logTime',
      'timeTracker_searchActivities',
      'timeTracker_start',
      'timeTracker_status',
      'timeTracker_stop',
      'timeTracker_timeByBranch',
    ]);
    for (const tool of ours) assert.ok(tool.description.length > 100, `${tool.name} tells the model what it does`);
    const byBranch = ours.find((tool) => tool.name === 'timeTracker_timeByBranch');
    assert.deepEqual(
      (byBranch?.inputSchema as { properties?: { period?: { enum?: unknown } } } | undefined)?.properties?.period?.enum,
      ['today', 'thisWeek', 'lastWeek'],
    );
  });

  it('says what the app runs now, in the words of the status bar, without its markup', async () => {
    server.controls.state.start({ name: NAME, createIfMissing: true });
    await until(api, (state) => state.kind === 'tracking' && state.activity.activityName === NAME, 'tracking');
    const said = await askTool('timeTracker_status');
    assert.match(said, new RegExp(`^Tracking ${NAME}`), said);
    assert.match(said, /Commands: .*Stop/, said);
    assert.doesNotMatch(said, /\*\*|\$\(|command:/, said);
  });

  it("gives the period's time by branch as the ledger holds it, and refuses a period it does not know", async () => {
    if (api.state !== 'tracking') {
      server.controls.state.start({ name: NAME, createIfMissing: true });
      await until(api, kind('tracking'), 'tracking');
    }
    assert.ok(await ledgerHasTimeToday(api), 'the ledger has time');
    const said = await askTool('timeTracker_timeByBranch', { period: 'today' });
    assert.match(said, /^Time by branch, Today \(\d{4}-\d\d-\d\d\): /, said);
    assert.match(said, /\nmain: .+\n {2}Review the agent tools: /, said);
    assert.equal(await askTool('timeTracker_timeByBranch'), said, 'today when no period is given');
    const day = /\((\d{4}-\d\d-\d\d)\)/.exec(said)?.[1] ?? '';
    assert.equal(
      await askTool('timeTracker_timeByBranch', { fromDay: day, toDay: day }),
      said.replace(/^Time by branch, Today/, 'Time by branch, Chosen Days'),
      'the same day, given',
    );
    assert.equal(
      await askTool('timeTracker_timeByBranch', { period: 'yesterday' }),
      '"period" must be one of "today", "thisWeek", "lastWeek".',
    );
  });

  it("finds the app's activities by a part of their name, with their ids, and what it named before while it is away", async () => {
    const id = server.controls.state.listActivities().find((activity) => activity.name === NAME)?.id ?? '';
    const found = await askTool('timeTracker_searchActivities', { query: 'agent TOOLS' });
    assert.equal(
      found,
      `Activities of the app that match "agent TOOLS":\n- "${NAME}" (id "${id.replace(/-/g, '\\-')}")`,
    );
    assert.equal(
      await askTool('timeTracker_searchActivities', { query: ' ' }),
      '"query" must be the name of an activity, or a part of one.',
    );
    await server.close();
    for (let attempt = 0; attempt < 5 && api.state !== 'offline'; attempt++) await api.refresh();
    await until(api, kind('offline'), 'offline');
    const known = await askTool('timeTracker_searchActivities', { query: 'agent' });
    assert.match(known, new RegExp(`Activities the app named before that match "agent":\\n- "${NAME}"`), known);
    await server.listen(port);
    await api.refresh();
    await until(api, (state) => state.kind === 'idle' || state.kind === 'tracking', 'the app back');
  });

  it('names no activity and no time while the status bar is private, and says why', async () => {
    await config().update('statusBar.private', true, vscode.ConfigurationTarget.Global);
    const status = await askTool('timeTracker_status');
    assert.doesNotMatch(status, new RegExp(`${NAME}|\\d+m\\b|\\dh\\b`), status);
    assert.match(status, /private/, status);
    assert.match(await askTool('timeTracker_searchActivities', { query: 'agent' }), /^The status bar is private/);
    const byBranch = await askTool('timeTracker_timeByBranch', { period: 'today' });
    assert.doesNotMatch(byBranch, new RegExp(`${NAME}|main`), byBranch);
    assert.match(byBranch, /^The status bar is private \(timeTracker\.statusBar\.private\)/, byBranch);
  });

  it('asks before a start outside a chat, naming the activity; starts nothing on no, and starts on yes', async () => {
    const input = { name: OTHER, createIfMissing: true };
    const no = await askWith('timeTracker_start', input, 'Cancel');
    assert.deepEqual(no.asked, [
      {
        title: 'Start tracking?',
        detail: `Starts tracking: "${OTHER}", created if the app has no activity of that name. What runs now stops.`,
        items: ['Go On'],
        taken: 'Cancel',
      },
    ]);
    assert.equal(no.said, 'Nothing was sent: you said no.');
    assert.notEqual(runningOn(server), OTHER, 'nothing started on no');
    const yes = await askWith('timeTracker_start', input);
    assert.equal(yes.said, `Tracking ${OTHER}`);
    assert.equal(runningOn(server), OTHER);
  });

  it('stops on yes, and the question names what runs', async () => {
    server.controls.state.start({ name: OTHER, createIfMissing: true });
    await until(api, (state) => state.kind === 'tracking' && state.activity.activityName === OTHER, 'tracking');
    const stopped = await askWith('timeTracker_stop', {});
    assert.equal(stopped.asked[0]?.detail, `Stops "${OTHER}" in the time tracker.`);
    assert.match(stopped.said, new RegExp(`^Stopped ${OTHER}`), stopped.said);
    assert.equal(runningOn(server), undefined);
  });

  it('logs offline once, queued, says the app records it now, and sends it once when the app is back', async () => {
    const before = server.controls.state.listEntries().length;
    await server.close();
    for (let attempt = 0; attempt < 5 && api.state !== 'offline'; attempt++) await api.refresh();
    await until(api, kind('offline'), 'offline');
    const input = { name: NAME, durationMinutes: 35, note: 'Read the tools_ docs', date: '2020-01-02' };
    const logged = await askWith('timeTracker_logTime', input);
    assert.deepEqual(
      logged.asked.map(({ title, detail }) => ({ title, detail })),
      [
        {
          title: 'Log time?',
          detail:
            'The app takes no date for an entry: it records this time now, today, not on "2020-01-02". Go on only if ' +
            `that is what you want.\n\nLogs 35m (35 minutes) on: "${NAME}", an activity the app already has.\n\n` +
            'Note: "Read the tools_ docs"',
        },
      ],
    );
    assert.match(logged.said, /is queued until the app answers/, logged.said);
    assert.match(logged.said, /records this time now/, logged.said);
    await untilQueued(api, 1, 'the entry queued once', 10_000);
    await server.listen(port);
    await api.refresh();
    await untilQueued(api, 0, 'the queue sent', 20_000);
    const sent = server.controls.state.listEntries().slice(before);
    assert.deepEqual(
      sent.map(({ durationMinutes, note }) => ({ durationMinutes, note })),
      [{ durationMinutes: 35, note: 'Read the tools_ docs' }],
      'sent once',
    );
    await until(api, kind('idle'), 'idle with the app back');
  });

  it('refuses before asking when the input is wrong: a name too long, minutes out of range', async () => {
    assert.equal(
      await askTool('timeTracker_logTime', { name: NAME, durationMinutes: 2_000 }),
      'durationMinutes must be a whole number of minutes from 1 to 1440, not 2000.',
    );
    assert.match(await askTool('timeTracker_start', {}), /needs "name" or "activityID"/);
    assert.match(await askTool('timeTracker_start', { name: 'x'.repeat(201) }), /at most 200 characters/);
  });

  it('starts and logs while private without naming the activity or the time in what it answers', async () => {
    await config().update('statusBar.private', true, vscode.ConfigurationTarget.Global);
    const started = await askWith('timeTracker_start', { name: NAME, createIfMissing: true });
    assert.match(started.said, /^Done: the app took it\. The status bar is private/, started.said);
    assert.doesNotMatch(started.said, new RegExp(NAME));
    const logged = await askWith('timeTracker_logTime', { name: NAME, durationMinutes: 20 });
    assert.match(logged.said, /^Done: the app took it\./, logged.said);
    assert.doesNotMatch(logged.said, new RegExp(`${NAME}|20m|20 minutes`), logged.said);
    server.controls.state.stop();
  });

  it('says the locked license as the status bar does, and searches nothing while it holds', async () => {
    const searches = (): number => requests.filter((path) => path === '/activities/search').length;
    server.controls.setLicense('locked');
    try {
      await until(api, kind('licenseLocked'), 'license locked');
      const status = await askTool('timeTracker_status');
      assert.match(status, /^The application's license is locked\. /, status);
      const before = searches();
      const found = await askTool('timeTracker_searchActivities', { query: 'agent' });
      assert.equal(searches(), before, 'no search sent');
      assert.equal(
        found.split(' Activities the app named before')[0],
        status.split('\n\n')[0],
        `${found}\n---\n${status}`,
      );
    } finally {
      server.controls.setLicense('valid');
    }
    await until(api, kind('idle'), 'idle with the license back');
  });

  it('during the lockout, says it as the status bar does and sends nothing for a search, a start or a log', async () => {
    const intruder = new ServiceClient({ token: 'agent-tools-wrong-token', port });
    try {
      for (let i = 0; i < 11; i++) await intruder.healthcheck().catch(() => undefined);
    } finally {
      await intruder.close();
    }
    await api.refresh();
    await until(api, kind('lockedOut'), 'locked out');
    const status = await askTool('timeTracker_status');
    assert.match(status, /^Locked out for \d+ s more\. /, status);
    const [sent, failed] = [requests.length, server.controls.failedSignIns];
    const found = await askTool('timeTracker_searchActivities', { query: 'agent' });
    const started = await askWith('timeTracker_start', { name: NAME });
    const logged = await askWith('timeTracker_logTime', { name: NAME, durationMinutes: 5 });
    assert.deepEqual(requests.slice(sent), [], 'no request');
    assert.equal(server.controls.failedSignIns, failed);
    assert.equal(
      found.split(' Activities the app named before')[0],
      status.split('\n\n')[0],
      `${found}\n---\n${status}`,
    );
    assert.deepEqual(started.asked, [], 'nothing asked for what cannot be done');
    assert.equal(started.said, `${status.split('\n\n')[0]} Tracking was not started.`);
    assert.match(logged.said, /^5m on Review the agent tools is queued; it is sent once the app accepts requests/);
    await untilQueued(api, 1, 'the entry queued', 10_000);
    // The app restarted ends the lockout: the entry is sent once, not lost.
    await server.close();
    server = createReferenceServer({ token: TOKEN, seedActivities: [NAME] });
    await server.listen(port);
    await vscode.commands.executeCommand('timeTracker.checkConnection');
    await untilQueued(api, 0, 'the queue sent', 20_000);
    assert.deepEqual(
      server.controls.state.listEntries().map(({ durationMinutes }) => durationMinutes),
      [5],
    );
  });
});
