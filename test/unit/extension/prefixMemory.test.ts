/**
 * The header prefix memory every window shares through globalState. VS Code hands a window back an
 * echo of each of its own globalState writes, and the echo of an older write can arrive after a
 * newer one: the memory must not take that for another window's news. This file runs without VS
 * Code: the store below keeps what a window wrote and lets a test deliver a late echo.
 */
import assert from 'node:assert/strict';
import { prefixMemory, type StateStore } from '../../../src/extension/prefixMemory';
import { channelClient } from '../../../src/extension/sessionClient';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { STORAGE_KEYS } from '../../../src/tracker/ids';
import { learnedPrefixKey, rememberPrefix } from '../../../src/tracker/model/learnedPrefix';
import { manualClock, TEST_TOKEN } from '../../support/server';

/** globalState as one window sees it, with every value it wrote kept in order. */
class EchoingStore implements StateStore {
  value: unknown;
  readonly written: unknown[] = [];

  get(key: string): unknown {
    return key === STORAGE_KEYS.learnedHeaderPrefixes ? this.value : undefined;
  }

  update(key: string, value: unknown): Promise<void> {
    assert.equal(key, STORAGE_KEYS.learnedHeaderPrefixes);
    this.value = value;
    this.written.push(value);
    return Promise.resolve();
  }

  /** The echo of the window's `index`-th write arriving now, after whatever came since. */
  echo(index: number): void {
    this.value = this.written[index];
  }
}

const quiet = { info: (): void => undefined, warn: (): void => undefined };

function httpChannel(port: number) {
  return { kind: 'http', route: { kind: 'http', port }, token: TEST_TOKEN, tokenSource: 'secretStorage' } as const;
}

describe('extension/prefixMemory: what auto learned, shared by the windows through globalState', () => {
  it('takes no late echo of its own older write for news, and still takes what another window learns', () => {
    const store = new EchoingStore();
    const channel = httpChannel(39847);
    const memory = prefixMemory(store, quiet, channel, 'through the HTTP API');
    memory.onHeaderPrefix('Clessira');
    memory.onHeaderPrefix('NowDoing');
    store.echo(0);
    assert.equal(memory.learnedHeaderPrefix(), undefined, 'the echo of the first write is older than the second');
    store.echo(1);
    assert.equal(memory.learnedHeaderPrefix(), 'NowDoing');

    store.value = rememberPrefix(store.value, learnedPrefixKey(channel), 'Clessira');
    assert.equal(memory.learnedHeaderPrefix(), 'Clessira', "another window's newer learning is news");
  });

  it('reads what a new window finds', () => {
    const store = new EchoingStore();
    const channel = httpChannel(39847);
    store.value = rememberPrefix(undefined, learnedPrefixKey(channel), 'NowDoing');
    assert.equal(prefixMemory(store, quiet, channel, 'here').learnedHeaderPrefix(), 'NowDoing');
    prefixMemory(store, quiet, channel, 'here').onHeaderPrefix('Clessira');
    assert.equal(prefixMemory(store, quiet, channel, 'here').learnedHeaderPrefix(), 'Clessira');
  });

  describe('a window whose app comes back as the other build', () => {
    let app: ReferenceServer | undefined;
    let port = 0;
    const clock = manualClock();
    afterEach(async () => {
      await app?.close();
      app = undefined;
    });

    async function startApp(build: 'first-release' | 'current'): Promise<ReferenceServer> {
      await app?.close();
      app = createReferenceServer({ token: TEST_TOKEN, build, countUnsigned: true, clock });
      port = await app.listen(port);
      return app;
    }

    it('spends one refused request on the change, also when the echo of its older write lands late', async () => {
      const store = new EchoingStore();
      await startApp('current');
      const client = channelClient(httpChannel(port), {
        memento: store,
        log: quiet,
        headerPrefix: 'auto',
        onRequest: () => undefined,
        clock,
      });
      try {
        await client.getCurrent();
        const restarted = await startApp('first-release');
        await client.getCurrent();
        const learned = store.written.flatMap((record) => Object.values(record as Record<string, { prefix: string }>));
        assert.deepEqual(
          learned.map((entry) => entry.prefix),
          ['Clessira', 'NowDoing'],
        );
        store.echo(0);
        await client.getCurrent();
        await client.getCurrent();
        const statuses = restarted.controls.debugView().map((record) => record.status);
        assert.deepEqual(statuses, [401, 200, 200, 200], 'one 401 for the change of build, none for the echo');
      } finally {
        await client.close();
      }
    });
  });
});
