import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataFile } from '../../../src/server/dataFile';
import { DataFileError } from '../../../src/server/errors';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { signedSend } from '../../support/http';
import { deadPid, lockRecord } from '../../support/pids';
import { loggedEntries, manualClock, TEST_TOKEN, type StartedServer } from '../../support/server';

interface Saved {
  readonly entries: { durationMinutes: number }[];
  readonly running: unknown;
}

describe('server with a data file: what was answered 2xx is on disk, and one server writes it', () => {
  let dir: string;
  let data: string;
  let servers: ReferenceServer[];

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tt-persist-'));
    await mkdir(join(dir, 'app'));
    data = join(dir, 'app', 'data.json');
    servers = [];
  });

  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await rm(dir, { recursive: true, force: true });
  });

  const start = async (path = data): Promise<StartedServer> => {
    const clock = manualClock();
    const server = createReferenceServer({ token: TEST_TOKEN, clock, dataFile: new DataFile(path) });
    servers.push(server);
    const port = await server.listen(0);
    return { server, port, clock };
  };

  const onDisk = async (): Promise<Saved> => JSON.parse(await readFile(data, 'utf8')) as Saved;

  const logEntry = (started: StartedServer, durationMinutes: number): ReturnType<typeof signedSend> =>
    signedSend(started, {
      method: 'POST',
      target: '/entries',
      body: { name: 'Kept', durationMinutes, createIfMissing: true },
    });

  /** The fault: the data file's directory is replaced by a plain file, which stops writes for root too. */
  const breakDirectory = async (): Promise<void> => {
    await rename(join(dir, 'app'), join(dir, 'app-away'));
    await writeFile(join(dir, 'app'), 'not a directory');
  };
  const repairDirectory = async (): Promise<void> => {
    await rm(join(dir, 'app'));
    await rename(join(dir, 'app-away'), join(dir, 'app'));
  };

  describe('at start', () => {
    it('refuses a directory that does not exist, or is a file, with one sentence and a DataFileError', async () => {
      await writeFile(join(dir, 'plain'), 'x');
      const cases: [string, string][] = [
        [join(dir, 'missing', 'data.json'), `The directory ${join(dir, 'missing')} of the data file does not exist.`],
        [join(dir, 'plain', 'data.json'), `The directory ${join(dir, 'plain')} of the data file is not a directory.`],
      ];
      for (const [path, message] of cases) {
        const server = createReferenceServer({ token: TEST_TOKEN, dataFile: new DataFile(path) });
        await assert.rejects(server.listen(0), (error: unknown) => {
          assert.ok(error instanceof DataFileError, String(error));
          assert.equal(error.code, 'directory-missing');
          assert.equal(error.message, message);
          return true;
        });
        await assert.rejects(
          server.listenOnSocket(join(dir, 'api.sock')),
          DataFileError,
          'listenOnSocket opens the data file the same way',
        );
        await server.close();
      }
    });

    it('refuses the data file a running server holds, naming its pid, and takes it once that one closed', async () => {
      const first = await start();
      assert.equal((JSON.parse(await readFile(`${data}.lock`, 'utf8')) as { pid: number }).pid, process.pid);
      const second = createReferenceServer({ token: TEST_TOKEN, dataFile: new DataFile(data) });
      await assert.rejects(second.listen(0), {
        name: 'DataFileError',
        code: 'in-use',
        message: `The data file ${data} is in use by another server (pid ${process.pid}); stop that server or pick another data file.`,
      });
      await second.close();
      await first.server.close();
      assert.deepEqual(await readdir(join(dir, 'app')), [], 'close released the lock, and no data was written yet');
      await start();
    });

    it("takes over the lock of a server that was killed, and removes its writer's temporary file", async () => {
      await writeFile(`${data}.lock`, await lockRecord(await deadPid(), '0'.repeat(32)));
      await writeFile(join(dir, 'app', '.data.json.4242.tmp'), '{"version": 1, "acti');
      const started = await start();
      assert.deepEqual((await readdir(join(dir, 'app'))).sort(), ['data.json.lock']);
      assert.equal((await logEntry(started, 5)).status, 201);
    });

    it('releases the lock when the file it loads is refused, so a fixed file can be opened', async () => {
      await writeFile(data, '{"version": 1, "activities": [], "sessions": [], "running": null, "entries": [{}]}');
      const server = createReferenceServer({ token: TEST_TOKEN, dataFile: new DataFile(data) });
      await assert.rejects(server.listen(0), { name: 'DataFileError', code: 'invalid' });
      assert.deepEqual(await readdir(join(dir, 'app')), ['data.json']);
      await writeFile(data, '{"version": 1, "activities": [], "sessions": [], "running": null, "entries": []}');
      await start();
    });
  });

  describe('while running', () => {
    it('answers 500 with one sentence when the file cannot be written, and leaves the state as it was', async () => {
      const started = await start();
      assert.equal((await logEntry(started, 5)).status, 201);
      started.server.controls.setBreak(true);
      const before = await signedSend(started, { method: 'GET', target: '/status' });

      await breakDirectory();
      const entry = await logEntry(started, 7);
      assert.equal(entry.status, 500);
      assert.deepEqual(Object.keys(entry.json as object), ['error']);
      assert.match(
        (entry.json as { error: string }).error,
        new RegExp(
          `^Cannot write the data file ${data.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: .*; the request changed nothing\\.$`,
        ),
      );
      const start1 = await signedSend(started, { method: 'POST', target: '/activities/start', body: { name: 'Kept' } });
      assert.equal(start1.status, 500, 'a start, which also clears the break, is undone whole');
      const stop = await signedSend(started, { method: 'POST', target: '/activities/stop', body: {} });
      assert.equal(stop.status, 500, 'stop saves even when nothing runs, and fails alike');
      assert.deepEqual(loggedEntries(started.server), [['Kept', 5]]);
      assert.equal(started.server.controls.state.isOnBreak, true);
      const after = await signedSend(started, { method: 'GET', target: '/status' });
      assert.deepEqual(after.json, before.json, '/status shows nothing a restart would lose');

      await repairDirectory();
      assert.equal((await logEntry(started, 9)).status, 201);
      await started.server.close();
      const restarted = await start();
      assert.deepEqual(
        loggedEntries(restarted.server),
        [
          ['Kept', 5],
          ['Kept', 9],
        ],
        'exactly what was answered 201',
      );
    });

    it('answers only what is on disk, also for overlapping requests while the file fails and works again', async () => {
      const started = await start();
      const answered: number[] = [];
      const send = async (minutes: number): Promise<void> => {
        const response = await logEntry(started, minutes);
        if (response.status === 201) answered.push(minutes);
        else assert.equal(response.status, 500, response.text);
      };
      const first = Array.from({ length: 8 }, (_, index) => send(index + 1));
      await breakDirectory();
      const second = Array.from({ length: 8 }, (_, index) => send(index + 11));
      await Promise.all([...first, ...second]);
      await repairDirectory();
      await Promise.all(Array.from({ length: 8 }, (_, index) => send(index + 21)));
      const kept = (await onDisk()).entries.map((entry) => entry.durationMinutes);
      assert.deepEqual(
        [...kept].sort((a, b) => a - b),
        [...answered].sort((a, b) => a - b),
        'every 201 is on disk, and nothing else',
      );
      assert.deepEqual(
        loggedEntries(started.server).map(([, minutes]) => minutes),
        kept,
        'the state holds what the file holds',
      );
      assert.deepEqual(
        answered.filter((minutes) => minutes > 10 && minutes < 20),
        [],
        'nothing sent while the directory is gone is answered 201',
      );
      assert.equal(answered.filter((minutes) => minutes > 20).length, 8, 'once repaired, every request is saved again');
    });

    it('has a start on disk before its answer, and runs it again after a restart', async () => {
      const started = await start();
      await signedSend(started, {
        method: 'POST',
        target: '/activities/start',
        body: { name: 'Deep work', createIfMissing: true },
      });
      assert.notEqual((await onDisk()).running, null, 'the start is on disk before its answer');
      await started.server.close();
      const restarted = await start();
      assert.equal(restarted.server.controls.state.current()?.activityName, 'Deep work');
    });
  });
});
