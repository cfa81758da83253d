import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataFile, DataFileError } from '../../../src/server/dataFile';
import type { StateSnapshot } from '../../../src/server/state';

const snapshot = (entries: number): StateSnapshot => ({
  activities: [
    { id: 'a1', name: 'A', groupName: null },
    { id: 'a2', name: 'A', groupName: 'Work' },
  ],
  sessions: [{ activityID: 'a1', startedAt: 1, endedAt: 2 }],
  running: { activityID: 'a1', startedAt: 3 },
  entries: Array.from({ length: entries }, (_, index) => ({
    entryID: `e${index}`,
    activityID: 'a1',
    durationMinutes: 5,
    note: index % 2 ? null : 'n',
    loggedAt: index,
  })),
});

describe('server/dataFile', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tt-data-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('loads nothing when the file does not exist yet, and what it saved afterwards', async () => {
    const file = new DataFile(join(dir, 'data.json'));
    assert.equal(await file.load(), undefined);
    await file.save(snapshot(3));
    assert.deepEqual(await file.load(), snapshot(3));
  });

  it('lets the last of overlapping saves win and leaves no temporary file', async () => {
    const file = new DataFile(join(dir, 'data.json'));
    await Promise.all(Array.from({ length: 20 }, (_, index) => file.save(snapshot(index))));
    assert.deepEqual(await file.load(), snapshot(19));
    assert.deepEqual(await readdir(dir), ['data.json']);
  });

  it('replaces the file by rename, so a reader never sees a torn write', async () => {
    const path = join(dir, 'data.json');
    const file = new DataFile(path);
    await file.save(snapshot(1));
    const saves = Array.from({ length: 30 }, (_, index) => file.save(snapshot(index * 10)));
    const reads: Promise<void>[] = [];
    for (let i = 0; i < 30; i++) reads.push(readFile(path, 'utf8').then((text) => void JSON.parse(text)));
    await Promise.all([...saves, ...reads]);
  });

  it('reads a file written before activities had groups as activities without a group, and ids in any case', async () => {
    const path = join(dir, 'data.json');
    await writeFile(
      path,
      JSON.stringify({
        version: 1,
        activities: [{ id: 'ABC', name: 'Old' }],
        sessions: [{ activityID: 'abc', startedAt: 1, endedAt: 2 }],
        running: null,
        entries: [],
      }),
    );
    const loaded = await new DataFile(path).load();
    assert.deepEqual(loaded?.activities, [{ id: 'ABC', name: 'Old', groupName: null }]);
    assert.equal(loaded.sessions.length, 1, 'the session points at ABC in another letter case');
  });

  it('refuses a file that is not its format, naming what is wrong', async () => {
    const path = join(dir, 'data.json');
    const cases: [string, RegExp][] = [
      ['not json', /not a data file of this server/],
      ['{"version": 2, "activities": [], "sessions": [], "entries": []}', /version must be 1/],
      ['{"version": 1, "activities": [{"id": 1, "name": "A"}], "sessions": [], "entries": []}', /activities\[0\]\.id must be a string/],
      ['{"version": 1, "activities": [{"id": "a", "name": "A", "groupName": 7}], "sessions": [], "entries": []}', /activities\[0\]\.groupName must be a string or null/],
      ['{"version": 1, "activities": [], "sessions": [{"activityID": "x", "startedAt": 1, "endedAt": 2}], "entries": []}', /activity x is referenced but not listed/],
    ];
    for (const [text, pattern] of cases) {
      await writeFile(path, text);
      await assert.rejects(new DataFile(path).load(), (error: unknown) => error instanceof DataFileError && pattern.test(error.message));
    }
  });

  it('reports a write it cannot make and keeps the old file', async () => {
    const path = join(dir, 'missing-dir', 'data.json');
    await assert.rejects(new DataFile(path).save(snapshot(1)), DataFileError);
  });
});
