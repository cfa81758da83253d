import assert from 'node:assert/strict';
import type { CapabilityReading } from '../../../../src/client/capabilityFile';
import { CAPABILITY_CHECK_INTERVAL_MS, CapabilityWatcher, sameReading } from '../../../../src/tracker/model/capabilityWatcher';
import type { Timers } from '../../../../src/tracker/model/poller';

const path = '/home/u/api-endpoint.json';
const capability = { version: 1, socketPath: '/tmp/app/api.sock', token: 'integration-token', pid: 4242 } as const;
const ready: CapabilityReading = { kind: 'ready', path, capability };

/** Timers that fire only when the test says so. */
class ManualTimers implements Timers {
  readonly pending = new Map<number, { callback: () => void; ms: number }>();
  private next = 1;
  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.set(id, { callback, ms });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  fire(): void {
    const [id, timer] = [...this.pending][0]!;
    this.pending.delete(id);
    timer.callback();
  }
}

describe('tracker/capabilityWatcher: following the app as it starts, restarts and quits', () => {
  it('reports the first reading and each change, but not a reading that stayed the same', async () => {
    let file: CapabilityReading = { kind: 'absent', path };
    const seen: CapabilityReading['kind'][] = [];
    const timers = new ManualTimers();
    const watcher = new CapabilityWatcher({ read: () => Promise.resolve(file), onChange: (reading) => seen.push(reading.kind), timers });
    assert.equal((await watcher.current()).kind, 'absent');
    assert.deepEqual(seen, ['absent']);
    assert.deepEqual([...timers.pending.values()].map((timer) => timer.ms), [CAPABILITY_CHECK_INTERVAL_MS], 'the next look is planned');
    await watcher.check();
    assert.deepEqual(seen, ['absent'], 'nothing changed');
    file = ready; // the user turned the integration on
    await watcher.check();
    file = { kind: 'ready', path, capability: { ...capability, pid: 5000, socketPath: '/tmp/app/new.sock' } }; // the app restarted
    await watcher.check();
    file = { kind: 'stale', path, capability: { ...capability, pid: 5000, socketPath: '/tmp/app/new.sock' } }; // it crashed
    await watcher.check();
    file = { kind: 'absent', path }; // gone
    await watcher.check();
    assert.deepEqual(seen, ['absent', 'ready', 'ready', 'stale', 'absent']);
    watcher.dispose();
    assert.equal(timers.pending.size, 0);
  });

  it('looks again by itself on its timer, once per interval', async () => {
    let reads = 0;
    const timers = new ManualTimers();
    const watcher = new CapabilityWatcher({ read: () => Promise.resolve({ kind: 'absent', path: `${path}${reads++}` }), onChange: () => undefined, timers });
    await watcher.current();
    for (let i = 0; i < 3; i++) {
      timers.fire();
      await watcher.current();
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(reads, 4);
    assert.equal(timers.pending.size, 1, 'never more than one look planned');
    watcher.dispose();
  });

  it('never reads twice at once; a check asked for during a read runs right after it', async () => {
    let release: (() => void) | undefined;
    let reads = 0;
    let inFlight = 0;
    let most = 0;
    const readings: CapabilityReading[] = [{ kind: 'absent', path }, ready];
    const seen: string[] = [];
    const watcher = new CapabilityWatcher({
      read: async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        const reading = readings[Math.min(reads++, readings.length - 1)]!;
        await new Promise<void>((resolve) => (release = resolve));
        inFlight--;
        return reading;
      },
      onChange: (reading) => seen.push(reading.kind),
      timers: new ManualTimers(),
    });
    const first = watcher.check();
    const second = watcher.check();
    release?.();
    await new Promise((resolve) => setImmediate(resolve));
    release?.();
    await Promise.all([first, second]);
    assert.equal(most, 1);
    assert.equal(reads, 2);
    assert.deepEqual(seen, ['absent', 'ready'], 'the file written during the first read is not missed');
    watcher.dispose();
  });

  it('compares readings by what matters to the connection', () => {
    assert.equal(sameReading(ready, { kind: 'ready', path, capability: { ...capability } }), true);
    assert.equal(sameReading(ready, { kind: 'ready', path, capability: { ...capability, token: 'rotated' } }), false);
    assert.equal(sameReading(ready, { kind: 'stale', path, capability }), false);
    assert.equal(sameReading({ kind: 'invalid', path, message: 'a' }, { kind: 'invalid', path, message: 'b' }), false);
    assert.equal(sameReading({ kind: 'absent', path }, { kind: 'absent', path: `${path}.other` }), false);
  });
});
