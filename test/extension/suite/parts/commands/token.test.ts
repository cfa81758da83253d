/**
 * Set Token and Clear Token (src/extension/commands/token.ts) through their services: a real
 * session built with a fake secret store and memento against the reference server, and a
 * recording message sink. These handlers read only the session, the log, the messages and the
 * settings of their services.
 */
import * as assert from 'node:assert/strict';
import type { CommandServices } from '../../../../../src/extension/commands/services';
import { clearToken, setToken } from '../../../../../src/extension/commands/token';
import type { Session } from '../../../../../src/extension/session';
import { STORAGE_KEYS } from '../../../../../src/tracker/ids';
import type { FakeSecretStorage, RecordingLog, RecordingMessages } from '../fakes';
import { commandFakes, useReferenceApp, type CommandFakes } from '../sessionFakes';

const TOKEN = 'commands-part-token-91e4';

describe('parts: commands/token (Set Token, Clear Token)', function () {
  this.timeout(20_000);
  const app = useReferenceApp({ token: TOKEN });
  let fakes: CommandFakes;
  let secrets: FakeSecretStorage;
  let session: Session;
  let log: RecordingLog;
  let messages: RecordingMessages;
  let services: CommandServices;

  beforeEach(async () => {
    fakes = commandFakes(app);
    ({ secrets, session, log, messages, services } = fakes);
    await session.reconnect();
  });

  afterEach(() => {
    fakes.dispose();
  });

  it('Set Token stores the token, checks it with the app and says it was accepted', async () => {
    assert.equal(await setToken(services, ` ${TOKEN} `), true);

    assert.equal(await secrets.get(STORAGE_KEYS.token), TOKEN, 'stored trimmed');
    assert.equal(session.state.kind, 'idle');
    assert.deepEqual(messages.said, [{ kind: 'advice', message: 'The app accepted the token.', action: undefined }]);
    assert.ok(log.at('info').includes('Token stored in secret storage.'), log.toString());
  });

  it('Set Token with a token the app rejects says so, with Set Token to fix it', async () => {
    await setToken(services, 'a-token-this-app-does-not-know');

    assert.equal(session.state.kind, 'tokenRejected');
    const [said] = messages.said;
    assert.ok(said?.kind === 'advice', JSON.stringify(messages.said));
    assert.equal(said.action, 'setToken');
    assert.ok(said.message.includes('rejected'), said.message);
  });

  it('Clear Token removes a stored token and says so; with none, says there was none', async () => {
    await clearToken(services);
    assert.deepEqual(messages.said, [{ kind: 'info', message: 'There was no token to remove.', actions: [] }]);

    await setToken(services, TOKEN);
    messages.said.length = 0;
    await clearToken(services);

    assert.equal(await secrets.get(STORAGE_KEYS.token), undefined);
    assert.equal(session.state.kind, 'noToken');
    assert.deepEqual(messages.said, [{ kind: 'info', message: 'Removed the token from VS Code.', actions: [] }]);
  });
});
