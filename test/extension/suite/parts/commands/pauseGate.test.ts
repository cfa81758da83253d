/**
 * The pause gate of one command run (src/extension/commands/pauseGate.ts) through its services: a
 * real session over a fake secret store against the reference server, a recording log and message
 * sink. While the app rejects the token the run holds back and says why once; while it takes
 * requests the run goes on and nothing is said; a failed search is logged once.
 */
import * as assert from 'node:assert/strict';
import { PauseGate } from '../../../../../src/extension/commands/pauseGate';
import { HttpError } from '../../../../../src/client';
import { COMMANDS } from '../../../../../src/tracker/ids';
import { commandFakes, untilState, useReferenceApp, type CommandFakes } from '../sessionFakes';

const TOKEN = 'pause-gate-part-token-0b5e';

describe('parts: commands/pauseGate', function () {
  this.timeout(20_000);
  const app = useReferenceApp({ token: TOKEN });
  let fakes: CommandFakes | undefined;

  const started = async (token: string): Promise<CommandFakes> => {
    fakes = commandFakes(app, token);
    await fakes.session.reconnect();
    return fakes;
  };

  afterEach(() => {
    fakes?.dispose();
    fakes = undefined;
  });

  it('while the app rejects the token, holds the run back and says once what was not done and why', async () => {
    const { services, session, messages, log } = await started('a-token-this-app-does-not-know');
    await untilState(session, 'tokenRejected');
    const gate = new PauseGate(services, COMMANDS.start);

    assert.equal(gate.maySearch(), false);
    assert.equal(gate.holdsBack('Nothing was started.', 'error'), true);
    assert.equal(gate.holdsBack('Nothing was started.', 'error'), true);

    // A failure with its fix as a button, not a progress notice: nothing here is in progress.
    assert.equal(messages.said.length, 1, JSON.stringify(messages.said));
    const [failure] = messages.said;
    assert.ok(failure?.kind === 'advice' && failure.action === 'setToken', JSON.stringify(failure));
    assert.ok(failure.message.startsWith('Nothing was started. '), failure.message);
    assert.deepEqual(log.at('error'), [`${COMMANDS.start}: ${failure.message}`]);
  });

  it('says once in the status bar that the app takes requests again, after the failures it ended', async () => {
    const { services, session, messages } = await started('a-token-this-app-does-not-know');
    await untilState(session, 'tokenRejected');
    new PauseGate(services, COMMANDS.start).holdsBack('Nothing was started.', 'error');
    new PauseGate(services, COMMANDS.stop).holdsBack('Nothing was stopped.', 'error');
    await session.setToken(TOKEN);
    await untilState(session, 'idle');
    const recovered = await messages.next((said) => said.kind === 'status', 'the recovery');
    assert.equal(recovered.message, '$(check) The app takes requests again.');
    assert.equal(messages.said.filter((said) => said.kind === 'status').length, 1, JSON.stringify(messages.said));
  });

  it('while the app takes requests, lets the run go on and says nothing', async () => {
    const { services, session, messages } = await started(TOKEN);
    assert.equal(session.state.kind, 'idle');
    const gate = new PauseGate(services, COMMANDS.log);

    assert.equal(gate.maySearch(), true);
    assert.equal(gate.holdsBack('Nothing was logged.', 'error'), false);
    assert.deepEqual(messages.said, []);
  });

  it('logs the first failed search only, and after a 429 searches no more and says so when the user leaves', async () => {
    const { services, messages, log } = await started(TOKEN);
    const gate = new PauseGate(services, COMMANDS.start);

    gate.searchFailed(new Error('the first failure'));
    gate.searchFailed(new Error('the second failure'));
    assert.equal(log.at('warn').length, 1, log.toString());
    assert.ok(log.at('warn')[0]?.startsWith(`${COMMANDS.start}: a search failed`), log.toString());

    gate.searchFailed(new HttpError(429, 'Too many failed sign-ins.', '{}', 30));
    assert.equal(gate.maySearch(), false, 'a lockout stops the searches');
    gate.leftAfterLearning();

    assert.deepEqual(
      messages.said.map((said) => said.kind),
      ['advice'],
    );
  });
});
