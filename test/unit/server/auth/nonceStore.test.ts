import assert from 'node:assert/strict';
import { NonceStore } from '../../../../src/server/auth/nonceStore';
import { manualClock } from '../../../support/server';

describe('server/auth/NonceStore', () => {
  const nonce = 'abcdefabcdefabcdefabcdefabcdefab';

  it('refuses a nonce reused at 179 s and accepts it at 181 s', () => {
    const clock = manualClock();
    const store = new NonceStore(clock);
    assert.deepEqual(store.accept(nonce), { kind: 'fresh' });
    clock.advance(179_000);
    assert.deepEqual(store.accept(nonce), { kind: 'replayed' });
    clock.advance(2_000);
    assert.deepEqual(store.accept(nonce), { kind: 'fresh' });
  });

  it('remembers nonces lower-cased: the same nonce in another letter case is a replay', () => {
    const clock = manualClock();
    const store = new NonceStore(clock);
    assert.deepEqual(store.accept('AbCdEf0123456789'), { kind: 'fresh' });
    assert.deepEqual(store.accept('ABCDEF0123456789'), { kind: 'replayed' });
    assert.deepEqual(store.accept('abcdef0123456789'), { kind: 'replayed' });
    assert.equal(store.size, 1);
  });

  it('still refuses at exactly 180 s: the window includes its edge', () => {
    const clock = manualClock();
    const store = new NonceStore(clock);
    store.accept(nonce);
    clock.advance(180_000);
    assert.deepEqual(store.accept(nonce), { kind: 'replayed' });
  });

  it('a replay does not refresh the remembered time', () => {
    const clock = manualClock();
    const store = new NonceStore(clock);
    store.accept(nonce);
    clock.advance(100_000);
    store.accept(nonce);
    clock.advance(81_000);
    assert.deepEqual(store.accept(nonce), { kind: 'fresh' });
  });

  it('fails closed when full, with Retry-After until the oldest entry expires', () => {
    const clock = manualClock();
    const store = new NonceStore(clock, 3);
    store.accept('n1'.padEnd(16, '0'));
    clock.advance(10_000);
    store.accept('n2'.padEnd(16, '0'));
    store.accept('n3'.padEnd(16, '0'));
    assert.deepEqual(store.accept('n4'.padEnd(16, '0')), { kind: 'full', retryAfterSeconds: 170 });
    assert.deepEqual(store.accept('n1'.padEnd(16, '0')), { kind: 'replayed' }, 'never forgets early');
    clock.advance(170_001);
    assert.deepEqual(store.accept('n4'.padEnd(16, '0')), { kind: 'fresh' });
    assert.equal(store.size, 3);
  });
});
