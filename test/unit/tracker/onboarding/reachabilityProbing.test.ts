/**
 * Onboarding's reachability probing (ReachabilityProbing in src/tracker/onboarding/onboardingProgress.ts, as the
 * extension builds it, with its default probe) against the reference server in its strictest
 * reading of the app (`countUnsigned`: every request without signing headers is a failed sign-in,
 * eleven in 30 s lock every tool out for 60 s). Four windows without a token probe for a minute at
 * the default poll interval; virtual timers run that minute in well under a second, and the
 * server's clock moves with them, so its 30 s window is the virtual one.
 *
 * The control runs the very same schedule with the probe's old shape, an unsigned
 * `OPTIONS /healthcheck` (src/client/probe.ts until issue 14): it locks the user out, which shows
 * that the test can fail and why the probe must send nothing. (The old loop stopped after the
 * first answer, but asked again at every state without a token, on every focus and command; at a
 * poll interval's pace it is the arithmetic of issue 14: three a window in 30 s, four windows 12.)
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Reachability, ReachabilityTarget } from '../../../../src/client/reachability';
import { ENDPOINTS } from '../../../../src/protocol/types';
import { ReachabilityProbing } from '../../../../src/tracker/onboarding/onboardingProgress';
import type { Timers } from '../../../../src/platform/timers';
import { signedSend } from '../../../support/http';
import { startServer, type StartedServer } from '../../../support/server';

const WINDOWS = 4;
const MINUTE_MS = 60_000;

/** The poll interval a new user has: the setting's default in package.json. */
function defaultIntervalMs(): number {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', '..', 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { default?: unknown }> } };
  };
  const seconds = manifest.contributes.configuration.properties['timeTracker.pollIntervalSeconds']?.default;
  assert.equal(typeof seconds, 'number');
  return (seconds as number) * 1000;
}

/** One virtual clock for every window's timers; each timer remembers the window it belongs to. */
class VirtualTime {
  now = 0;
  private readonly pending = new Map<number, { due: number; window: number; callback: () => void }>();
  private nextId = 1;

  timersFor(window: number): Timers {
    return {
      setTimeout: (callback, ms) => {
        const id = this.nextId++;
        this.pending.set(id, { due: this.now + ms, window, callback });
        return id;
      },
      clearTimeout: (handle) => this.pending.delete(handle as number),
    };
  }

  /** Takes the earliest timer due by `end` (first set first on a tie), moving the clock to it. */
  takeNext(end: number): { window: number; callback: () => void } | undefined {
    let earliest: [number, { due: number; window: number; callback: () => void }] | undefined;
    for (const entry of this.pending)
      if (entry[1].due <= end && (!earliest || entry[1].due < earliest[1].due)) earliest = entry;
    if (!earliest) return undefined;
    this.pending.delete(earliest[0]);
    this.now = earliest[1].due;
    return earliest[1];
  }
}

interface ProbeWindow {
  readonly probing: ReachabilityProbing;
  readonly answers: boolean[];
  /** Resolves with the window's next answer. */
  nextAnswer(): Promise<boolean>;
}

/**
 * Four windows, each opened 2.5 s after the one before and probing from then on, for a minute of
 * virtual time. Each timer that fires starts a probe (real I/O to the server); the clock moves on
 * only once that probe has answered.
 */
async function probeForAMinute(
  started: StartedServer,
  probe?: (target: ReachabilityTarget) => Promise<Reachability>,
): Promise<ProbeWindow[]> {
  const time = new VirtualTime();
  started.server.controls.setClock(() => started.clock());
  const base = started.clock();
  const intervalMs = defaultIntervalMs();
  const windows: ProbeWindow[] = [];
  for (let index = 0; index < WINDOWS; index++) {
    const answers: boolean[] = [];
    let waiting: ((reachable: boolean) => void) | undefined;
    const probing = new ReachabilityProbing({
      target: () => ({ port: started.port }),
      intervalMs: () => intervalMs,
      onAnswer: (reachable) => {
        answers.push(reachable);
        waiting?.(reachable);
        waiting = undefined;
      },
      timers: time.timersFor(index),
      ...(probe === undefined ? {} : { probe }),
    });
    windows.push({ probing, answers, nextAnswer: () => new Promise((resolve) => (waiting = resolve)) });
    // A window opening without a token: its first state starts the probing, as the extension's onState does.
    time.timersFor(index).setTimeout(() => probing.start(), index * 2_500);
  }
  for (let next = time.takeNext(MINUTE_MS); next; next = time.takeNext(MINUTE_MS)) {
    started.clock.set(base + time.now);
    const window = windows[next.window]!;
    const answered = window.nextAnswer();
    next.callback();
    await answered;
  }
  for (const window of windows) window.probing.stop();
  return windows;
}

/** The probe as it was: any HTTP answer to an unsigned OPTIONS /healthcheck meant "reachable". */
function oldUnsignedOptions(target: ReachabilityTarget): Promise<Reachability> {
  const port = 'port' in target ? target.port : assert.fail('the old probe asked the port only');
  return new Promise((resolve) => {
    const probe = request(
      { host: '127.0.0.1', port, method: 'OPTIONS', path: ENDPOINTS.healthcheck.path, agent: false },
      (response) => {
        response.resume();
        resolve({ kind: 'listening' });
      },
    );
    probe.once('error', () => resolve({ kind: 'refused' }));
    probe.end();
  });
}

describe('tracker/onboardingProgress: four windows probing for a minute against an app that counts every unsigned request', function () {
  // A real minute would run into this; the virtual one takes milliseconds.
  this.timeout(10_000);
  let started: StartedServer | undefined;

  afterEach(async () => {
    await started?.server.close();
    started = undefined;
  });

  it('counts no failed sign-in, and a signed request afterwards is served', async () => {
    started = await startServer({ countUnsigned: true });
    const windows = await probeForAMinute(started);
    assert.deepEqual(
      windows.map((window) => window.answers),
      windows.map((_, index) =>
        Array.from({ length: Math.floor((MINUTE_MS - index * 2_500) / defaultIntervalMs()) + 1 }, () => true),
      ),
      'every window found the app at every poll interval',
    );
    assert.equal(started.server.controls.failedSignIns, 0);
    assert.deepEqual(started.server.controls.debugView(), [], 'no request reached the app at all');
    assert.equal((await signedSend(started, { method: 'GET', target: '/status' })).status, 200);
  });

  it('control: the old unsigned OPTIONS on the same schedule locks the user out', async () => {
    started = await startServer({ countUnsigned: true });
    await probeForAMinute(started, oldUnsignedOptions);
    assert.ok(
      started.server.controls.failedSignIns > 10,
      `only ${started.server.controls.failedSignIns} failed sign-ins counted`,
    );
    const signed = await signedSend(started, { method: 'GET', target: '/status' });
    assert.equal(signed.status, 429, 'the signed request after the minute is locked out');
  });
});

describe('tracker/onboardingProgress: ReachabilityProbing', () => {
  /** A probe the test answers by hand, recording where it was asked to look. */
  function manualProbe(): {
    probe: (target: ReachabilityTarget) => Promise<Reachability>;
    asked: ReachabilityTarget[];
    answer: (reachability: Reachability) => Promise<void>;
  } {
    const asked: ReachabilityTarget[] = [];
    const open: ((reachability: Reachability) => void)[] = [];
    return {
      asked,
      probe: (target) => {
        asked.push(target);
        return new Promise((resolve) => open.push(resolve));
      },
      // Resolving, then letting the awaiting probe loop run on.
      answer: async (reachability) => {
        (open.shift() ?? assert.fail('no probe is waiting'))(reachability);
        await new Promise((resolve) => setImmediate(resolve));
      },
    };
  }

  function setup(): {
    probing: ReachabilityProbing;
    time: VirtualTime;
    manual: ReturnType<typeof manualProbe>;
    answers: boolean[];
    settings: { port: number; intervalMs: number };
  } {
    const time = new VirtualTime();
    const manual = manualProbe();
    const answers: boolean[] = [];
    const settings = { port: 39847, intervalMs: 10_000 };
    const probing = new ReachabilityProbing({
      target: () => ({ port: settings.port }),
      intervalMs: () => settings.intervalMs,
      onAnswer: (reachable) => answers.push(reachable),
      timers: time.timersFor(0),
      probe: manual.probe,
    });
    return { probing, time, manual, answers, settings };
  }

  it('asks at once, then every interval whatever the answer, reading the port and the interval afresh', async () => {
    const { probing, time, manual, answers, settings } = setup();
    probing.start();
    await manual.answer({ kind: 'refused' });
    settings.port = 40000;
    settings.intervalMs = 2_000;
    time.takeNext(Infinity)!.callback();
    await manual.answer({ kind: 'listening' });
    time.takeNext(Infinity)!.callback();
    await manual.answer({ kind: 'timedOut' });
    assert.deepEqual(answers, [false, true, false]);
    assert.deepEqual(manual.asked, [{ port: 39847 }, { port: 40000 }, { port: 40000 }]);
    assert.equal(time.now, 12_000, 'the first wait was read before the change, the second after');
    probing.stop();
  });

  it('drops the answer of a probe that a stop or a new start overtook, and stop leaves no timer', async () => {
    const { probing, time, manual, answers } = setup();
    probing.start();
    probing.stop();
    await manual.answer({ kind: 'listening' });
    assert.deepEqual(answers, []);
    assert.equal(time.takeNext(Infinity), undefined);

    probing.start();
    probing.start();
    await manual.answer({ kind: 'refused' });
    await manual.answer({ kind: 'listening' });
    assert.deepEqual(answers, [true], 'only the latest start answers');
    probing.stop();
    assert.equal(time.takeNext(Infinity), undefined);
  });
});
