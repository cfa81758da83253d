import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnswerLostError, ConnectionError, HttpError, NotFoundError, ValidationError } from '../../../src/client/errors';
import type { EntryRequest } from '../../../src/protocol/types';
import { EntryQueue, outcomeOfError, type SendOutcome } from '../../../src/tracker/entryQueue';

const entry = (name: string): EntryRequest => ({ name, durationMinutes: 15, createIfMissing: true });

/** A sender that delivers everything and notes the names it sent. */
const deliverAll =
  (sent: string[]) =>
  (request: EntryRequest): Promise<SendOutcome> => {
    sent.push(request.name ?? '');
    return Promise.resolve({ kind: 'delivered' });
  };

describe('tracker/EntryQueue', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tt-queue-'));
  });
  afterEach(() => rm(folder, { recursive: true, force: true }));

  it('is on disk before add resolves, and a new instance (a reloaded window) sees it', async () => {
    await new EntryQueue(folder).add(entry('A'));
    const saved = JSON.parse(await readFile(join(folder, 'queued-entries.json'), 'utf8')) as { entries: { request: EntryRequest }[] };
    assert.deepEqual(saved.entries.map((item) => item.request), [entry('A')]);
    assert.deepEqual((await new EntryQueue(folder).list()).map((item) => item.status), ['waiting']);
  });

  it('holds whole minutes only: a fraction is refused before anything is written', async () => {
    const queue = new EntryQueue(folder);
    await assert.rejects(queue.add({ name: 'A', durationMinutes: 1.5 }), /Only whole minutes can be queued, not 1\.5\./);
    assert.deepEqual(await queue.list(), []);
  });

  it('delivers in order, and stops at the first entry that surely was not sent', async () => {
    const queue = new EntryQueue(folder);
    for (const name of ['A', 'B', 'C']) await queue.add(entry(name));
    const sent: string[] = [];
    const result = await queue.flush((request) => {
      sent.push(request.name ?? '');
      return Promise.resolve<SendOutcome>(request.name === 'B' ? { kind: 'notSent', reason: 'refused' } : { kind: 'delivered' });
    });
    assert.deepEqual(sent, ['A', 'B']);
    assert.equal(result.delivered, 1);
    assert.deepEqual((await queue.list()).map((item) => [item.request.name, item.status]), [['B', 'waiting'], ['C', 'waiting']]);
    const rest = await queue.flush(deliverAll(sent));
    assert.deepEqual(sent, ['A', 'B', 'B', 'C']);
    assert.equal(rest.remaining, 0);
  });

  it('keeps refused entries with the reason, goes on with the next, and never re-sends an unknown one', async () => {
    const queue = new EntryQueue(folder);
    for (const name of ['Bad', 'Good', 'Lost', 'Later']) await queue.add(entry(name));
    const outcomes: Record<string, SendOutcome> = {
      Bad: { kind: 'refused', reason: 'No activity is named "Bad".' },
      Good: { kind: 'delivered' },
      Lost: { kind: 'unknown', reason: 'answer lost' },
    };
    const sent: string[] = [];
    const result = await queue.flush((request) => {
      sent.push(request.name ?? '');
      return Promise.resolve(outcomes[request.name ?? ''] ?? { kind: 'delivered' });
    });
    assert.deepEqual(sent, ['Bad', 'Good', 'Lost'], 'an unknown fate stops the flush: the connection is suspect');
    assert.deepEqual(result.newlyRefused.map((item) => item.reason), ['No activity is named "Bad".']);
    assert.deepEqual(result.newlyUnknown.map((item) => item.request.name), ['Lost']);
    await queue.flush(deliverAll(sent));
    assert.deepEqual(sent.slice(3), ['Later'], 'refused and unknown entries wait for the user');
    assert.deepEqual((await queue.list()).map((item) => [item.request.name, item.status]), [['Bad', 'refused'], ['Lost', 'unknown']]);
    const lost = (await queue.list())[1]!;
    await queue.retry(lost.id);
    await queue.flush(deliverAll([]));
    await queue.discard((await queue.list())[0]!.id);
    assert.deepEqual(await queue.list(), []);
  });

  it('never lets two windows send the same entry', async () => {
    const windows = [new EntryQueue(folder), new EntryQueue(folder)];
    for (let i = 0; i < 12; i++) await windows[0]!.add(entry(`E${i}`));
    const sent: string[] = [];
    const send = async (request: EntryRequest): Promise<SendOutcome> => {
      sent.push(request.name ?? '');
      await new Promise((resolve) => setImmediate(resolve));
      return { kind: 'delivered' };
    };
    await Promise.all(windows.map((queue) => queue.flush(send)));
    assert.equal(sent.length, 12);
    assert.equal(new Set(sent).size, 12);
    assert.deepEqual(sent, [...sent].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))), 'in order');
  });

  it('marks an entry a crashed window left mid-send as unknown, never as waiting', async () => {
    const crashed = new EntryQueue(folder);
    await crashed.add(entry('A'));
    void crashed.flush(() => new Promise<SendOutcome>(() => undefined));
    const other = new EntryQueue(folder);
    for (let i = 0; i < 50 && (await other.list())[0]?.status !== 'sending'; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal((await other.list())[0]?.status, 'sending');
    assert.equal(await other.recover(() => true), 0, 'a live sender keeps its entry');
    assert.equal(await other.recover(() => false), 1);
    assert.equal((await other.list())[0]?.status, 'unknown');
  });

  it('counts each client error as PROTOCOL.md §7 says', () => {
    assert.equal(outcomeOfError(new ConnectionError('refused', false)).kind, 'notSent');
    assert.equal(outcomeOfError(new ConnectionError('reset', true)).kind, 'unknown');
    assert.equal(outcomeOfError(new AnswerLostError('lost')).kind, 'unknown');
    assert.equal(outcomeOfError(new ValidationError('bad', 400)).kind, 'refused');
    assert.equal(outcomeOfError(new NotFoundError('gone')).kind, 'refused');
    assert.equal(outcomeOfError(new HttpError(423, 'locked', '')).kind, 'blocked');
    assert.equal(outcomeOfError(new HttpError(500, 'boom', '')).kind, 'unknown');
  });
});
