import assert from 'node:assert/strict';
import { HttpError, NotFoundError, ServiceClient, UnavailableError, ValidationError } from '../../../src/client';
import { stateFromStatus } from '../../../src/tracker/model/trackerState';
import { statusBarItem } from '../../../src/tracker/statusBar/statusBarItem';
import { startCannedServer, type CannedAnswer } from '../../support/faults';
import { rejection } from '../../support/rejection';
import { TEST_TOKEN } from '../../support/server';

// What reaches the screen from an answer: the app's names and words are read once,
// where answers are read, without controls and bidi overrides, a name at most the 200 characters the app
// allows; a total or a duration that cannot be one is not said.

const ID = '6F1C1D2E-0A0B-4C0D-8E0F-00000000000A';
/**
 * A name as a broken or hostile app may send it: a bidi override, CR/LF with a forged line, NUL, an escape sequence.
 */
const HOSTILE = 'Deploy \u202Egpj.exe\u202C\r\n[error] forged\u0000\u001b[2J';
const CLEANED = 'Deploy gpj.exe [error] forged[2J';
/** Anything a screen could be misled by. */
const UNSAFE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
const HUGE = 'x'.repeat(900 * 1024);

describe('client: the text of an answer as it reaches the screen', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });

  /** A client whose app answers `body` (200 unless told) to every request. */
  const answering = async (body: unknown, status = 200): Promise<ServiceClient> => {
    const canned: CannedAnswer = { status, body: typeof body === 'string' ? body : JSON.stringify(body) };
    const server = await startCannedServer(() => canned);
    const client = new ServiceClient({ token: TEST_TOKEN, port: server.port });
    closers.push(
      () => server.close(),
      () => client.close(),
    );
    return client;
  };

  it('cleans every name and group of GET /current, GET /status and the search hits; ids stay as sent', async () => {
    const lowerId = ID.toLowerCase();
    const current = await (
      await answering({ ok: true, result: { activityID: lowerId, activityName: HOSTILE, isOnBreak: false } })
    ).getCurrent();
    assert.equal(current?.activityName, CLEANED);
    assert.equal(current.activityID, lowerId, 'an id is what the app knows the activity by: never changed');

    const status = await (
      await answering({
        isTracking: true,
        currentActivity: { activityID: ID, activityName: HOSTILE },
        todaySeconds: 60,
      })
    ).getStatus();
    assert.deepEqual(status.currentActivity, { activityID: ID, activityName: CLEANED });

    const hits = await (
      await answering({ items: [{ id: ID, name: HOSTILE, groupName: `Client\n${HOSTILE}` }] })
    ).searchActivities('dep');
    assert.deepEqual(hits, [{ activityID: ID, activityName: CLEANED, groupName: `Client ${CLEANED}` }]);
  });

  it('cleans the names of a start, a stop and a logged entry, and the note an entry echoes', async () => {
    const stopped = { activityID: ID, activityName: HOSTILE };
    const start = await (
      await answering({ activityID: ID, activityName: HOSTILE, stopped })
    ).startActivity({ activityID: ID });
    assert.equal(start.activityName, CLEANED);
    assert.equal(start.stopped?.activityName, CLEANED);
    const stop = await (await answering({ stopped, durationSeconds: 60 })).stopActivity();
    assert.equal(stop.stopped?.activityName, CLEANED);
    const entry = await (
      await answering({ entryID: 'e1', activityID: ID, activityName: HOSTILE, note: `a\r\nb\u202E` })
    ).logEntry({ activityID: ID, durationMinutes: 5 });
    assert.equal(entry.activityName, CLEANED);
    assert.equal(entry.note, 'a b');
  });

  it('cuts a 900 KB name or group to the 200 characters the app allows, a note to its 2,000', async () => {
    // One 900 KB field per answer: two would pass the client's 1 MiB limit for an answer.
    const current = await (await answering({ activityID: ID, activityName: HUGE })).getCurrent();
    assert.equal(current?.activityName, `${'x'.repeat(199)}…`);
    const status = await (
      await answering({ isTracking: true, currentActivity: { activityID: ID, activityName: HUGE } })
    ).getStatus();
    assert.equal(status.currentActivity?.activityName.length, 200);
    const [hit] = await (await answering({ items: [{ id: ID, name: HUGE, groupName: 'G' }] })).searchActivities('x');
    assert.equal(hit?.activityName.length, 200);
    const [grouped] = await (
      await answering({ items: [{ id: ID, name: 'x', groupName: HUGE }] })
    ).searchActivities('x');
    assert.equal(grouped?.groupName?.length, 200);
    const entry = await (
      await answering({ entryID: 'e1', activityID: ID, activityName: HUGE })
    ).logEntry({ activityID: ID, durationMinutes: 5 });
    assert.equal(entry.activityName?.length, 200);
    const started = await (await answering({ activityID: ID, activityName: HUGE })).startActivity({ activityID: ID });
    assert.equal(started.activityName?.length, 200);
    // The app's limit counts characters: 200 emoji are a name it accepts, kept whole.
    const emoji = '😀'.repeat(200);
    const whole = await (await answering({ activityID: ID, activityName: emoji })).getCurrent();
    assert.equal(whole?.activityName, emoji);
    const noted = await (
      await answering({ entryID: 'e1', activityID: ID, activityName: 'x', note: HUGE })
    ).logEntry({ activityID: ID, durationMinutes: 5 });
    assert.equal(noted.note?.length, 2000);
  });

  it('reads a negative or absurd total or duration as not said, and keeps every real one', async () => {
    for (const todaySeconds of [-5400, -1, 1e300, 366 * 86_400 + 1]) {
      const status = await (await answering({ isTracking: false, currentActivity: null, todaySeconds })).getStatus();
      assert.equal(status.todaySeconds, undefined, String(todaySeconds));
    }
    // Entries logged today count in full, whatever day they cover: a day's total may pass 24 hours.
    for (const todaySeconds of [0, 5400, 86_400, 3 * 86_400, 366 * 86_400]) {
      const status = await (await answering({ isTracking: false, currentActivity: null, todaySeconds })).getStatus();
      assert.equal(status.todaySeconds, todaySeconds);
    }
    const stop = await (
      await answering({ stopped: { activityID: ID, activityName: 'A' }, durationSeconds: -5400 })
    ).stopActivity();
    assert.equal(stop.durationSeconds, undefined);
    const entry = await (
      await answering({ entryID: 'e1', activityID: ID, activityName: 'A', durationMinutes: 1e300 })
    ).logEntry({ activityID: ID, durationMinutes: 5 });
    assert.equal(entry.durationMinutes, undefined);
  });

  it('shows such an answer in the status bar, its tooltip and its spoken label cleaned, and the total as not said', async () => {
    for (const todaySeconds of [-5400, 1e300]) {
      const status = await (
        await answering({
          isTracking: true,
          currentActivity: { activityID: ID, activityName: `${HOSTILE}${HUGE}` },
          todaySeconds,
        })
      ).getStatus();
      const state = stateFromStatus(status, { kind: 'starting' }, 0);
      const shown = statusBarItem(state, {
        nowMs: 0,
        showTodayTotal: true,
        maxNameLength: 40,
        route: { kind: 'http', port: 40001 },
      });
      assert.doesNotMatch(shown.text, UNSAFE);
      // The tooltip is Markdown: its own paragraphs are apart by line breaks, the name's are gone.
      assert.doesNotMatch(shown.tooltip, /(?!\n)\p{Cc}|[\u2028\u2029\u202a-\u202e\u2066-\u2069]|\n\\?\[error/u);
      assert.doesNotMatch(shown.accessibilityLabel, UNSAFE);
      assert.ok(shown.text.includes('Deploy gpj.exe [error] forged[2J'), shown.text.slice(0, 80));
      assert.ok(shown.text.length < 1100, `the status bar text is ${shown.text.length} characters`);
      assert.doesNotMatch(shown.text, /-2h|-30m|e\+/);
      assert.match(shown.tooltip, /Today's total: not said by the app\./);
    }
  });

  it("cleans and bounds the app's own words in an error, which notifications and the log quote", async () => {
    const words = `No such activity\r\n[error] forged \u202Egnp.exe\u0000${HUGE}`;
    const cases: [number, (error: unknown) => boolean][] = [
      [400, (error) => error instanceof ValidationError],
      [404, (error) => error instanceof NotFoundError],
      [503, (error) => error instanceof UnavailableError && !UNSAFE.test(error.reason) && error.reason.length <= 1000],
      [500, (error) => error instanceof HttpError],
    ];
    for (const [status, expected] of cases) {
      const error = await rejection((await answering({ error: words }, status)).startActivity({ activityID: ID }));
      assert.ok(expected(error), `${status}: ${String(error)}`);
      assert.ok(error instanceof Error);
      assert.doesNotMatch(error.message, UNSAFE, String(status));
      assert.match(error.message, /No such activity \[error\] forged gnp\.exe/);
      assert.ok(error.message.length < 1200, `${status}: ${error.message.length} characters`);
    }
  });
});
