import assert from 'node:assert/strict';
import type { Channel } from '../../../../src/tracker/model/channel';
import {
  learnedPrefixKey,
  MAX_LEARNED_PREFIXES,
  recallLearned,
  rememberPrefix,
} from '../../../../src/tracker/model/learnedPrefix';

type ChannelWithToken = Exclude<Channel, { kind: 'none' }>;

const http = (port: number, token: string): ChannelWithToken => ({
  kind: 'http',
  route: { kind: 'http', port },
  token,
  tokenSource: 'secretStorage',
});
const integration = (socketPath: string, token: string, pid: number): ChannelWithToken => ({
  kind: 'integration',
  route: { kind: 'integration', socketPath },
  token,
  pid,
  file: '/tmp/api-endpoint.json',
});

describe('tracker/learnedPrefix: what auto learned, per app and token, for every window', () => {
  it('keys by route and token, never holding the token, and the same across app restarts', () => {
    const key = learnedPrefixKey(http(39847, 'secret-token-value'));
    assert.match(key, /^[0-9a-f]{32}$/);
    assert.equal(key.includes('secret'), false);
    assert.equal(learnedPrefixKey(http(39847, 'secret-token-value')), key, 'a reload finds it');
    assert.notEqual(learnedPrefixKey(http(39847, 'another-token')), key, 'another token is another key');
    assert.notEqual(learnedPrefixKey(http(39848, 'secret-token-value')), key, 'another port is another app');
    const socket = learnedPrefixKey(integration('/tmp/a.sock', 'secret-token-value', 100));
    assert.equal(
      learnedPrefixKey(integration('/tmp/a.sock', 'secret-token-value', 200)),
      socket,
      'a restarted app (new pid) with the same token',
    );
    assert.notEqual(learnedPrefixKey(integration('/tmp/b.sock', 'secret-token-value', 100)), socket);
    assert.notEqual(socket, key);
  });

  it('recalls only a prefix stored for the key, whatever else the record holds', () => {
    const record = rememberPrefix(undefined, 'a', 'NowDoing');
    assert.equal(recallLearned(record, 'a')?.prefix, 'NowDoing');
    assert.equal(recallLearned(record, 'b')?.prefix, undefined);
    for (const damaged of [undefined, null, 'NowDoing', 42, ['NowDoing'], { a: 'nowdoing' }, { a: 7 }]) {
      assert.equal(recallLearned(damaged, 'a')?.prefix, undefined, JSON.stringify(damaged));
    }
    assert.equal(recallLearned({}, 'toString')?.prefix, undefined, 'not an inherited property');
  });

  it('remembers the newest prefix per key, keeps the newest apps only, and starts afresh over a damaged record', () => {
    let record = rememberPrefix(undefined, 'a', 'Clessira');
    record = rememberPrefix(record, 'b', 'NowDoing');
    record = rememberPrefix(record, 'a', 'NowDoing');
    assert.deepEqual(Object.entries(record), [
      ['b', { prefix: 'NowDoing', generation: 1 }],
      ['a', { prefix: 'NowDoing', generation: 2 }],
    ]);
    for (let app = 0; app < MAX_LEARNED_PREFIXES + 5; app++) record = rememberPrefix(record, `app${app}`, 'Clessira');
    assert.equal(Object.keys(record).length, MAX_LEARNED_PREFIXES);
    assert.equal(recallLearned(record, 'a')?.prefix, undefined, 'the oldest went first');
    assert.equal(recallLearned(record, `app${MAX_LEARNED_PREFIXES + 4}`)?.prefix, 'Clessira');
    assert.deepEqual(rememberPrefix('garbage', 'a', 'NowDoing'), { a: { prefix: 'NowDoing', generation: 1 } });
    assert.deepEqual(
      rememberPrefix({ x: 'bad', y: 'Clessira', z: { prefix: 'NowDoing', generation: -1 } }, 'a', 'NowDoing'),
      { a: { prefix: 'NowDoing', generation: 1 } },
    );
  });

  it('counts the writes per key', () => {
    const record = rememberPrefix(rememberPrefix(undefined, 'a', 'Clessira'), 'a', 'NowDoing');
    assert.deepEqual(recallLearned(record, 'a'), { prefix: 'NowDoing', generation: 2 });
    for (const damaged of [
      { prefix: 'x', generation: 1 },
      { prefix: 'Clessira', generation: 1.5 },
      { prefix: 'Clessira' },
      'NowDoing',
    ]) {
      assert.equal(recallLearned({ a: damaged }, 'a'), undefined, JSON.stringify(damaged));
    }
  });
});
