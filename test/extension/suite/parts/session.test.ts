/**
 * The session alone (src/extension/session.ts), built with a fake secret store and memento, a
 * recording log, settings pointing at the reference server, an empty environment and a home
 * folder with no capability file: which states a token leads to, and that a rejected token is
 * not tried again until someone asks; and that macOS's privacy refusal of the app's container is
 * remembered for the next start, which does not read the file (and so is not asked about) until
 * Check Connection.
 */
import * as assert from 'node:assert/strict';
import { join } from 'node:path';
import type { CapabilityChecks } from '../../../../src/client/capabilityReader';
import type { Session } from '../../../../src/extension/session';
import { STORAGE_KEYS } from '../../../../src/tracker/ids';
import type { TrackerStateKind } from '../../../../src/tracker/model/trackerState';
import { FakeMemento, RecordingLog, type FakeSecretStorage } from './fakes';
import { buildSession, untilState, useReferenceApp } from './sessionFakes';

const TOKEN = 'session-part-token-5b0f';

describe('parts: Session', function () {
  this.timeout(20_000);
  const app = useReferenceApp({ token: TOKEN });
  /** The path of every request the server answered, in order. */
  const requests = app.requests;
  let log: RecordingLog;
  let secrets: FakeSecretStorage;
  let session: Session | undefined;
  let states: TrackerStateKind[];

  const build = (stored: string | undefined): Session => {
    const built = buildSession({ port: app.port, home: app.home, log, token: stored });
    ({ session, secrets } = built);
    built.session.onDidChangeState((state) => states.push(state.kind));
    return built.session;
  };

  beforeEach(() => {
    log = new RecordingLog();
    states = [];
    requests.length = 0;
  });

  afterEach(() => {
    session?.dispose();
    session = undefined;
    secrets.dispose();
  });

  it('with the token in secret storage, talks to the app and shows it idle, never logging the token', async () => {
    const part = build(TOKEN);
    await part.reconnect();

    assert.equal(part.state.kind, 'idle', log.toString());
    assert.deepEqual(part.channel.kind === 'http' && [part.channel.tokenSource, part.channel.route.port], [
      'secretStorage',
      app.port,
    ]);
    assert.ok(part.client, 'a client in use');
    assert.ok(part.tokenStored);
    assert.ok(requests.includes('/status'), `requests: ${requests.join(', ')}`);
    assert.ok(
      log.at('info').some((line) => line.startsWith('Talking to the app') && line.includes('secret storage')),
      log.toString(),
    );
    assert.ok(!log.toString().includes(TOKEN), 'the token is never logged');
  });

  it('without a token, shows noToken and asks the app nothing', async () => {
    const part = build(undefined);
    await part.reconnect();

    assert.equal(part.state.kind, 'noToken');
    assert.equal(part.client, undefined);
    assert.deepEqual(requests, []);
  });

  it('a rejected token shows tokenRejected, and nothing more is sent until someone asks', async () => {
    const part = build('not-the-token-of-this-app');
    await part.reconnect();
    await untilState(part, 'tokenRejected');
    const sent = requests.length;
    assert.ok(sent > 0, 'the token was tried');

    await part.refreshUnlessPaused();

    assert.equal(part.state.kind, 'tokenRejected');
    assert.equal(requests.length, sent, `no further request: ${requests.join(', ')}`);
    assert.ok(!log.toString().includes('not-the-token-of-this-app'), 'the token is never logged');
  });

  it('a token stored by another window is taken up without being asked', async () => {
    const part = build(undefined);
    await part.reconnect();
    assert.equal(part.state.kind, 'noToken');

    const idle = untilState(part, 'idle');
    await secrets.store(STORAGE_KEYS.token, TOKEN);
    await idle;

    assert.ok(requests.includes('/status'), `requests: ${requests.join(', ')}`);
    assert.deepEqual(states.slice(-1), ['idle']);
  });

  it("remembers macOS's refusal of the app's container: the next start reads the file no more until Check Connection", async () => {
    const file = join(app.home, 'Library', 'Containers', 'com.mattes.clessira', 'Data', 'api-endpoint.json');
    let refusing = true;
    const reads: string[] = [];
    // A Mac whose user chose Don't Allow at "would like to access data from other apps", then Allow.
    const capabilityChecks: CapabilityChecks = {
      platform: 'darwin',
      read: (path) => {
        reads.push(path);
        const code = refusing ? 'EPERM' : 'ENOENT';
        return Promise.reject(Object.assign(new Error(`${code}: open '${path}'`), { code }));
      },
    };
    const memento = new FakeMemento();
    const start = async (): Promise<Session> => {
      const built = buildSession({
        port: app.port,
        home: app.home,
        log,
        memento,
        capabilityChecks,
        settings: { capabilityFile: file },
      });
      ({ session, secrets } = built);
      await built.session.reconnect();
      return built.session;
    };

    const first = await start();
    assert.deepEqual(reads, [file]);
    assert.deepEqual(memento.get(STORAGE_KEYS.macPrivacyRefusal), { path: file }, log.toString());
    first.dispose();
    secrets.dispose();

    const next = await start();
    assert.deepEqual(reads, [file], 'the next start does not read the file');
    const capability = next.capability;
    assert.ok(capability.kind === 'unreadable' && capability.privacy === true && capability.path === file);
    const state = next.state;
    assert.ok(state.kind === 'failed' && state.message.startsWith('macOS did not let VS Code read'), state.kind);
    assert.ok(
      log.at('info').some((line) => line.includes('is not read: macOS refused') && line.includes('Check Connection')),
      log.toString(),
    );

    refusing = false;
    await next.recheckIntegration();
    // Once more as the watch of the nearest folder there (the home: the container is missing) begins.
    assert.deepEqual(reads, [file, file, file], 'Check Connection reads it again');
    assert.equal(memento.get(STORAGE_KEYS.macPrivacyRefusal), undefined, 'readable now: forgotten');
    assert.equal(next.state.kind, 'noToken');
  });
});
