/**
 * The offline queue alone (src/extension/offlineQueue.ts), built with a temporary storage folder,
 * a recording log and message sink, and a real client of the reference server: what it keeps on
 * disk, when it sends, and what it tells the user.
 */
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ServiceClient } from '../../../../src/client';
import { OfflineQueue } from '../../../../src/extension/offlineQueue';
import { createReferenceServer, type ReferenceServer } from '../../../../src/server/server';
import { RecordingLog, RecordingMessages } from './fakes';

const TOKEN = 'offline-queue-part-token-7d1e';
const QUEUE_FILE = 'queued-entries.json';

describe('parts: OfflineQueue', function () {
  this.timeout(20_000);
  let server: ReferenceServer;
  let client: ServiceClient;
  let folder: string;
  let log: RecordingLog;
  let messages: RecordingMessages;
  let queue: OfflineQueue;
  let activityID: string;

  before(async () => {
    server = createReferenceServer({ token: TOKEN, seedActivities: ['Queue Part Review'] });
    const port = await server.listen(0);
    client = new ServiceClient({ token: TOKEN, port });
    const [activity] = server.controls.state.listActivities();
    assert.ok(activity, 'the server has the seeded activity');
    activityID = activity.id;
  });

  after(async () => {
    await server.close();
  });

  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tt-queue-part-'));
    log = new RecordingLog();
    messages = new RecordingMessages(log);
    queue = new OfflineQueue(folder, log, messages, () => false);
    await queue.start();
  });

  afterEach(async () => {
    queue.dispose();
    messages.dispose();
    await rm(folder, { recursive: true, force: true });
  });

  it('keeps an added entry on disk, counts it and says so in the log, sending nothing', async () => {
    const counts: number[] = [];
    const subscription = queue.onDidChangeCount((count) => counts.push(count));
    const entry = await queue.add({ activityID, durationMinutes: 25, note: 'offline' }, 'offline');
    subscription.dispose();

    const onDisk = JSON.parse(readFileSync(join(folder, QUEUE_FILE), 'utf8')) as {
      entries: { id: string; status: string; request: { durationMinutes: number; note?: string } }[];
    };
    assert.deepEqual(
      onDisk.entries.map(({ id, status, request }) => [id, status, request.durationMinutes, request.note]),
      [[entry.id, 'waiting', 25, 'offline']],
    );
    assert.equal(queue.waiting, 1);
    assert.deepEqual(counts, [1]);
    assert.deepEqual(
      (await queue.list()).map(({ status, request }) => [status, request.durationMinutes]),
      [['waiting', 25]],
    );
    assert.ok(
      log.at('info').some((line) => line.startsWith('Queued 25m on') && line.endsWith('until the app answers.')),
      log.toString(),
    );
    assert.deepEqual(server.controls.state.listEntries(), [], 'nothing sent while nobody said the app answers');
    assert.deepEqual(messages.said, [], 'the caller tells the user it is queued, not the queue');
  });

  it('sends what waits once the state says the app answers, and says once what it sent', async () => {
    const entry = await queue.add({ activityID, durationMinutes: 40 }, 'offline');
    const settled = queue.settled(entry.id);

    queue.stateChanged(true, client);
    await settled;

    assert.deepEqual(
      server.controls.state.listEntries().map(({ activityID: id, durationMinutes }) => [id, durationMinutes]),
      [[activityID, 40]],
    );
    assert.equal(queue.waiting, 0);
    assert.deepEqual(await queue.list(), []);
    const said = await messages.next((message) => message.kind === 'info', 'the note of what was sent');
    assert.ok(said.message.includes('40m') && said.message.includes('Queue Part Review'), said.message);
    assert.equal(messages.said.length, 1, JSON.stringify(messages.said));
    assert.ok(
      log.at('info').some((line) => line.startsWith('Sent the queued 40m on Queue Part Review')),
      log.toString(),
    );
  });

  it('keeps an entry the app refuses, with a warning that points to Show Queued Entries', async () => {
    const before = server.controls.state.listEntries().length;
    const entry = await queue.add({ activityID: 'no-such-activity', durationMinutes: 5 }, 'offline');
    const settled = queue.settled(entry.id);

    queue.stateChanged(true, client);
    await settled;

    assert.equal(server.controls.state.listEntries().length, before, 'the app stored nothing');
    assert.deepEqual(
      (await queue.list()).map(({ id, status }) => [id, status]),
      [[entry.id, 'refused']],
    );
    const warning = await messages.next((message) => message.kind === 'warning', 'the refused entry');
    assert.ok(warning.kind === 'warning');
    assert.ok(warning.message.includes('refused'), warning.message);
    assert.deepEqual(warning.actions, ['Show Queued Entries']);
    assert.ok(
      log.at('warn').some((line) => line.startsWith('Queued entry not sent (refused)')),
      log.toString(),
    );
  });

  it('sends nothing without a client, and keeps the entry', async () => {
    await queue.add({ activityID, durationMinutes: 10 }, 'offline');
    assert.equal(await queue.flush(undefined), undefined);
    assert.equal(queue.waiting, 1);
    assert.ok(existsSync(join(folder, QUEUE_FILE)));
  });
});
