/**
 * Check Connection (src/extension/commands/connection.ts) through its services: a real session
 * over a fake secret store against the reference server, a recording log and message sink. What
 * it asks the app, what it says, and that while the app rejects the token it sends one health
 * check and no more.
 */
import * as assert from 'node:assert/strict';
import { checkConnection } from '../../../../../src/extension/commands/connection';
import { ENDPOINTS } from '../../../../../src/protocol/types';
import { commandFakes, untilState, useReferenceApp, type CommandFakes } from '../sessionFakes';

const TOKEN = 'connection-part-token-2d6f';

describe('parts: commands/connection (Check Connection)', function () {
  this.timeout(20_000);
  const app = useReferenceApp({ token: TOKEN, license: 'valid' });
  let fakes: CommandFakes | undefined;

  const started = async (token: string | undefined): Promise<CommandFakes> => {
    fakes = commandFakes(app, token);
    await fakes.session.reconnect();
    app.requests.length = 0;
    return fakes;
  };

  afterEach(() => {
    fakes?.dispose();
    fakes = undefined;
  });

  it("with the app's token, asks its health and status and says it is connected, in the log too", async () => {
    const { services, messages, log } = await started(TOKEN);

    const advice = await checkConnection(services);

    assert.equal(advice.severity, 'info');
    assert.equal(
      advice.message,
      `Connected to the time tracker through the HTTP API on 127.0.0.1:${app.port}: the token works and the license is valid.`,
    );
    assert.deepEqual(messages.said, [{ kind: 'advice', message: advice.message, action: undefined }]);
    assert.ok(app.requests.includes(ENDPOINTS.healthcheck.path), app.requests.join(', '));
    assert.ok(app.requests.includes(ENDPOINTS.status.path), app.requests.join(', '));
    assert.ok(
      log.at('info').some((line) => line.startsWith('Check Connection (') && line.endsWith(advice.message)),
      log.toString(),
    );
  });

  it('without a token, sends nothing and says how to connect, with Set Token', async () => {
    const { services, messages } = await started(undefined);

    const advice = await checkConnection(services);

    assert.deepEqual(app.requests, []);
    assert.equal(advice.action, 'setToken');
    assert.ok(advice.message.startsWith('Not connected'), advice.message);
    assert.equal(messages.said.length, 1, JSON.stringify(messages.said));
  });

  it('while the app rejects the token, sends one health check and no status, and says why', async () => {
    const { services, session, messages } = await started('a-token-this-app-does-not-know');
    await untilState(session, 'tokenRejected');
    app.requests.length = 0;

    const advice = await checkConnection(services);

    assert.deepEqual(app.requests, [ENDPOINTS.healthcheck.path]);
    assert.equal(advice.action, 'setToken');
    assert.equal(session.state.kind, 'tokenRejected');
    assert.deepEqual(messages.said, [{ kind: 'advice', message: advice.message, action: 'setToken' }]);
  });
});
