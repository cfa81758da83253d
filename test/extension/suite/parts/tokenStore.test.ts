/**
 * The token store alone (src/extension/tokenStore.ts) over a fake secret store: where the token is
 * kept, that an empty one counts as none, and that a change of the token (by this window or
 * another) is heard while a change of any other secret is not.
 */
import * as assert from 'node:assert/strict';
import { TokenStore } from '../../../../src/extension/tokenStore';
import { STORAGE_KEYS } from '../../../../src/tracker/ids';
import { FakeSecretStorage } from './fakes';

describe('parts: TokenStore', () => {
  let secrets: FakeSecretStorage;
  let store: TokenStore;
  let changes: number;

  beforeEach(() => {
    secrets = new FakeSecretStorage();
    store = new TokenStore(secrets);
    changes = 0;
    store.onDidChange(() => changes++);
  });

  afterEach(() => {
    store.dispose();
    secrets.dispose();
  });

  it('keeps the token under its key in secret storage, reads it back and clears it', async () => {
    await store.set('token-store-part-1f2a');
    assert.equal(await secrets.get(STORAGE_KEYS.token), 'token-store-part-1f2a');
    assert.equal(await store.get(), 'token-store-part-1f2a');

    await store.clear();
    assert.equal(await secrets.get(STORAGE_KEYS.token), undefined);
    assert.equal(await store.get(), undefined);
  });

  it('counts an empty stored token as none', async () => {
    await secrets.store(STORAGE_KEYS.token, '');
    assert.equal(await store.get(), undefined);
  });

  it('fires on a change of the token, also one made by another window, and on nothing else', async () => {
    await store.set('token-store-part-1f2a');
    assert.equal(changes, 1, 'its own store');

    await secrets.store(STORAGE_KEYS.token, 'another-windows-token');
    await secrets.delete(STORAGE_KEYS.token);
    assert.equal(changes, 3, "another window's store and clear");

    await secrets.store('someOtherExtension.secret', 'x');
    assert.equal(changes, 3, 'another secret changed nothing');
  });

  it('hears nothing more once disposed', async () => {
    store.dispose();
    await secrets.store(STORAGE_KEYS.token, 'after-dispose');
    assert.equal(changes, 0);
  });
});
