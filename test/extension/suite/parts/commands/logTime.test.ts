/**
 * Log Time from a keybinding's arguments (src/extension/commands/logTime.ts) through its services:
 * a real session over a fake secret store against the reference server, the offline queue in a
 * temporary folder, the recent list over a fake memento, a recording log and message sink. What
 * reaches the app, what waits on disk instead, and what the user is told.
 */
import * as assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logTime } from '../../../../../src/extension/commands/logTime';
import { OfflineQueue } from '../../../../../src/extension/offlineQueue';
import { ENDPOINTS } from '../../../../../src/protocol/types';
import { STORAGE_KEYS } from '../../../../../src/tracker/ids';
import { RecentActivities } from '../../../../../src/tracker/pickers/recentActivities';
import { FakeMemento } from '../fakes';
import { commandFakes, untilState, useReferenceApp, type CommandFakes } from '../sessionFakes';

const TOKEN = 'log-time-part-token-e2a8';
const ACTIVITY = 'Log Part Review';

describe('parts: commands/logTime (Log Time)', function () {
  this.timeout(20_000);
  const app = useReferenceApp({ token: TOKEN, seedActivities: [ACTIVITY] });
  let folder: string;
  let fakes: CommandFakes | undefined;
  let queue: OfflineQueue | undefined;
  let recentStore: FakeMemento;
  let activityID: string;

  const started = async (token: string | undefined): Promise<CommandFakes> => {
    const recent = new RecentActivities({
      get: () => recentStore.get(STORAGE_KEYS.recentActivities),
      update: (value) => recentStore.update(STORAGE_KEYS.recentActivities, value),
    });
    fakes = commandFakes(app, token, ({ log, messages }) => {
      queue = new OfflineQueue(folder, log, messages, () => false);
      return { recent, queue };
    });
    await queue?.start();
    await fakes.session.reconnect();
    app.requests.length = 0;
    return fakes;
  };
  const logged = (): readonly { activityID: string; durationMinutes: number; note: string | null }[] =>
    app.server.controls.state.snapshot().entries;
  const posted = (): number => app.requests.filter((path) => path === ENDPOINTS.entries.path).length;

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tt-log-time-part-'));
    recentStore = new FakeMemento();
    const [activity] = app.server.controls.state.listActivities();
    assert.ok(activity, 'the server has the seeded activity');
    activityID = activity.id;
  });

  afterEach(async () => {
    queue?.dispose();
    queue = undefined;
    fakes?.dispose();
    fakes = undefined;
    await rm(folder, { recursive: true, force: true });
  });

  it('sends the entry the arguments give, says so, and keeps the activity as recent', async () => {
    const { services, messages } = await started(TOKEN);
    const before = logged().length;

    await logTime(services, { activityID, durationMinutes: 25, note: 'part review' });

    const entry = logged()[before];
    assert.deepEqual(entry && [entry.activityID, entry.durationMinutes, entry.note], [activityID, 25, 'part review']);
    assert.deepEqual(messages.said, [{ kind: 'info', message: `Logged 25m to ${ACTIVITY}.`, actions: [] }]);
    assert.ok(
      JSON.stringify(recentStore.get(STORAGE_KEYS.recentActivities)).includes(activityID),
      'the activity is recent',
    );
  });

  it('refuses arguments it cannot read, says why, and sends nothing', async () => {
    const { services, messages } = await started(TOKEN);

    await logTime(services, { activityID, durationMinutes: 1.5 });

    assert.equal(posted(), 0, app.requests.join(', '));
    assert.equal(messages.said.length, 1, JSON.stringify(messages.said));
    const [said] = messages.said;
    assert.ok(said?.kind === 'advice' && said.message.includes('whole number of minutes'), JSON.stringify(said));
  });

  it('while the app rejects the token, keeps the entry on disk, sends nothing and says so once', async () => {
    const { services, session, messages } = await started('a-token-this-app-does-not-know');
    await untilState(session, 'tokenRejected');
    app.requests.length = 0;

    await logTime(services, { activityID, durationMinutes: 40 });

    assert.equal(posted(), 0, app.requests.join(', '));
    assert.equal(queue?.waiting, 1, 'the entry waits in the queue');
    // The fix (a token) is needed before it goes: a warning with its button, not a progress notice.
    assert.equal(messages.said.length, 1, JSON.stringify(messages.said));
    const [said] = messages.said;
    assert.ok(said?.kind === 'advice' && said.action === 'setToken', JSON.stringify(said));
    assert.ok(said.message.startsWith('40m on '), said.message);
  });

  it('without a token, says how to connect and neither sends nor queues', async () => {
    const { services, messages } = await started(undefined);

    await logTime(services, { activityID, durationMinutes: 10 });

    assert.equal(posted(), 0);
    assert.equal(queue?.waiting, 0);
    assert.deepEqual(
      messages.said.map((said) => said.kind === 'advice' && said.action),
      ['setToken'],
    );
  });
});
