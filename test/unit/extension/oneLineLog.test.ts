import assert from 'node:assert/strict';
import { OneLineLogChannel } from '../../../src/extension/oneLineLog';
import { parseCapability } from '../../../src/protocol/capability';

// The extension's log keeps every entry on one line, whatever text from outside it quotes
// (issue 22 §9). The channel below it is a recorder: this file runs without VS Code.

type Channel = ConstructorParameters<typeof OneLineLogChannel>[0];

interface Written {
  readonly method: string;
  readonly values: readonly unknown[];
}

function recordingChannel(): { channel: Channel; written: Written[] } {
  const written: Written[] = [];
  const write =
    (method: string) =>
    (...values: unknown[]): void => {
      written.push({ method, values });
    };
  const methods = ['debug', 'info', 'warn', 'error', 'show', 'dispose'];
  const channel = Object.fromEntries(methods.map((method) => [method, write(method)]));
  return { channel: channel as unknown as Channel, written };
}

const FORGED = '1\n2026-01-01 10:00:00.000 [error] forged\r\u202Eexe.gpj\u0000';
const ESCAPED = '1\\n2026-01-01 10:00:00.000 [error] forged\\r\\u202eexe.gpj\\u0000';

describe('extension/oneLineLog: every log entry on one line', () => {
  it('escapes line breaks, controls and bidi overrides in every level', () => {
    const { channel, written } = recordingChannel();
    const log = new OneLineLogChannel(channel);
    log.debug(`branch ${FORGED}`);
    log.info(`Reported the switch to ${FORGED}.`);
    log.warn(`The service refused the request: ${FORGED}`);
    log.error(`Cannot talk to the app: ${FORGED}`);
    assert.deepEqual(
      written.map(({ method, values }) => [method, ...values]),
      [
        ['debug', `branch ${ESCAPED}`],
        ['info', `Reported the switch to ${ESCAPED}.`],
        ['warn', `The service refused the request: ${ESCAPED}`],
        ['error', `Cannot talk to the app: ${ESCAPED}`],
      ],
    );
  });

  it('logs a capability file whose version holds a line break as one line', () => {
    const { channel, written } = recordingChannel();
    const parsed = parseCapability(
      JSON.stringify({
        version: FORGED,
        socketPath: `/tmp/app\n[info] forged.sock`,
        token: 'secret-token-value',
        pid: 1,
      }),
    );
    if (parsed.ok) assert.fail('accepted');
    new OneLineLogChannel(channel).warn(
      `The app's VS Code integration file /home/u/api-endpoint.json is not valid: ${parsed.message}`,
    );
    assert.equal(written.length, 1);
    const [line] = written[0]?.values ?? [];
    assert.equal(typeof line, 'string');
    assert.doesNotMatch(String(line), /[\r\n\u2028\u2029\u202a-\u202e]/);
    assert.doesNotMatch(String(line), /secret-token-value/);
  });

  it('hands showing and disposing to the channel as they are', () => {
    const { channel, written } = recordingChannel();
    const log = new OneLineLogChannel(channel);
    log.info('Token stored in secret storage.');
    log.show();
    log.dispose();
    assert.deepEqual(
      written.map(({ method, values }) => [method, ...values]),
      [['info', 'Token stored in secret storage.'], ['show'], ['dispose']],
    );
  });
});
