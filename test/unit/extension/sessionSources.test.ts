/**
 * What the session reads before it chooses a channel: the stored token, the environment's and the
 * capability file, with small fakes for the keychain and the file. Runs without VS Code.
 */
import assert from 'node:assert/strict';
import type { CapabilityReading } from '../../../src/client/capabilityReader';
import { readSources } from '../../../src/extension/sessionSources';
import type { HostDecision } from '../../../src/tracker/model/remoteHost';

const path = '/home/u/Library/Containers/com.mattes.clessira/Data/api-endpoint.json';
const ready: CapabilityReading = {
  kind: 'ready',
  path,
  capability: { version: 1, socketPath: '/tmp/app/api.sock', token: 'integration-token', pid: 4242 },
};
const local: HostDecision = { allowed: true, why: 'localWindow' };

/** A promise the test settles, and whether it was asked for. */
function pending<T>(): { promise: Promise<T>; resolve: (value: T) => void; asked: boolean } {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve, asked: false };
}

describe('extension/sessionSources: the token and the capability file a channel is chosen from', () => {
  it('asks the keychain and reads the file at once, not one after the other', async () => {
    const keychain = pending<string | undefined>();
    const file = pending<CapabilityReading>();
    const reading = readSources({
      tokens: {
        get: () => {
          keychain.asked = true;
          return keychain.promise;
        },
      },
      log: { error: () => undefined },
      environment: {},
      host: () => local,
      capability: () => {
        file.asked = true;
        return file.promise;
      },
    });
    assert.deepEqual([keychain.asked, file.asked], [true, true], 'the file is read while the keychain answers');
    file.resolve(ready);
    keychain.resolve('stored-token');
    assert.deepEqual(await reading, {
      httpToken: { token: 'stored-token', source: 'secretStorage' },
      tokenStored: true,
      capability: ready,
      hostRefused: false,
    });
  });

  it('reads a keychain that fails as no token, says why, and still reads the file; the environment token counts', async () => {
    const errors: string[] = [];
    const sources = await readSources({
      tokens: { get: () => Promise.reject(new Error('no keyring')) },
      log: { error: (line) => errors.push(line) },
      environment: { NOWDOING_TOKEN: 'from-the-environment' },
      host: () => local,
      capability: () => Promise.resolve(ready),
    });
    assert.deepEqual(errors, ['Reading the token from secret storage failed: no keyring']);
    assert.equal(sources.tokenStored, false);
    assert.equal(sources.capability, ready);
    assert.equal(sources.httpToken?.source, '$NOWDOING_TOKEN');
  });

  it("on a remote machine's host, reads no file at all", async () => {
    let reads = 0;
    const sources = await readSources({
      tokens: { get: () => Promise.resolve(undefined) },
      log: { error: () => undefined },
      environment: {},
      host: () => ({ allowed: false, why: 'remoteWorkspaceHost' }),
      capability: () => {
        reads++;
        return Promise.resolve(ready);
      },
    });
    assert.deepEqual([reads, sources.hostRefused, sources.capability.kind], [0, true, 'absent']);
  });
});
