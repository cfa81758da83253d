import assert from 'node:assert/strict';
import { signedSend, type RawResponse, type SignedCall } from '../../support/http';
import { startServer, type StartedServer } from '../../support/server';

/** Ids with letters in them, so that upper-casing shows; the service stores what newId gives, lower-cased. */
function idSource(): () => string {
  let counter = 0;
  return () => `abcdef00-0000-4000-8000-${(++counter).toString(16).padStart(12, 'e')}`;
}

const up = (n: number): string => `ABCDEF00-0000-4000-8000-${n.toString(16).padStart(12, 'e').toUpperCase()}`;

describe('server answers: --answers minimal gives the shapes of the shipping app (PROTOCOL.md §8)', () => {
  let started: StartedServer;
  const call = (request: SignedCall): Promise<RawResponse> => signedSend(started, request);

  beforeEach(async () => {
    started = await startServer({ answers: 'minimal', newId: idSource() });
    started.server.controls.seedActivity('Deep work', 'Work'); // id 1
    started.server.controls.seedActivity('Deep work', 'Home'); // id 2
    started.server.controls.seedActivity('Review'); // id 3
  });

  afterEach(async () => {
    await started.server.close();
  });

  it('answers healthcheck, stop and branch-changed with exactly {"ok":true}', async () => {
    const answers = [
      await call({ method: 'GET', target: '/healthcheck' }),
      await call({ method: 'POST', target: '/activities/stop', body: {} }),
      await call({ method: 'POST', target: '/branch-changed', body: { branch: 'main', repoPath: '/src/shop' } }),
    ];
    for (const answer of answers) {
      assert.equal(answer.status, 200);
      assert.equal(answer.text, '{"ok":true}');
      assert.equal(answer.headers['content-type'], 'application/json; charset=utf-8');
    }
    assert.equal(
      started.server.controls.state.listBranchReports()[0]?.repoPath,
      '/src/shop',
      'the report is kept all the same',
    );
  });

  it('answers search with {"items": [...]} alone: no ok, no result, real group names, upper-case ids', async () => {
    const search = await call({ method: 'GET', target: '/activities/search?q=e' });
    assert.equal(search.status, 200);
    // Same-named activities are told apart by their group, and ordered by it: Home before Work.
    assert.equal(
      search.text,
      `{"items":[{"id":"${up(2)}","name":"Deep work","groupName":"Home"},` +
        `{"id":"${up(1)}","name":"Deep work","groupName":"Work"},` +
        `{"id":"${up(3)}","name":"Review","groupName":null}]}`,
    );
  });

  it('answers start with {"activityID","activityName","created"} flat, the whole body', async () => {
    const byId = await call({ method: 'POST', target: '/activities/start', body: { activityID: up(2).toLowerCase() } });
    assert.equal(byId.status, 200);
    assert.equal(byId.text, `{"activityID":"${up(2)}","activityName":"Deep work","created":false}`);
    const created = await call({
      method: 'POST',
      target: '/activities/start',
      body: { name: 'Writing', createIfMissing: true },
    });
    assert.equal(created.text, `{"activityID":"${up(4)}","activityName":"Writing","created":true}`);
  });

  it('answers current and status in the usual envelope, with upper-case ids and startedAt in whole seconds', async () => {
    started.clock.set(Date.UTC(2026, 4, 26, 14, 30, 0, 250));
    await call({ method: 'POST', target: '/activities/start', body: { activityID: up(3) } });
    started.clock.advance(60_000);
    const current = await call({ method: 'GET', target: '/current' });
    assert.equal(
      current.text,
      `{"ok":true,"result":{"activityID":"${up(3)}","activityName":"Review","startedAt":"2026-05-26T14:30:00Z","isOnBreak":false}}`,
    );
    const status = await call({ method: 'GET', target: '/status' });
    assert.equal(
      status.text,
      `{"ok":true,"result":{"isTracking":true,"isOnBreak":false,"currentActivity":{"activityID":"${up(3)}","activityName":"Review"},"todaySeconds":60}}`,
    );
    await call({ method: 'POST', target: '/activities/stop' });
    assert.equal((await call({ method: 'GET', target: '/current' })).text, '{"ok":true,"result":null}');
  });

  it('answers entries with status 201 and {"entryID","activityID","activityName","durationMinutes","created"} flat', async () => {
    const entry = await call({
      method: 'POST',
      target: '/entries',
      body: { name: 'review', durationMinutes: 25, note: 'PR 12' },
    });
    assert.equal(entry.status, 201);
    assert.equal(
      entry.text,
      `{"entryID":"${up(4)}","activityID":"${up(3)}","activityName":"Review","durationMinutes":25,"created":false}`,
    );
    assert.equal(started.server.controls.state.listEntries()[0]?.note, 'PR 12', 'the note is kept, only not repeated');
  });

  it('takes back the upper-case ids it gave out, and a lower-case one just as well', async () => {
    for (const id of [up(1), up(1).toLowerCase()]) {
      const entry = await call({ method: 'POST', target: '/entries', body: { activityID: id, durationMinutes: 5 } });
      assert.equal(entry.status, 201, id);
      assert.match(entry.text, new RegExp(`"activityID":"${up(1)}","activityName":"Deep work"`));
    }
    assert.equal(started.server.controls.state.listEntries().length, 2);
  });

  it('keeps errors as {"error": ...}: a fraction of a minute, an ambiguous name, an unknown path', async () => {
    const fraction = await call({
      method: 'POST',
      target: '/entries',
      body: { activityID: up(3), durationMinutes: 1.5 },
    });
    assert.equal(fraction.status, 400);
    assert.equal(
      fraction.text,
      '{"error":"durationMinutes must be a whole number of minutes from 1 to 1440, not 1.5."}',
    );
    const ambiguous = await call({ method: 'POST', target: '/activities/start', body: { name: 'deep work' } });
    assert.equal(ambiguous.status, 400);
    assert.equal(
      ambiguous.text,
      '{"error":"The name \\"deep work\\" belongs to 2 activities, in Work and Home; send the activityID of the one you mean."}',
    );
    const unknown = await call({ method: 'GET', target: '/nope' });
    assert.equal(unknown.status, 404);
    assert.deepEqual(Object.keys(unknown.json as object), ['error']);
  });

  it('switches between the styles in-process, from the next request on', async () => {
    assert.equal(started.server.controls.answers, 'minimal');
    started.server.controls.setAnswers('full');
    const health = await call({ method: 'GET', target: '/healthcheck' });
    assert.equal(health.text, '{"ok":true,"result":{"status":"ok","license":"valid","version":"1"}}');
    const search = await call({ method: 'GET', target: '/activities/search?q=review' });
    assert.deepEqual(search.json, {
      ok: true,
      result: [{ activityID: up(3).toLowerCase(), activityName: 'Review' }],
      items: [{ id: up(3).toLowerCase(), name: 'Review', groupName: null }],
    });
  });
});

describe('server answers: full answers name no groups (PROTOCOL.md §4)', () => {
  it('lists each item with groupName null in items, beside the references in result; minimal answers name the group', async () => {
    const started = await startServer({
      newId: idSource(),
      seedActivities: [{ name: 'Deep work', groupName: 'Work' }, 'CI/CD'],
    });
    try {
      const search = await signedSend(started, { method: 'GET', target: '/activities/search?q=' });
      assert.deepEqual(search.json, {
        ok: true,
        result: [
          { activityID: up(2).toLowerCase(), activityName: 'CI/CD' },
          { activityID: up(1).toLowerCase(), activityName: 'Deep work' },
        ],
        items: [
          { id: up(2).toLowerCase(), name: 'CI/CD', groupName: null },
          { id: up(1).toLowerCase(), name: 'Deep work', groupName: null },
        ],
      });
      started.server.controls.setAnswers('minimal');
      const minimal = await signedSend(started, { method: 'GET', target: '/activities/search?q=' });
      assert.deepEqual(minimal.json, {
        items: [
          { id: up(2), name: 'CI/CD', groupName: null },
          { id: up(1), name: 'Deep work', groupName: 'Work' },
        ],
      });
    } finally {
      await started.server.close();
    }
  });
});
