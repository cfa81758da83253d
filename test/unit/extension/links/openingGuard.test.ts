import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpeningGuard, type OpeningGuardParts } from '../../../../src/extension/links/openingGuard';
import { STOP_HOLD_MS } from '../../../../src/tracker/links/linkOpening';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';

// Two windows of one machine, as two guards over one storage folder (the real file lock and
// files); this file runs without VS Code.

const STOPPED = new Date(2026, 10, 27, 18, 2).getTime();
const NOTHING_TO_DISPOSE = { dispose: () => undefined };
const tracking = (observedAtMs: number, activityID = 'x'): TrackerState => ({
  kind: 'tracking',
  activity: { activityID, activityName: 'Docs' },
  onBreak: false,
  startedAtMs: undefined,
  appClockOffsetMs: 0,
  todaySeconds: 0,
  observedAtMs,
});
const idle = (observedAtMs: number): TrackerState => ({ kind: 'idle', onBreak: false, todaySeconds: 0, observedAtMs });

function window(storageFolder: string, clock: () => number, files?: OpeningGuardParts['files']): OpeningGuard {
  const log = {
    debug: () => undefined,
    info: () => undefined,
    warn: () => undefined,
  } as unknown as OpeningGuardParts['log'];
  return new OpeningGuard({
    storageFolder,
    onDidChangeState: () => NOTHING_TO_DISPOSE,
    log,
    clock,
    ...(files === undefined ? {} : { files }),
  });
}

describe('extension/links/openingGuard: what the windows of a machine share about openings', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'opening-guard-'));
  });
  afterEach(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('lets one of two windows opening together act on the opening', async () => {
    const storage = join(folder, 'storage');
    const now = (): number => STOPPED;
    const claims = await Promise.all([window(storage, now).claim('Acme'), window(storage, now).claim('Acme')]);
    assert.deepEqual(claims.map(({ kind }) => kind).sort(), ['taken', 'won']);
    assert.equal(
      (await window(storage, () => STOPPED + 61_000).claim('Acme')).kind,
      'won',
      'a minute later, an opening of its own',
    );
  });

  it("keeps a stop made in one window for the other's opening, until an answer well after it says the app tracks", async () => {
    let now = STOPPED;
    const storage = join(folder, 'storage');
    const [a, b] = [window(storage, () => now), window(storage, () => now)];
    await a.userStopped();
    now += 60_000;
    const reloaded = window(storage, () => now);
    assert.equal(await reloaded.stoppedAt(), STOPPED, 'a window opening after the stop sees it');
    await b.stateSeen(tracking(STOPPED + 1_000));
    assert.equal(await a.stoppedAt(), STOPPED, 'a poll that was on the wire while Stop went out changes nothing');
    await b.stateSeen(tracking(now));
    assert.equal(await a.stoppedAt(), STOPPED, 'the same activity still running is no start');
    await b.stateSeen(idle(now));
    await b.stateSeen(tracking(now, 'y'));
    assert.equal(await a.stoppedAt(), undefined, 'started again: openings act again');
  });

  it('keeps a stop at 23:50 for an opening at 00:10, and lets it go some hours later', async () => {
    const storage = join(folder, 'storage');
    const late = new Date(2026, 10, 27, 23, 50).getTime();
    let now = late;
    await window(storage, () => now).userStopped();
    now = new Date(2026, 10, 28, 0, 10).getTime();
    assert.equal(await window(storage, () => now).stoppedAt(), late, 'midnight is no start');
    now = late + STOP_HOLD_MS;
    assert.equal(await window(storage, () => now).stoppedAt(), undefined);
  });

  it('says why a claim could not be made instead of acting', async () => {
    const failing = window(join(folder, 'storage'), () => STOPPED, {
      withLock: () => Promise.reject(new Error('lock held by pid 7')),
      readText: () => Promise.reject(new Error('x')),
      writeAtomic: () => Promise.resolve(),
      version: () => Promise.resolve(undefined),
    });
    assert.deepEqual(await failing.claim('Acme'), { kind: 'failed', message: 'lock held by pid 7' });
    assert.equal((await window(join(folder, 'storage'), () => STOPPED).claim('Acme')).kind, 'won');
  });
});
