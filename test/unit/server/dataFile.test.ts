import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataFile } from '../../../src/server/dataFile';
import { DataFileError } from '../../../src/server/errors';
import type { StateSnapshot } from '../../../src/server/state';
import { claimPathFor } from '../../../src/platform/lockRecords';
import { deadPid, lockRecord } from '../../support/pids';

const uuid = (n: number): string => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const A1 = uuid(1);
const A2 = uuid(2);

const snapshot = (entries: number): StateSnapshot => ({
  activities: [
    { id: A1, name: 'A', groupName: null },
    { id: A2, name: 'A', groupName: 'Work' },
  ],
  sessions: [{ activityID: A1, startedAt: 1, endedAt: 2 }],
  running: { activityID: A1, startedAt: 3 },
  entries: Array.from({ length: entries }, (_, index) => ({
    entryID: uuid(1000 + index),
    activityID: A1,
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

  it('refuses a file that is not its format, naming what is wrong', async () => {
    const path = join(dir, 'data.json');
    const cases: [string, RegExp][] = [
      ['not json', /not a data file of this server/],
      ['{"version": 2, "activities": [], "sessions": [], "entries": []}', /version must be 1/],
      [
        '{"version": 1, "activities": [{"id": 1, "name": "A"}], "sessions": [], "entries": []}',
        /activities\[0\]\.id must be a string/,
      ],
      [
        `{"version": 1, "activities": [{"id": "${A1}", "name": "A", "groupName": 7}], "sessions": [], "entries": []}`,
        /activities\[0\]\.groupName must be a string or null/,
      ],
      [
        `{"version": 1, "activities": [{"id": "${A1}", "name": "A"}], "sessions": [], "entries": []}`,
        /activities\[0\]\.groupName must be a string or null/,
      ],
      [
        `{"version": 1, "activities": [], "sessions": [{"activityID": "${A2}", "startedAt": 1, "endedAt": 2}], "entries": []}`,
        new RegExp(`activity ${A2} is referenced but not listed`),
      ],
    ];
    for (const [text, pattern] of cases) {
      await writeFile(path, text);
      await assert.rejects(
        new DataFile(path).load(),
        (error: unknown) => error instanceof DataFileError && pattern.test(error.message),
      );
    }
  });

  describe('loads under the rules of requests (src/protocol/rules.ts), naming the field in one sentence', () => {
    const file = (changes: {
      activities?: unknown[];
      sessions?: unknown[];
      running?: unknown;
      entries?: unknown[];
    }): string =>
      JSON.stringify({
        version: 1,
        activities: [{ id: A1, name: 'A', groupName: null }],
        sessions: [],
        running: null,
        entries: [],
        ...changes,
      });
    const entry = (fields: Record<string, unknown>): Record<string, unknown> => ({
      entryID: uuid(9),
      activityID: A1,
      durationMinutes: 5,
      note: null,
      loggedAt: 1,
      ...fields,
    });
    const cases: [string, string, string][] = [
      [
        'a negative duration',
        file({ entries: [entry({ durationMinutes: -5 })] }),
        'entries[0].durationMinutes must be a whole number of minutes from 1 to 1440, not -5.',
      ],
      [
        'a fractional duration',
        file({ entries: [entry({}), entry({ durationMinutes: 1.5 })] }),
        'entries[1].durationMinutes must be a whole number of minutes from 1 to 1440, not 1.5.',
      ],
      [
        'a duration over a day',
        file({ entries: [entry({ durationMinutes: 1441 })] }),
        'entries[0].durationMinutes must be a whole number of minutes from 1 to 1440, not 1441.',
      ],
      [
        'no duration',
        file({ entries: [entry({ durationMinutes: undefined })] }),
        'entries[0].durationMinutes is required.',
      ],
      [
        'an activity id that is no UUID',
        file({ activities: [{ id: 'a1', name: 'A' }] }),
        'activities[0].id must be a UUID (in either letter case), not "a1".',
      ],
      [
        'an entry id that is no UUID',
        file({ entries: [entry({ entryID: 'e1' })] }),
        'entries[0].entryID must be a UUID (in either letter case), not "e1".',
      ],
      [
        'a session of an id that is no UUID',
        file({ sessions: [{ activityID: '42', startedAt: 1, endedAt: 2 }] }),
        'sessions[0].activityID must be a UUID (in either letter case), not "42".',
      ],
      [
        'the same id twice, in two letter cases',
        file({
          activities: [
            { id: A1, name: 'A', groupName: null },
            { id: A1.toUpperCase(), name: 'B', groupName: null },
          ],
        }),
        'activities[1].id is also the id of activities[0].',
      ],
      [
        'a name over 200 characters',
        file({ activities: [{ id: A1, name: 'n'.repeat(201), groupName: null }] }),
        'activities[0].name must be at most 200 characters.',
      ],
      [
        'an empty name',
        file({ activities: [{ id: A1, name: '  ', groupName: null }] }),
        'activities[0].name must not be empty.',
      ],
      [
        'a group name over 200 characters',
        file({ activities: [{ id: A1, name: 'A', groupName: 'g'.repeat(201) }] }),
        'activities[0].groupName must be at most 200 characters.',
      ],
      [
        'a note over 2,000 characters',
        file({ entries: [entry({ note: 'x'.repeat(2001) })] }),
        'entries[0].note must be at most 2000 characters.',
      ],
      [
        'a session that ends before it began',
        file({ sessions: [{ activityID: A1, startedAt: 5, endedAt: 4 }] }),
        'sessions[0].endedAt must not be before its startedAt.',
      ],
      [
        'a fractional instant',
        file({ running: { activityID: A1, startedAt: 1.5 } }),
        'running.startedAt must be a whole number of milliseconds since 1970, not 1.5.',
      ],
      [
        'a negative instant',
        file({ entries: [entry({ loggedAt: -1 })] }),
        'entries[0].loggedAt must be a whole number of milliseconds since 1970, not -1.',
      ],
    ];
    for (const [what, text, sentence] of cases) {
      it(`refuses ${what}`, async () => {
        const path = join(dir, 'data.json');
        await writeFile(path, text);
        await assert.rejects(new DataFile(path).load(), (error: unknown) => {
          assert.ok(error instanceof DataFileError);
          assert.equal(error.code, 'invalid');
          assert.equal(error.message, `The data file ${path} is not a data file of this server: ${sentence}`);
          return true;
        });
      });
    }

    it('takes what a request could have sent: the longest name, note and duration, an empty group as none', async () => {
      const path = join(dir, 'data.json');
      const name = 'n'.repeat(200);
      await writeFile(
        path,
        file({
          activities: [{ id: A1.toUpperCase(), name: ` ${name} `, groupName: ' ' }],
          entries: [
            entry({ activityID: A1, durationMinutes: 1440, note: 'x'.repeat(2000) }),
            entry({ durationMinutes: 1, note: undefined }),
          ],
        }),
      );
      const loaded = await new DataFile(path).load();
      assert.deepEqual(loaded?.activities, [{ id: A1.toUpperCase(), name, groupName: null }]);
      assert.deepEqual(
        loaded.entries.map((item) => [item.durationMinutes, item.note?.length ?? null]),
        [
          [1440, 2000],
          [1, null],
        ],
      );
    });
  });

  it('reports a write it cannot make and keeps the old file', async () => {
    const path = join(dir, 'missing-dir', 'data.json');
    await assert.rejects(new DataFile(path).save(snapshot(1)), DataFileError);
  });

  describe("opening: the lock for the server's life and what killed servers left", () => {
    it('removes the temporary files of a killed writer and the drafts and claims of killed takers, and only those', async () => {
      const data = join(dir, 'data.json');
      const dead = await lockRecord(await deadPid(), 'd'.repeat(32));
      const running = await lockRecord(process.ppid, 'e'.repeat(32));
      const litter: [string, string][] = [
        ['.data.json.4242.tmp', '{"version": 1, "activi'],
        [`.data.json.${process.pid}.tmp`, '{'],
        ['.data.json.4242.0a1b2c3d.tmp', '{'],
        [`data.json.lock.${'d'.repeat(32)}.tmp`, dead],
        [claimPathFor('data.json.lock', 'd'.repeat(32)), dead],
      ];
      const kept: [string, string][] = [
        ['.other.json.4242.tmp', '{'],
        ['.data.json.tmp', '{'],
        ['data.json.bak', '{'],
        // A taker that still runs may still need its claim.
        [claimPathFor('data.json.lock', 'e'.repeat(32)), running],
      ];
      for (const [name, text] of [...litter, ...kept]) await writeFile(join(dir, name), text);
      const file = new DataFile(data);
      assert.equal(await file.open(), undefined);
      assert.deepEqual((await readdir(dir)).sort(), [...kept.map(([name]) => name), 'data.json.lock'].sort());
      await file.close();
      assert.deepEqual((await readdir(dir)).sort(), kept.map(([name]) => name).sort(), 'close released the lock');
    });

    it('refuses a lock file it did not write, with one sentence, and leaves it', async () => {
      const data = join(dir, 'data.json');
      await writeFile(`${data}.lock`, 'locked by hand');
      await assert.rejects(new DataFile(data).open(), {
        name: 'DataFileError',
        code: 'in-use',
        message: `${data}.lock is not a lock this server wrote; remove it if no server uses the data file.`,
      });
      assert.equal(await readFile(`${data}.lock`, 'utf8'), 'locked by hand');
    });
  });
});
