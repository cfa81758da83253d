import * as assert from 'node:assert/strict';
import { latestWins } from '../../../src/platform/latestWins';

/** A read whose answer the test hands over when it likes, to order the reads by hand. */
function controlledReads(): { read: () => Promise<string>; answer: (index: number, value: string) => void } {
  const pending: ((value: string) => void)[] = [];
  return {
    read: () => new Promise<string>((resolve) => pending.push(resolve)),
    answer: (index, value) => pending[index]!(value),
  };
}

describe('latestWins', () => {
  it('applies the value each call read when calls do not overlap', async () => {
    const { read, answer } = controlledReads();
    const applied: string[] = [];
    const reconnect = latestWins(read, (value) => void applied.push(value));
    const first = reconnect();
    answer(0, 'a');
    await first;
    const second = reconnect();
    answer(1, 'b');
    await second;
    assert.deepEqual(applied, ['a', 'b']);
  });

  it('never applies an older read that finishes after a newer one', async () => {
    const { read, answer } = controlledReads();
    const applied: string[] = [];
    const reconnect = latestWins(read, (value) => void applied.push(value));
    const older = reconnect();
    const newer = reconnect();
    answer(1, 'new token');
    await newer;
    answer(0, 'old token');
    await older;
    assert.deepEqual(applied, ['new token']);
  });

  it('lets the caller of an overtaken call wait until the latest value is applied', async () => {
    const { read, answer } = controlledReads();
    const applied: string[] = [];
    let finishApply: (() => void) | undefined;
    const reconnect = latestWins(read, (value) => {
      applied.push(value);
      return new Promise<void>((resolve) => (finishApply = resolve));
    });
    const older = reconnect();
    let olderDone = false;
    void older.then(() => (olderDone = true));
    void reconnect();
    answer(0, 'old');
    answer(1, 'new');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(applied, ['new']);
    assert.equal(olderDone, false, 'resolved before the latest value was applied');
    finishApply!();
    await older;
    assert.equal(olderDone, true);
  });

  it('passes a failed apply to the caller', async () => {
    const reconnect = latestWins(
      () => Promise.resolve(1),
      () => Promise.reject(new Error('refresh failed')),
    );
    await assert.rejects(reconnect(), /refresh failed/);
  });
});
