import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { send } from '../../support/http';
import { deadPid, lockRecord } from '../../support/pids';
import { freePort, runServer, type ServerProcess } from '../../support/process';
import { signedHeaders } from '../../support/signing';

describe('server/cli: --data FILE, one server at a time', function () {
  this.timeout(30_000);
  let running: ServerProcess[] = [];
  let dir: string;
  let data: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tt-cli-data-'));
    await mkdir(join(dir, 'app'));
    data = join(dir, 'app', 'data.json');
  });

  afterEach(async () => {
    await Promise.all(running.map((server) => server.stop('SIGKILL')));
    running = [];
    await rm(dir, { recursive: true, force: true });
  });

  const start = async (path = data): Promise<ServerProcess> => {
    const server = runServer(['--port', String(await freePort()), '--token', 't', '--data', path]);
    running.push(server);
    return server;
  };

  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  it('exits 1 with one sentence when the directory of the data file is missing or a file', async () => {
    await writeFile(join(dir, 'plain'), 'x');
    const cases: [string, string][] = [
      [join(dir, 'missing', 'data.json'), `The directory ${join(dir, 'missing')} of the data file does not exist.\n`],
      [join(dir, 'plain', 'data.json'), `The directory ${join(dir, 'plain')} of the data file is not a directory.\n`],
    ];
    for (const [path, sentence] of cases) {
      const server = await start(path);
      assert.equal(await server.exited, 1, path);
      assert.equal(server.stderr(), sentence);
      assert.doesNotMatch(server.stdout(), /listening/);
    }
  });

  it("refuses a second server on the same data file with one sentence naming the first one's pid", async () => {
    const first = await start();
    await first.waitFor(/listening on/);
    const second = await start();
    assert.equal(await second.exited, 1);
    assert.equal(
      second.stderr(),
      `The data file ${data} is in use by another server (pid ${first.child.pid}); stop that server or pick another data file.\n`,
    );
    assert.equal(await first.stop('SIGTERM'), 0);
    assert.deepEqual(await readdir(join(dir, 'app')), [], 'the lock is released on exit');
    const third = await start();
    await third.waitFor(/listening on/);
  });

  it('starts after a killed server: takes over its lock and removes the temporary file of its last write', async () => {
    const killed = await start();
    await killed.waitFor(/listening on/);
    await killed.stop('SIGKILL');
    assert.equal(
      (JSON.parse(await readFile(`${data}.lock`, 'utf8')) as { pid: number }).pid,
      killed.child.pid,
      'a killed server leaves its lock',
    );
    // What a writer killed between writing and renaming leaves behind.
    await writeFile(join(dir, 'app', `.data.json.${killed.child.pid}.tmp`), '{"version": 1, "activi');
    const restarted = await start();
    await restarted.waitFor(/listening on/);
    assert.deepEqual(await readdir(join(dir, 'app')), ['data.json.lock']);
    assert.equal((JSON.parse(await readFile(`${data}.lock`, 'utf8')) as { pid: number }).pid, restarted.child.pid);
  });

  it('lets exactly one of six servers started at once on a stale lock run; the others name its pid', async function () {
    this.timeout(60_000);
    for (let round = 0; round < 3; round++) {
      await writeFile(`${data}.lock`, await lockRecord(await deadPid(), String(round).padStart(32, '0')));
      const servers = await Promise.all(Array.from({ length: 6 }, () => start()));
      const outcomes = await Promise.all(
        servers.map((server) =>
          Promise.race([
            server
              .waitFor(/listening on http:\/\/127\.0\.0\.1:(\d+)/)
              .then((match) => ({ server, port: Number(match[1]) })),
            server.exited.then(() => undefined),
          ]),
        ),
      );
      const winners = outcomes.flatMap((outcome) => (outcome ? [outcome] : []));
      assert.equal(winners.length, 1, `round ${round}: ${winners.length} servers run on one data file`);
      const winner = winners[0]!;
      for (const server of servers.filter((server) => server !== winner.server)) {
        assert.equal(await server.exited, 1);
        assert.match(
          server.stderr(),
          new RegExp(
            `^The data file ${escape(data)} is in use by another server \\(pid ${winner.server.child.pid}\\); `,
          ),
        );
      }
      const body = JSON.stringify({ name: 'Once', durationMinutes: 1, createIfMissing: true });
      const headers = signedHeaders({ token: 't', method: 'POST', target: '/entries', body });
      assert.equal((await send(winner.port, { method: 'POST', target: '/entries', headers, body })).status, 201);
      assert.equal(await winner.server.stop('SIGTERM'), 0);
      running = [];
    }
    assert.equal(
      (JSON.parse(await readFile(data, 'utf8')) as { entries: unknown[] }).entries.length,
      3,
      'one entry per round, none lost',
    );
  });
});
