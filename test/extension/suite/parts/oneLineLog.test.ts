/**
 * The one-line log channel alone (src/extension/oneLineLog.ts) over a recording log: text from
 * outside (an app's error words, a branch name) cannot start a line of its own or turn an entry
 * around, whatever level it is written at.
 */
import * as assert from 'node:assert/strict';
import { OneLineLogChannel } from '../../../../src/extension/oneLineLog';
import { RecordingLog } from './fakes';

describe('parts: OneLineLogChannel', () => {
  let recorded: RecordingLog;
  let log: OneLineLogChannel;

  beforeEach(() => {
    recorded = new RecordingLog();
    log = new OneLineLogChannel(recorded);
  });

  afterEach(() => {
    log.dispose();
  });

  it('writes a line break in the text as its escape, at every level', () => {
    const outside = 'branch main\n2026-11-28 09:00:00.000 [error] forged entry';
    log.debug(outside);
    log.info(outside);
    log.warn(outside);
    log.error(outside);

    assert.deepEqual(
      recorded.lines.map((line) => line.level),
      ['debug', 'info', 'warn', 'error'],
    );
    for (const { message } of recorded.lines) {
      assert.equal(message, 'branch main\\n2026-11-28 09:00:00.000 [error] forged entry');
    }
  });

  it('writes a bidi override as its escape, so the entry reads as it was written', () => {
    log.info('activity \u202Eevil\u202C name');
    assert.deepEqual(recorded.at('info'), ['activity \\u202eevil\\u202c name']);
  });
});
