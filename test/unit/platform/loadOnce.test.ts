/**
 * LoadOnce and forwardOnRead are what the activation bundle holds of the core (extension.ts): the
 * core built once, on first use; a failure kept, never a second half-built core; and an API that
 * builds nothing when VS Code only checks whether it is a promise.
 */
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { forwardOnRead, LoadOnce } from '../../../src/platform/loadOnce';

describe('LoadOnce', () => {
  it('builds the part on the first get, and only then', () => {
    let builds = 0;
    const part = new LoadOnce(() => ({ built: ++builds }));
    assert.equal(builds, 0);
    assert.equal(part.get().built, 1);
    assert.equal(part.get(), part.get());
    assert.equal(builds, 1);
  });

  it('tells what it has built without building it', () => {
    let builds = 0;
    const part = new LoadOnce(() => ({ built: ++builds }));
    assert.equal(part.loaded, undefined);
    assert.equal(builds, 0);
    assert.equal(part.loaded, undefined);
    const built = part.get();
    assert.equal(part.loaded, built);
  });

  it('keeps a failure and throws it again, without building a second time', () => {
    let builds = 0;
    const failure = new Error('core.js is missing');
    const part = new LoadOnce<number>(() => {
      builds++;
      throw failure;
    });
    assert.throws(
      () => part.get(),
      (error) => error === failure,
    );
    assert.throws(
      () => part.get(),
      (error) => error === failure,
    );
    assert.equal(builds, 1);
  });

  it('keeps a failure that is not an Error, too', () => {
    const part = new LoadOnce<number>(() => {
      // What a module may throw: not always an Error.
      // eslint-disable-next-line @typescript-eslint/only-throw-error
      throw 'a string';
    });
    assert.throws(
      () => part.get(),
      (error) => error === 'a string',
    );
    assert.throws(
      () => part.get(),
      (error) => error === 'a string',
    );
  });
});

describe('forwardOnRead', () => {
  interface Api {
    readonly state: string;
    refresh(): number;
  }

  function counted(): { api: Api; reads: () => number } {
    let reads = 0;
    let state = 'idle';
    const target: Api = {
      get state() {
        return state;
      },
      refresh: () => {
        state = 'tracking';
        return 7;
      },
    };
    return {
      api: forwardOnRead(() => {
        reads++;
        return target;
      }),
      reads: () => reads,
    };
  }

  it('reads each property from the target at the moment it is read', () => {
    const { api } = counted();
    assert.equal(api.state, 'idle');
    assert.equal(api.refresh(), 7);
    assert.equal(api.state, 'tracking');
    assert.equal('state' in api, true);
    assert.equal('missing' in api, false);
  });

  it('is not a promise, and Promise.resolve does not build what is behind it', async () => {
    const { api, reads } = counted();
    assert.equal((api as { then?: unknown }).then, undefined);
    assert.equal('then' in api, false);
    assert.equal(await Promise.resolve(api), api);
    inspect(api);
    assert.equal(reads(), 0);
  });
});
