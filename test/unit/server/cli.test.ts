import assert from 'node:assert/strict';
import { lstat, mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCapability } from '../../../src/protocol/capability';
import { parseCli, USAGE } from '../../../src/server/cli';
import { send, sendOverSocket } from '../../support/http';
import { freePort, runServer, type ServerProcess } from '../../support/process';
import { signedHeaders } from '../../support/signing';

describe('server/cli: arguments', () => {
  it('takes flags first, then SERVICE_TOKEN and SERVICE_PORT, then defaults', () => {
    assert.deepEqual(parseCli([], {}), {
      kind: 'run',
      config: {
        port: 39847,
        token: undefined,
        license: 'valid',
        unwired: [],
        answers: 'full',
        build: 'current',
        headerPrefix: 'Clessira',
        dataPath: undefined,
        seed: [],
        demo: false,
        startedAgoMs: undefined,
        socketPath: undefined,
        capabilityFile: undefined,
        countUnsigned: false,
      },
    });
    const fromEnv = parseCli([], { SERVICE_TOKEN: 'env-token', SERVICE_PORT: '40000' });
    assert.equal(fromEnv.kind === 'run' && fromEnv.config.token, 'env-token');
    assert.equal(fromEnv.kind === 'run' && fromEnv.config.port, 40000);
    const flags = parseCli(
      [
        '--port',
        '41000',
        '--token=flag-token',
        '--license',
        'locked',
        '--unwired',
        '/status',
        '--unwired',
        '/entries',
        '--header-prefix',
        'NowDoing',
        '--data',
        'x.json',
        '--count-unsigned',
      ],
      { SERVICE_TOKEN: 'env-token', SERVICE_PORT: '40000' },
    );
    assert.deepEqual(flags, {
      kind: 'run',
      config: {
        port: 41000,
        token: 'flag-token',
        license: 'locked',
        unwired: ['/status', '/entries'],
        answers: 'full',
        build: 'current',
        headerPrefix: 'NowDoing',
        dataPath: 'x.json',
        seed: [],
        demo: false,
        startedAgoMs: undefined,
        socketPath: undefined,
        capabilityFile: undefined,
        countUnsigned: true,
      },
    });
  });

  it('opens TCP beside --socket only when --port is given, and takes --capability-file with --socket', () => {
    const socketOnly = parseCli(['--socket', '/tmp/a.sock', '--capability-file', '/tmp/cap.json'], {
      SERVICE_PORT: 'not even a port',
    });
    assert.equal(socketOnly.kind, 'run', 'SERVICE_PORT is not read at all with --socket');
    assert.equal(socketOnly.config.port, undefined);
    assert.equal(socketOnly.config.socketPath, '/tmp/a.sock');
    assert.equal(socketOnly.config.capabilityFile, '/tmp/cap.json');
    const both = parseCli(['--socket=/tmp/a.sock', '--port', '41000'], { SERVICE_PORT: '40000' });
    assert.equal(both.kind === 'run' && both.config.port, 41000);
    assert.equal(both.kind === 'run' && both.config.socketPath, '/tmp/a.sock');
    assert.equal(both.kind === 'run' && both.config.capabilityFile, undefined);
  });

  it('takes --answers, --build and --seed [GROUP/]NAME; first-release means X-NowDoing-* unless --header-prefix says otherwise', () => {
    const parsed = parseCli(
      [
        '--answers',
        'minimal',
        '--build',
        'first-release',
        '--seed',
        ' Work / Deep work ',
        '--seed',
        '/CI/CD',
        '--seed',
        'Plain',
        '--seed',
        'Client A/B testing',
      ],
      {},
    );
    if (parsed.kind !== 'run') return assert.fail(JSON.stringify(parsed));
    assert.equal(parsed.config.answers, 'minimal');
    assert.equal(parsed.config.build, 'first-release');
    assert.equal(parsed.config.headerPrefix, 'NowDoing');
    assert.deepEqual(parsed.config.seed, [
      { name: 'Deep work', groupName: 'Work' },
      { name: 'CI/CD', groupName: null },
      { name: 'Plain', groupName: null },
      { name: 'B testing', groupName: 'Client A' },
    ]);
    const prefixed = parseCli(['--build', 'first-release', '--header-prefix', 'Clessira'], {});
    assert.equal(prefixed.kind === 'run' && prefixed.config.headerPrefix, 'Clessira');
    const unwired = parseCli(['--build', 'first-release', '--unwired', '/current'], {});
    assert.deepEqual(unwired.kind === 'run' && unwired.config.unwired, ['/current']);
  });

  it('takes --demo, alone or with --data', () => {
    const demo = parseCli(['--demo', '--data', 'x.json'], {});
    assert.equal(demo.kind === 'run' && demo.config.demo, true);
    assert.equal(demo.kind === 'run' && demo.config.dataPath, 'x.json');
    assert.equal(parseCli(['--demo=yes'], {}).kind, 'error', 'a switch takes no value');
  });

  it('lists the new flags in --help', () => {
    for (const flag of [
      '--answers full|minimal',
      '--build current|first-release',
      '--seed [GROUP/]NAME',
      '--header-prefix P',
      '--demo',
    ]) {
      assert.ok(USAGE.includes(flag), flag);
    }
    assert.match(USAGE, /--count-unsigned +the strictest reading of the app/);
  });

  it('reads --started-ago as hours and minutes, with the demo or a seed to run', () => {
    const ago = (...argv: string[]): number | undefined => {
      const parsed = parseCli(argv, {});
      return parsed.kind === 'run' ? parsed.config.startedAgoMs : undefined;
    };
    assert.equal(ago('--demo', '--started-ago', '9h'), 9 * 3_600_000);
    assert.equal(ago('--seed', 'Docs', '--started-ago', '90m'), 90 * 60_000);
    assert.equal(ago('--demo', '--started-ago=1h30m'), 90 * 60_000);
    assert.equal(ago('--demo', '--started-ago', '168h'), 168 * 3_600_000);
    assert.ok(USAGE.includes('--started-ago D'));
  });

  it('refuses bad input with one sentence that names the problem', () => {
    const cases: [string[], Record<string, string>, RegExp][] = [
      [['--bogus'], {}, /^Unknown option --bogus;/],
      [['--port', '1023'], {}, /^--port must be a whole number from 1024 to 65535, not "1023"\.$/],
      [['--port', '65536'], {}, /^--port must be/],
      [['--port', '4e4'], {}, /^--port must be/],
      [[], { SERVICE_PORT: 'abc' }, /^SERVICE_PORT must be/],
      [['--license', 'maybe'], {}, /^--license must be "valid" or "locked"/],
      [['--unwired', '/nope'], {}, /^--unwired takes one of \/healthcheck,/],
      [['--header-prefix', 'Acme'], {}, /^--header-prefix must be Clessira or NowDoing/],
      [['--answers', 'short'], {}, /^--answers must be "full" or "minimal", not "short"\.$/],
      [['--build', 'beta'], {}, /^--build must be "current" or "first-release", not "beta"\.$/],
      [
        ['--build', 'first-release', '--unwired', '/entries'],
        {},
        /^--unwired \/entries names an endpoint the first-release build does not have \(it answers 404 there\)\.$/,
      ],
      [['--seed', '  '], {}, /^--seed needs a non-empty activity name, not " {2}"\.$/],
      [['--seed', 'Work/ '], {}, /^--seed needs a non-empty activity name, not "Work\/ "\.$/],
      [['--seed', `Work/${'n'.repeat(201)}`], {}, /^--seed: the activity name must be at most 200 characters\.$/],
      [['--seed', `${'g'.repeat(201)}/Name`], {}, /^--seed: the group name must be at most 200 characters\.$/],
      [['--token', ''], {}, /^--token must not be empty\.$/],
      [['--port'], {}, /^--port needs a value; run with --help to see the options\.$/],
      [
        ['--capability-file', '/tmp/cap.json'],
        {},
        /^--capability-file needs --socket: the file announces the socket\.$/,
      ],
      [['--capability-file', '/tmp/cap.json', '--port', '41000'], {}, /^--capability-file needs --socket/],
      [['--socket', ''], {}, /^--socket needs a non-empty path\.$/],
      [['--socket', '/tmp/a.sock', '--capability-file', ''], {}, /^--capability-file needs a non-empty path\.$/],
      [['--socket', '/tmp/a.sock', '--port', '80'], { SERVICE_PORT: '40000' }, /^--port must be a whole number/],
      [['--socket'], {}, /^--socket needs a value; run with --help to see the options\.$/],
      [['stray'], {}, /^Unexpected argument/],
      [
        ['--demo', '--started-ago', '9'],
        {},
        /^--started-ago takes a duration such as 9h, 90m or 1h30m, from 1m to 168h, not "9"\.$/,
      ],
      [['--demo', '--started-ago', '0m'], {}, /^--started-ago takes a duration/],
      [['--demo', '--started-ago', '169h'], {}, /^--started-ago takes a duration/],
      [['--demo', '--started-ago', 'h'], {}, /^--started-ago takes a duration/],
      [['--started-ago', '9h'], {}, /^--started-ago needs --demo or --seed: it says when their activity started\.$/],
    ];
    for (const [argv, env, pattern] of cases) {
      const parsed = parseCli(argv, env);
      if (parsed.kind !== 'error') assert.fail(`${argv.join(' ')} was accepted`);
      assert.match(parsed.message, pattern, argv.join(' '));
    }
  });
});

describe('server/cli: the program', function () {
  this.timeout(30_000);
  let running: ServerProcess[] = [];
  let dir: string;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tt-cli-'));
  });

  afterEach(async () => {
    await Promise.all(running.map((server) => server.stop('SIGKILL')));
    running = [];
    await rm(dir, { recursive: true, force: true });
  });

  const start = (args: string[], env: Record<string, string> = {}): ServerProcess => {
    const server = runServer(args, env);
    running.push(server);
    return server;
  };

  const signedGet = (port: number, token: string, target: string): ReturnType<typeof send> =>
    send(port, { method: 'GET', target, headers: signedHeaders({ token, method: 'GET', target }) });

  it('prints the address, then one line per request, and exits cleanly on SIGTERM', async () => {
    const port = await freePort();
    const server = start(['--port', String(port), '--token', 'cli-token']);
    await server.waitFor(new RegExp(`^listening on http://127\\.0\\.0\\.1:${port}$`, 'm'));
    assert.equal((await signedGet(port, 'cli-token', '/status')).status, 200);
    await server.waitFor(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z GET \/status 200$/m);
    assert.equal(server.stdout().includes('cli-token'), false, 'a given token is never printed');
    assert.equal(await server.stop('SIGTERM'), 0);
  });

  it('exits cleanly on SIGINT too', async () => {
    const port = await freePort();
    const server = start(['--port', String(port), '--token', 't']);
    await server.waitFor(/listening on/);
    assert.equal(await server.stop('SIGINT'), 0);
  });

  it('prints a generated token once, and uses SERVICE_TOKEN and SERVICE_PORT without printing', async () => {
    const port = await freePort();
    const generated = start(['--port', String(port)]);
    const [, token] = await generated.waitFor(/^token: (\S+)$/m);
    await generated.waitFor(/listening on/);
    assert.equal((await signedGet(port, token ?? '', '/status')).status, 200);
    assert.equal(generated.stdout().split(token ?? '').length - 1, 1);
    await generated.stop();

    const envPort = await freePort();
    const fromEnv = start([], { SERVICE_TOKEN: 'env-secret', SERVICE_PORT: String(envPort) });
    await fromEnv.waitFor(new RegExp(`listening on http://127\\.0\\.0\\.1:${envPort}`));
    assert.equal((await signedGet(envPort, 'env-secret', '/status')).status, 200);
    assert.equal(fromEnv.stdout().includes('env-secret'), false);
  });

  it('exits non-zero with one sentence for an unknown flag, a bad port, a port in use and a bad data file', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const busyPort = (blocker.address() as { port: number }).port;
    await writeFile(join(dir, 'broken.json'), '{"version": 1, "activities": [');
    await mkdir(join(dir, 'a-directory'));
    try {
      const cases: [string[], RegExp][] = [
        [['--nope'], /^Unknown option --nope; run with --help to see the options\.\n$/],
        [['--port', '80', '--token', 't'], /^--port must be a whole number from 1024 to 65535, not "80"\.\n$/],
        [
          ['--port', String(busyPort), '--token', 't'],
          new RegExp(`^Port ${busyPort} on 127\\.0\\.0\\.1 is already in use; pick another with --port\\.\\n$`),
        ],
        [
          ['--port', String(await freePort()), '--token', 't', '--data', join(dir, 'broken.json')],
          /^The data file .*broken\.json is not a data file of this server: .*\.\n$/,
        ],
        [
          ['--port', String(await freePort()), '--token', 't', '--data', join(dir, 'a-directory')],
          /^Cannot read the data file .*a-directory: .*\.\n$/,
        ],
      ];
      for (const [args, pattern] of cases) {
        const server = start(args);
        const code = await server.exited;
        assert.notEqual(code, 0, args.join(' '));
        assert.match(server.stderr(), pattern, args.join(' '));
      }
    } finally {
      blocker.close();
    }
  });

  const exists = (path: string): Promise<boolean> =>
    lstat(path).then(
      () => true,
      () => false,
    );

  const refused = (port: number): Promise<boolean> =>
    new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
    });

  const signedGetOverSocket = (socketPath: string, token: string, target: string): ReturnType<typeof sendOverSocket> =>
    sendOverSocket(socketPath, { method: 'GET', target, headers: signedHeaders({ token, method: 'GET', target }) });

  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  it('listens only on the socket with --socket, announces it with --capability-file, and removes both on SIGTERM', async () => {
    const socketPath = join(dir, 'api.sock');
    const capabilityPath = join(dir, 'cap.json');
    const port = await freePort();
    const server = start(['--socket', socketPath, '--capability-file', capabilityPath, '--token', 'cli-token'], {
      SERVICE_PORT: String(port),
    });
    await server.waitFor(new RegExp(`^listening on unix:${escape(socketPath)}$`, 'm'));
    assert.doesNotMatch(server.stdout(), /listening on http/);
    assert.equal(await refused(port), true, 'SERVICE_PORT opens no TCP port beside --socket');
    const parsed = parseCapability(await readFile(capabilityPath, 'utf8'));
    assert.deepEqual(parsed, {
      ok: true,
      capability: { version: 1, socketPath, token: 'cli-token', pid: server.child.pid },
    });
    assert.equal((await lstat(capabilityPath)).mode & 0o777, 0o600);
    assert.equal((await lstat(socketPath)).mode & 0o777, 0o600);
    assert.equal((await signedGetOverSocket(socketPath, 'cli-token', '/status')).status, 200);
    await server.waitFor(/ GET \/status 200$/m);
    assert.equal(
      server.stdout().includes('cli-token') || server.stderr().includes('cli-token'),
      false,
      'the token is never printed',
    );
    assert.equal(await server.stop('SIGTERM'), 0);
    assert.equal(await exists(socketPath), false, 'the socket is removed');
    assert.equal(await exists(capabilityPath), false, 'the capability file is removed');
  });

  it('listens on both with --socket and --port, and removes the socket and the capability file on SIGINT', async () => {
    const socketPath = join(dir, 'api.sock');
    const capabilityPath = join(dir, 'cap.json');
    const port = await freePort();
    const server = start([
      '--socket',
      socketPath,
      '--capability-file',
      capabilityPath,
      '--port',
      String(port),
      '--token',
      't',
    ]);
    await server.waitFor(new RegExp(`^listening on unix:${escape(socketPath)}$`, 'm'));
    assert.match(server.stdout(), new RegExp(`^listening on http://127\\.0\\.0\\.1:${port}$`, 'm'));
    assert.equal((await signedGet(port, 't', '/status')).status, 200);
    assert.equal((await signedGetOverSocket(socketPath, 't', '/status')).status, 200);
    assert.equal(await server.stop('SIGINT'), 0);
    assert.equal(await exists(socketPath), false, 'the socket is removed');
    assert.equal(await exists(capabilityPath), false, 'the capability file is removed');
  });

  it('removes the socket and the capability file on SIGHUP (a closed terminal), and exits 0 as on SIGTERM', async () => {
    const socketPath = join(dir, 'api.sock');
    const capabilityPath = join(dir, 'cap.json');
    const server = start(['--socket', socketPath, '--capability-file', capabilityPath, '--token', 't']);
    await server.waitFor(new RegExp(`^listening on unix:${escape(socketPath)}$`, 'm'));
    assert.equal((await signedGetOverSocket(socketPath, 't', '/status')).status, 200);
    assert.equal(await server.stop('SIGHUP'), 0);
    assert.equal(await exists(socketPath), false, 'the socket is removed');
    assert.equal(await exists(capabilityPath), false, 'the capability file is removed');
  });

  it('replaces the socket a killed server left behind, and announces the new pid', async () => {
    const socketPath = join(dir, 'api.sock');
    const capabilityPath = join(dir, 'cap.json');
    const killed = start(['--socket', socketPath, '--capability-file', capabilityPath, '--token', 't']);
    await killed.waitFor(/listening on unix:/);
    await killed.stop('SIGKILL');
    assert.equal(await exists(socketPath), true, 'a killed server leaves its socket');
    const restarted = start(['--socket', socketPath, '--capability-file', capabilityPath, '--token', 'new-token']);
    await restarted.waitFor(/listening on unix:/);
    const parsed = parseCapability(await readFile(capabilityPath, 'utf8'));
    assert.deepEqual(parsed, {
      ok: true,
      capability: { version: 1, socketPath, token: 'new-token', pid: restarted.child.pid },
    });
    assert.equal((await signedGetOverSocket(socketPath, 'new-token', '/status')).status, 200);
  });

  it('exits 2 with one sentence for --capability-file without --socket', async () => {
    const capabilityPath = join(dir, 'cap.json');
    const server = start(['--capability-file', capabilityPath, '--token', 't']);
    assert.equal(await server.exited, 2);
    assert.equal(server.stderr(), '--capability-file needs --socket: the file announces the socket.\n');
    assert.equal(await exists(capabilityPath), false);
  });

  it('exits non-zero with one sentence when the socket cannot be used, and leaves nothing behind', async () => {
    const plain = join(dir, 'plain');
    await writeFile(plain, 'not a socket');
    const live = join(dir, 'live.sock');
    const blocker = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => blocker.listen(live, resolve));
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const busyPort = (busy.address() as { port: number }).port;
    const socketPath = join(dir, 'api.sock');
    const capabilityPath = join(dir, 'cap.json');
    try {
      const cases: [string[], RegExp][] = [
        [
          ['--socket', plain],
          new RegExp(`^${escape(plain)} exists and is not a socket; remove it or pick another path\\.\\n$`),
        ],
        [
          ['--socket', join(dir, 'missing', 'api.sock')],
          new RegExp(`^The directory ${escape(join(dir, 'missing'))} of the socket path does not exist\\.\\n$`),
        ],
        [
          ['--socket', join(dir, 'z'.repeat(120))],
          /^The socket path .* is \d+ bytes long, and the longest this OS takes is \d+\.\n$/,
        ],
        [['--socket', live], new RegExp(`^Another server already listens on the socket ${escape(live)}\\.\\n$`)],
        [
          ['--socket', socketPath, '--port', String(busyPort)],
          new RegExp(`^Port ${busyPort} on 127\\.0\\.0\\.1 is already in use; pick another with --port\\.\\n$`),
        ],
        [
          ['--socket', socketPath, '--capability-file', join(dir, 'missing', 'cap.json')],
          /^Cannot write the capability file .*cap\.json: the directory .*missing does not exist\.\n$/,
        ],
      ];
      for (const [args, pattern] of cases) {
        const announced = args.includes('--capability-file') ? args : [...args, '--capability-file', capabilityPath];
        const server = start([...announced, '--token', 'secret-token']);
        assert.equal(await server.exited, 1, args.join(' '));
        assert.match(server.stderr(), pattern, args.join(' '));
        assert.equal(server.stderr().includes('secret-token'), false, 'the token is never printed');
        assert.equal(await exists(capabilityPath), false, `${args.join(' ')}: no capability file`);
        assert.equal(await exists(socketPath), false, `${args.join(' ')}: no socket`);
      }
      assert.equal(await readFile(plain, 'utf8'), 'not a socket');
    } finally {
      blocker.close();
      busy.close();
    }
  });

  it('prints --answers, --build and --seed in --help', async () => {
    const help = start(['--help']);
    assert.equal(await help.exited, 0);
    for (const flag of ['--answers full|minimal', '--build current|first-release', '--seed [GROUP/]NAME'])
      assert.ok(help.stdout().includes(flag), flag);
  });

  it('stands in for a first-release app with minimal answers and grouped activities', async () => {
    const port = await freePort();
    const server = start([
      '--port',
      String(port),
      '--token',
      't',
      '--build',
      'first-release',
      '--answers',
      'minimal',
      '--seed',
      'Work/Deep work',
    ]);
    await server.waitFor(/listening on/);
    const nowDoing = (target: string): ReturnType<typeof send> =>
      send(port, {
        method: 'GET',
        target,
        headers: signedHeaders({ token: 't', method: 'GET', target, headerPrefix: 'NowDoing' }),
      });
    const health = await nowDoing('/healthcheck');
    assert.equal(health.text, '{"ok":true}');
    const search = await nowDoing('/activities/search?q=deep');
    assert.match(
      search.text,
      /^\{"items":\[\{"id":"[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}","name":"Deep work","groupName":"Work"\}\]\}$/,
    );
    assert.equal((await nowDoing('/status')).status, 404);
    assert.equal(
      (await signedGet(port, 't', '/healthcheck')).status,
      401,
      'X-Clessira-* is not what a first release reads',
    );
  });

  it('keeps activities, sessions and entries across restarts with --data', async () => {
    const dataPath = join(dir, 'nested', 'data.json');
    await mkdir(join(dir, 'nested'));
    const port = await freePort();
    const first = start(['--port', String(port), '--token', 't', '--data', dataPath]);
    await first.waitFor(/listening on/);
    const body = JSON.stringify({ name: 'Kept', durationMinutes: 2, createIfMissing: true });
    const headers = signedHeaders({ token: 't', method: 'POST', target: '/entries', body });
    assert.equal((await send(port, { method: 'POST', target: '/entries', headers, body })).status, 201);
    const saved = JSON.parse(await readFile(dataPath, 'utf8')) as { entries: unknown[] };
    assert.equal(saved.entries.length, 1, 'the entry is on disk before the answer');
    await first.stop();

    const second = start(['--port', String(port), '--token', 't', '--data', dataPath]);
    await second.waitFor(/listening on/);
    const search = await signedGet(port, 't', '/activities/search?q=kept');
    assert.deepEqual(
      (search.json as { result: { activityName: string }[] }).result.map((hit) => hit.activityName),
      ['Kept'],
    );
    const status = await signedGet(port, 't', '/status');
    assert.equal((status.json as { result: { todaySeconds: number } }).result.todaySeconds, 120);
  });

  it('starts with the demo state with --demo: "Write docs" running for 25 minutes, time logged today', async () => {
    const port = await freePort();
    const server = start(['--port', String(port), '--token', 't', '--demo']);
    await server.waitFor(/listening on/);
    const status = await signedGet(port, 't', '/status');
    const result = (
      status.json as { result: { currentActivity: { activityName: string } | null; todaySeconds: number } }
    ).result;
    assert.equal(result.currentActivity?.activityName, 'Write docs');
    const current = await signedGet(port, 't', '/current');
    const startedAt = Date.parse((current.json as { result: { startedAt: string } }).result.startedAt);
    const minutes = (Date.now() - startedAt) / 60_000;
    assert.ok(minutes >= 25 && minutes < 26, `running for ${minutes.toFixed(2)} minutes`);
    // The 45 minutes logged at start are today whatever the hour; the sessions may begin before midnight.
    assert.ok(result.todaySeconds >= 45 * 60, `today ${result.todaySeconds} s`);
  });
});
