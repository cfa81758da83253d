import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OpeningGuard, type OpeningGuardParts } from '../../../../src/extension/links/openingGuard';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';

// Two windows of one machine, as two guards over one globalState and one storage folder (the real
// file lock and files); this file runs without VS Code.

const STOPPED = new Date(2026, 10, 27, 18, 2).getTime();
const NOTHING_TO_DISPOSE = { dispose: () => undefined };

function sharedState(): OpeningGuardParts['globalState'] {
  const values = new Map<string, unknown>();
  return {
    keys: () => [...values.keys()],
    get: (key: string) => values.get(key),
    update: (key: string, value: unknown) => {
      if (value === undefined) values.delete(key);
      else values.set(key, value);
      return Promise.resolve();
    },
  } as OpeningGuardParts['globalState'];
}

function window(globalState: OpeningGuardParts['globalState'], storageFolder: string, clock: () => number) {
  const listeners: ((state: TrackerState) => void)[] = [];
  const logged: string[] = [];
  const log = { debug: (line: string) => logged.push(line), info: (line: string) => logged.push(line), warn: (line: string) => logged.push(line) } as unknown as OpeningGuardParts['log'];
  const onDidChangeState = (listener: (state: TrackerState) => void) => {
    listeners.push(listener);
    return NOTHING_TO_DISPOSE;
  };
  const guard = new OpeningGuard({ globalState, storageFolder, onDidChangeState, log, clock });
  return { guard, logged, see: (state: TrackerState) => listeners.forEach((listener) => listener(state)) };
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
    const state = sharedState();
    const now = (): number => STOPPED;
    const [a, b] = [window(state, join(folder, 'storage'), now), window(state, join(folder, 'storage'), now)];
    const claims = await Promise.all([a.guard.claim('Acme'), b.guard.claim('Acme')]);
    assert.deepEqual(claims.map(({ kind }) => kind).sort(), ['taken', 'won']);
    const later = window(state, join(folder, 'storage'), () => STOPPED + 61_000);
    assert.equal((await later.guard.claim('Acme')).kind, 'won', 'a minute later, an opening of its own');
  });

  it("keeps a stop made in one window for the other's opening, until an answer after it says the app tracks", async () => {
    const state = sharedState();
    let now = STOPPED;
    const [a, b] = [window(state, folder, () => now), window(state, folder, () => now)];
    a.guard.userStopped();
    now += 60_000;
    assert.equal(b.guard.stoppedAt(), STOPPED, 'the reloaded window sees the stop');
    b.see({ kind: 'tracking', activity: { activityID: 'x', activityName: 'Docs' }, onBreak: false, startedAtMs: undefined, appClockOffsetMs: 0, todaySeconds: 0, observedAtMs: STOPPED - 1 });
    assert.equal(a.guard.stoppedAt(), STOPPED, 'an answer from before the stop changes nothing');
    b.see({ kind: 'tracking', activity: { activityID: 'x', activityName: 'Docs' }, onBreak: false, startedAtMs: undefined, appClockOffsetMs: 0, todaySeconds: 0, observedAtMs: now });
    await Promise.resolve();
    assert.equal(a.guard.stoppedAt(), undefined, 'started again: openings act again');
  });

  it('says why a claim could not be made instead of acting', async () => {
    const state = sharedState();
    const w = window(state, join(folder, 'storage'), () => STOPPED);
    const failing = new OpeningGuard({
      globalState: state,
      storageFolder: join(folder, 'storage'),
      onDidChangeState: () => NOTHING_TO_DISPOSE,
      log: { debug: () => undefined } as unknown as OpeningGuardParts['log'],
      clock: () => STOPPED,
      files: { withLock: () => Promise.reject(new Error('lock held by pid 7')), readText: () => Promise.reject(new Error('x')), writeAtomic: () => Promise.resolve(), version: () => Promise.resolve(undefined) },
    });
    assert.deepEqual(await failing.claim('Acme'), { kind: 'failed', message: 'lock held by pid 7' });
    assert.equal((await w.guard.claim('Acme')).kind, 'won');
  });
});
