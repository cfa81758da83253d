/**
 * macOS's refusal of the capability file, kept in globalState between starts: what a session
 * starts from, what it logs, and what each reading writes. Runs without VS Code: the store is a map.
 */
import assert from 'node:assert/strict';
import { macPrivacyRefusal } from '../../../src/client/capabilityReader';
import type { StateStore } from '../../../src/extension/prefixMemory';
import { privacyMemory } from '../../../src/extension/privacyMemory';
import { STORAGE_KEYS } from '../../../src/tracker/ids';

class MapStore implements StateStore {
  readonly values = new Map<string, unknown>();
  writes = 0;
  get(key: string): unknown {
    return this.values.get(key);
  }
  update(key: string, value: unknown): Promise<void> {
    this.writes++;
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
    return Promise.resolve();
  }
}

const container = '/Users/u/Library/Containers/com.mattes.clessira/Data/api-endpoint.json';

describe('extension/privacyMemory: macOS refused the capability file, kept for every window', () => {
  it('remembers a refusal once, starts the next session from it with one line why, and forgets it once read', () => {
    const store = new MapStore();
    const lines: string[] = [];
    const log = { info: (line: string) => lines.push(line), warn: (line: string) => lines.push(`warn: ${line}`) };
    const memory = privacyMemory(store, log, 'darwin');
    assert.equal(memory.recall([container]), undefined, 'nothing remembered yet');

    memory.learn(macPrivacyRefusal(container), [container]);
    memory.learn(macPrivacyRefusal(container), [container]);
    assert.deepEqual([store.get(STORAGE_KEYS.macPrivacyRefusal), store.writes], [{ path: container }, 1]);

    lines.length = 0;
    const next = privacyMemory(store, log, 'darwin');
    assert.deepEqual(next.recall([container]), macPrivacyRefusal(container));
    assert.equal(lines.length, 1);
    assert.match(lines[0] ?? '', /is not read: macOS refused .* before.*Check Connection looks again/);

    next.learn({ kind: 'absent', path: container }, [container]);
    assert.deepEqual([store.values.has(STORAGE_KEYS.macPrivacyRefusal), store.writes], [false, 2]);
  });

  it('says in the log when keeping it failed', async () => {
    const lines: string[] = [];
    const failing: StateStore = { get: () => undefined, update: () => Promise.reject(new Error('disk full')) };
    const memory = privacyMemory(
      failing,
      { info: () => undefined, warn: (line: string) => lines.push(line) },
      'darwin',
    );
    memory.learn(macPrivacyRefusal(container), [container]);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(lines.length, 1);
    assert.match(lines[0] ?? '', /disk full/);
  });
});
