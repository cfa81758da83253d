import assert from 'node:assert/strict';
import { DebouncedSearch } from '../../../../src/tracker/model/debouncedSearch';
import { ManualTime } from '../../../support/manualTime';

const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A search whose answers the test releases one by one, recording what was asked and what was shown. */
function setup(maySearch: () => boolean = () => true): {
  search: DebouncedSearch<string>;
  time: ManualTime;
  asked: string[];
  shown: string[];
  errors: string[];
  onTheWire: () => number;
  answer: (error?: Error) => Promise<void>;
  signals: AbortSignal[];
} {
  const time = new ManualTime();
  const asked: string[] = [];
  const shown: string[] = [];
  const errors: string[] = [];
  const signals: AbortSignal[] = [];
  const waiting: { query: string; resolve: (value: string) => void; reject: (error: Error) => void }[] = [];
  let wire = 0;
  let maxWire = 0;
  const search = new DebouncedSearch<string>({
    delayMs: 250,
    search: (query, signal) => {
      asked.push(query);
      signals.push(signal);
      wire++;
      maxWire = Math.max(maxWire, wire);
      return new Promise<string>((resolve, reject) => waiting.push({ query, resolve, reject })).finally(() => wire--);
    },
    maySearch,
    onAnswer: (query, answer) => shown.push(`${query}: ${answer}`),
    onError: (query, error) => errors.push(`${query}: ${(error as Error).message}`),
    timers: time,
  });
  return {
    search,
    time,
    asked,
    shown,
    errors,
    signals,
    onTheWire: () => maxWire,
    answer: async (error) => {
      const next = waiting.shift() ?? assert.fail('no search on the wire');
      if (error) next.reject(error);
      else next.resolve(`answer for ${next.query}`);
      await settle();
    },
  };
}

describe('tracker/debouncedSearch: the picker searches after a pause in typing, one request at a time', () => {
  it('sends one search for a name typed letter by letter faster than the pause', async () => {
    const { search, time, asked, shown, answer } = setup();
    let typed = '';
    for (const letter of 'abcdefghijklmnopqrst') {
      typed += letter;
      search.typed(typed);
      time.advance(100);
    }
    assert.deepEqual(asked, [], 'nothing while typing goes on');
    time.advance(250);
    assert.deepEqual(asked, ['abcdefghijklmnopqrst']);
    await answer();
    assert.deepEqual(shown, ['abcdefghijklmnopqrst: answer for abcdefghijklmnopqrst']);
  });

  it('never has two searches on the wire: the newest query waits for the one out, the ones between are never sent', async () => {
    const { search, time, asked, shown, answer, onTheWire } = setup();
    search.searchNow('');
    for (const query of ['a', 'ab', 'abc']) {
      search.typed(query);
      time.advance(300);
    }
    assert.deepEqual(asked, [''], 'each pause ended while the first search was out');
    await answer();
    assert.deepEqual(shown, [], 'the answer for an older query is dropped');
    assert.deepEqual(asked, ['', 'abc'], 'only the newest query follows');
    await answer();
    assert.deepEqual(shown, ['abc: answer for abc']);
    assert.equal(onTheWire(), 1);
  });

  it('sends nothing while it may not search, and searches again when it may', async () => {
    let may = false;
    const { search, time, asked, answer, shown } = setup(() => may);
    search.searchNow('');
    search.typed('Paused');
    time.advance(1_000);
    assert.deepEqual(asked, []);
    may = true;
    search.typed('Paused work');
    time.advance(250);
    assert.deepEqual(asked, ['Paused work']);
    await answer();
    assert.deepEqual(shown, ['Paused work: answer for Paused work']);
  });

  it('reports a failed search, and goes on with the next one only if it still may', async () => {
    let may = true;
    const { search, time, asked, errors, answer } = setup(() => may);
    search.typed('a');
    time.advance(250);
    search.typed('ab');
    time.advance(250);
    // The failure is a 401: the caller says no more from now on.
    may = false;
    await answer(new Error('rejected'));
    assert.deepEqual(errors, ['a: rejected']);
    assert.deepEqual(asked, ['a'], 'the query that waited is not sent');
  });

  it('aborts the search on the wire and reports nothing once disposed', async () => {
    const { search, time, asked, shown, errors, answer, signals } = setup();
    search.searchNow('');
    search.typed('x');
    search.dispose();
    time.advance(1_000);
    assert.equal(signals[0]?.aborted, true);
    await answer();
    assert.deepEqual(asked, ['']);
    assert.deepEqual([...shown, ...errors], []);
  });

  it('answers a query typed again from the answers it kept, without a request', async () => {
    const { search, time, asked, shown, answer } = setup();
    search.searchNow('');
    await answer();
    search.typed('co');
    time.advance(250);
    await answer();
    search.typed('cod');
    time.advance(250);
    await answer();
    // Deleting back to "co", and to nothing: answered at once, nothing goes out.
    search.typed('co');
    search.typed('');
    time.advance(1_000);
    assert.deepEqual(asked, ['', 'co', 'cod']);
    assert.deepEqual(shown, [
      ': answer for ',
      'co: answer for co',
      'cod: answer for cod',
      'co: answer for co',
      ': answer for ',
    ]);
    assert.equal(search.answered('cod'), 'answer for cod');
  });

  it('sends a query that waited for the wire no more once it is answered from an earlier answer', async () => {
    const { search, time, asked, shown, answer } = setup();
    search.searchNow('a');
    await answer();
    search.typed('ab');
    time.advance(250);
    search.typed('abc');
    time.advance(250);
    // "abc" waits for "ab"; then the user deletes back to "a", which was answered before.
    search.typed('a');
    await answer();
    time.advance(1_000);
    assert.deepEqual(asked, ['a', 'ab']);
    assert.deepEqual(shown, ['a: answer for a', 'a: answer for a']);
  });
});
