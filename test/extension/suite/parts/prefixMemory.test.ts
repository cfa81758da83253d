/**
 * The header-prefix memory alone (src/extension/prefixMemory.ts) over a fake memento and a
 * recording log, with real clients of a reference server that takes only X-NowDoing-* headers:
 * what the first client learns is kept, a second client for the same app and token signs in with
 * it at once, another token starts afresh, and the record never holds the token.
 */
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../../../src/client';
import { prefixMemory } from '../../../../src/extension/prefixMemory';
import { STORAGE_KEYS } from '../../../../src/tracker/ids';
import type { Channel } from '../../../../src/tracker/model/channel';
import { FakeMemento, RecordingLog } from './fakes';
import { useReferenceApp } from './sessionFakes';

const TOKEN = 'prefix-memory-part-token-4e7b';

describe('parts: prefixMemory', function () {
  this.timeout(20_000);
  const app = useReferenceApp({ token: TOKEN, headerPrefix: 'NowDoing' });
  let memento: FakeMemento;
  let log: RecordingLog;

  const channel = (token: string): Exclude<Channel, { kind: 'none' }> => ({
    kind: 'http',
    route: { kind: 'http', port: app.port },
    token,
    tokenSource: 'secretStorage',
  });
  const refused = (): number => app.server.controls.debugView().filter((record) => record.status === 401).length;
  const clientWith = (token: string): ServiceClient =>
    new ServiceClient({
      token,
      port: app.port,
      headerPrefix: 'auto',
      ...prefixMemory(memento, log, channel(token), `on port ${app.port}`),
    });

  beforeEach(() => {
    memento = new FakeMemento();
    log = new RecordingLog();
  });

  it('keeps what a client learned in globalState, keyed without the token, and says so in the log', async () => {
    const before = refused();
    await clientWith(TOKEN).getStatus();
    assert.equal(refused() - before, 1, 'the first client tried Clessira once');

    const record: unknown = memento.get(STORAGE_KEYS.learnedHeaderPrefixes);
    assert.ok(record !== undefined, 'a record was kept');
    assert.ok(!JSON.stringify(record).includes(TOKEN), 'the record never holds the token');
    assert.equal(prefixMemory(memento, log, channel(TOKEN), '').learnedHeaderPrefix(), 'NowDoing');
    assert.deepEqual(log.at('info'), [
      `The app answers to X-NowDoing-* headers on port ${app.port}; they are used from now on.`,
    ]);
  });

  it('lets the next client for the same app and token sign in without a refused request', async () => {
    await clientWith(TOKEN).getStatus();
    const before = refused();

    await clientWith(TOKEN).getStatus();

    assert.equal(refused(), before, 'no 401 for the second client');
    assert.equal(prefixMemory(memento, log, channel(TOKEN), '').learnedHeaderPrefix(), 'NowDoing');
  });

  it('knows nothing for another token of the same app', async () => {
    await clientWith(TOKEN).getStatus();
    assert.equal(prefixMemory(memento, log, channel('another-token'), '').learnedHeaderPrefix(), undefined);
  });

  it('logs a warning, and throws nothing into the client, when globalState cannot be written', async () => {
    const failing = new FakeMemento();
    failing.update = () => Promise.reject(new Error('the disk is full'));
    memento = failing;

    await clientWith(TOKEN).getStatus();
    await Promise.resolve();

    assert.deepEqual(log.at('warn'), ['Keeping the header prefix for the next window failed: the disk is full']);
  });
});
