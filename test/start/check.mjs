// The start check: `npm start` does what CONTRIBUTING.md says. It runs scripts/start.mjs as a user
// would, opens the URL it prints in Debian's chromium (playwright-core), logs in with the password
// printed next to it, and reads the extension's status bar item from the workbench's DOM: the demo
// activity running for about 25 minutes, with today's total, through the capability file alone.
// Without that password code-server must give nothing: not to 127.0.0.1, not to a
// DNS-rebinding host name, not to a made-up cookie; and the password must be nowhere but on the
// screen once and, at most, in code-server's own environment. Then SIGINT (Ctrl-C) and SIGTERM
// must leave no process, socket, capability file or temporary folder behind, and the port
// closed. In a terminal (a pseudo-terminal from util-linux's `script`, as a user's terminal is),
// its keys must change what the status bar shows: o offline and back, l license
// locked and valid, b on break and over, t token rejected and back; q must quit as Ctrl-C does,
// leaving nothing; without a terminal (CI, this check's pipes) there are no keys. --desktop is
// checked with a stand-in `code` on PATH (none at all: one sentence; one that records what it is
// given: the arguments, the settings and a running demo app). The pure decisions of
// scripts/start/plan.mjs and scripts/start/keys.mjs are checked first.
//
// `node test/start/check.mjs [--no-build]` prints one line per check and
// `start-check: N passed, N failed`, and exits 0 only when all pass. `checkStart({ build })`
// resolves to `{ passed, failed, tests: [{ title, ok, error? }] }` for a suite table.
// Every process start.mjs starts carries TT_START_CHECK_ID in its environment, which is how the
// check finds them all, helpers included, to prove them gone.
/* global document */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath, URLSearchParams } from 'node:url';
import { chromium } from 'playwright-core';
import {
  helpText,
  KEY_HELP,
  KEYS_HINT,
  keysOf,
  OFFLINE_REFUSAL,
  pressedLine,
  QUIT_LINE,
  unknownKeyLine,
} from '../../scripts/start/keys.mjs';
import {
  codeServerReady,
  desktopArgs,
  findOnPath,
  LOGIN_HEADING,
  NO_DESKTOP_CODE,
  parseStartArgs,
  USAGE,
  workbenchUrl,
} from '../../scripts/start/plan.mjs';
import { chromiumPath, codeServerLogin } from '../extension/host/common.mjs';
import { codeServerPaths } from '../extension/host/install.mjs';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const startScript = join(repoRoot, 'scripts', 'start.mjs');
/** The demo's running activity (src/server/demo.ts, DEMO_RUNNING). */
const RUNNING = 'Write docs';
const STATUS_ITEM = 'clessira-tools.clessira-time-tracker';
/** The one URL start.mjs prints, indented on a line of its own, and what it says after it. */
const URL_LINE = /^ {2}(http:\/\/127\.0\.0\.1:\d+\/\S*)$[^]*and removes \S+\.$/m;
/** The status bar while the demo activity runs. */
const TRACKING = /^Write docs (?:< 1m|\d+m|\d+h(?: \d+m)?)/;
/**
 * The status bar changes a key makes: at once (o) or at the extension's next poll (10 s, 30 s in a window without
 * focus).
 */
const KEY_SHOWS_WITHIN_MS = 45_000;
/** The password printed next to it. */
const PASSWORD_LINE = /^ {2}password: (\S+)$/m;
/** What a browser sends to open a websocket (RFC 6455's sample key). */
const WEBSOCKET_HEADERS = {
  connection: 'Upgrade',
  upgrade: 'websocket',
  'sec-websocket-version': '13',
  'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
};
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/**
 * What src/server/demo.ts logs today besides the running session: two entries logged at the start (15m + 30m), and a
 * finished session of 45 minutes that ended 5 minutes before the running one began.
 */
const DEMO_LOGGED_MINUTES = 45;
const DEMO_FINISHED_MINUTES = 45;
const DEMO_FINISHED_ENDS_BEFORE_RUNNING = 5;

/** `1h 55m`, `52m`, `2h` (formatMinutes) in minutes. */
export function minutesOfTotal(text) {
  const parts = /^(?:(\d+)h)? ?(?:(\d+)m)?$/.exec(text);
  if (parts === null || text === '') throw new Error(`"${text}" is not a total`);
  return Number(parts[1] ?? 0) * 60 + Number(parts[2] ?? 0);
}

/**
 * Today's total is the server's local day: the entries always fall in it, but just after midnight
 * part of the running session and the finished one were yesterday (a CI run at 00:07 saw
 * "today 52m"). Away from midnight it must be all of it; near it, anything from the entries alone up.
 */
export function checkDemoToday(todayMinutes, runningMinutes, status, now = new Date()) {
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  const sinceMidnight = (now.getTime() - midnight.getTime()) / 60_000;
  const all = DEMO_LOGGED_MINUTES + runningMinutes + DEMO_FINISHED_MINUTES;
  const wholeDemoIsToday =
    sinceMidnight > runningMinutes + DEMO_FINISHED_ENDS_BEFORE_RUNNING + DEMO_FINISHED_MINUTES + 1;
  if (wholeDemoIsToday) {
    assert.ok(
      Math.abs(todayMinutes - all) <= 1,
      `"${status}": today's total should be about ${all} minutes (the demo's logged time, the running and the finished session)`,
    );
  } else {
    assert.ok(
      todayMinutes >= DEMO_LOGGED_MINUTES && todayMinutes <= all + 1,
      `"${status}": ${Math.round(sinceMidnight)} minutes after midnight, today's total should be between ${DEMO_LOGGED_MINUTES} and ${all} minutes`,
    );
  }
}

/**
 * Runs every check in order; one that fails does not stop the others (each starts its own
 * `npm start`). `build: false` passes --no-build (dist/ is fresh); `log` gets one line per check.
 */
export async function checkStart({ build = true, log = (line) => console.log(line) } = {}) {
  const tests = [];
  const scratch = mkdtempSync(join(tmpdir(), 'tt-start-check-'));
  const started = new Set();
  // An interrupted check still stops what it started: Ctrl-C in a terminal reaches start.mjs too,
  // a SIGTERM to this process alone would not.
  const context = { build, scratch, started, first: undefined, browser: undefined, interrupted: false };
  const forward = (signal) => {
    context.interrupted = true;
    for (const start of started) start.child.kill('SIGINT');
    // Ends a wait on the workbench at once, so the check winds down without waiting it out.
    void context.browser?.close().catch(() => undefined);
    process.exitCode = signal === 'SIGINT' ? 130 : 143;
  };
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  try {
    for (const [title, check] of checks) {
      if (context.interrupted) break;
      const began = Date.now();
      try {
        const detail = await check(context);
        tests.push({ title, ok: true });
        log(`  ✔ ${title} (${seconds(began)} s)${detail ? `: ${detail}` : ''}`);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        tests.push({ title, ok: false, error: message });
        log(`  ✘ ${title} (${seconds(began)} s): ${message}`);
      }
    }
  } finally {
    await Promise.all([...started].map((start) => stopLeftover(start)));
    process.off('SIGINT', forward);
    process.off('SIGTERM', forward);
    rmSync(scratch, { recursive: true, force: true });
  }
  const passed = tests.filter((test) => test.ok).length;
  return { passed, failed: tests.length - passed, tests };
}

/** The `start` entry of test/suites.mjs: the launcher has just built dist/. */
export default async function startSuite() {
  const result = await checkStart({ build: false });
  return { passes: result.passed, failures: result.failed };
}

const checks = [
  [
    'arguments: --desktop, --lang, --no-build, --verbose, --help; anything else is one sentence',
    () => {
      assert.deepEqual(parseStartArgs([]), {
        kind: 'run',
        options: { desktop: false, lang: 'en', restricted: false, build: true, verbose: false },
      });
      assert.deepEqual(parseStartArgs(['--desktop', '--lang', 'de', '--no-build', '--verbose'], ['en', 'de']), {
        kind: 'run',
        options: { desktop: true, lang: 'de', restricted: false, build: false, verbose: true },
      });
      assert.equal(parseStartArgs(['--restricted']).options.restricted, true);
      assert.match(
        parseStartArgs(['--lang', 'fr'], ['en', 'de']).message,
        /^--lang "fr" is not a language of the extension; it has en, de\.$/,
      );
      assert.deepEqual(parseStartArgs(['--help']), { kind: 'help' });
      for (const argv of [['--port', '3000'], ['folder'], ['--desktop=yes']]) {
        const parsed = parseStartArgs(argv);
        assert.equal(parsed.kind, 'error', argv.join(' '));
        assert.match(parsed.message, /; run `npm start -- --help` for the options\.$/);
      }
    },
  ],
  [
    'the URL opens the repository with the extension from it in development mode',
    () => {
      const url = new URL(
        workbenchUrl('127.0.0.1:4000', { folder: '/home/me/my repo/', extensionPath: '/home/me/my repo/' }),
      );
      assert.equal(url.origin, 'http://127.0.0.1:4000');
      assert.equal(url.searchParams.get('folder'), '/home/me/my repo');
      assert.deepEqual(JSON.parse(url.searchParams.get('payload')), [
        ['extensionDevelopmentPath', 'vscode-remote://127.0.0.1:4000/home/me/my%20repo'],
      ]);
    },
  ],
  [
    'the desktop command line: this checkout in development mode, its own profile, the repository open',
    () => {
      const args = desktopArgs({ repoRoot: '/r/', userDataDir: '/t/user-data', extensionsDir: '/t/extensions' });
      assert.deepEqual(args, [
        '--new-window',
        '--wait',
        '--extensionDevelopmentPath=/r',
        '--user-data-dir',
        '/t/user-data',
        '--extensions-dir',
        '/t/extensions',
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        '/r',
      ]);
      const files = new Set(['/b/code', '/c/code']);
      assert.equal(
        findOnPath('code', '/a::/b:/c', (path) => files.has(path)),
        '/b/code',
      );
      assert.equal(
        findOnPath('code', '/a', (path) => files.has(path)),
        undefined,
      );
      assert.equal(
        findOnPath('code', undefined, () => true),
        undefined,
      );
    },
  ],
  [
    "code-server's password login: the password in the environment, not on the command line; the URL and the password printed on lines of their own",
    () => {
      const login = codeServerLogin('0f1e2d3c', { welcomeText: LOGIN_HEADING });
      assert.deepEqual(login, {
        args: ['--auth', 'password', '--welcome-text', 'Log in with the password npm start printed next to the URL'],
        env: { HASHED_PASSWORD: createHash('sha256').update('0f1e2d3c').digest('hex'), PASSWORD: undefined },
      });
      // The test suites' code-servers: the same login, code-server's own heading.
      assert.deepEqual(codeServerLogin('0f1e2d3c').args, ['--auth', 'password']);
      const text = codeServerReady({
        url: 'http://127.0.0.1:4000/?folder=%2Fr',
        password: '0f1e2d3c',
        seconds: '2.5',
        runDir: '/tmp/tt-start-x',
      });
      assert.equal(URL_LINE.exec(text)?.[1], 'http://127.0.0.1:4000/?folder=%2Fr');
      assert.equal(PASSWORD_LINE.exec(text)?.[1], '0f1e2d3c');
      assert.equal(text.split('0f1e2d3c').length, 2, 'the password once');
      assert.equal(temporaryFolder(text), '/tmp/tt-start-x');
      assert.match(USAGE, /the password code-server asks for/);
    },
  ],
  [
    'the keys: one line under the URL, a help naming each, one line per press saying what VS Code shows, never the token',
    () => {
      for (const key of ['h', 'o', 'l', 'b', 't', 'q'])
        assert.match(KEYS_HINT, new RegExp(`\\b${key} \\w`), `the line under the URL names ${key}`);
      assert.ok(!KEYS_HINT.includes('\n') && KEYS_HINT.length <= 100, 'the line under the URL is one short line');
      assert.deepEqual(
        KEY_HELP.map(([key]) => key),
        ['o', 'l', 'b', 't', 'h', 'q'],
      );
      for (const [key] of KEY_HELP)
        assert.match(helpText(), new RegExp(`^  ${key}  \\S`, 'm'), `the help names ${key}`);
      assert.deepEqual(keysOf('oL\r\n\x1b[Ax\x03'), ['o', 'l', { unknown: 'that key' }, { unknown: '"x"' }, 'ctrl-c']);
      assert.equal(unknownKeyLine('"x"'), '"x" is not a key of npm start: press h for the keys.');
      const shows = [
        ['o', { online: false }, /"Time Tracker offline"/],
        ['o', { online: true }, /back/],
        ['l', { license: 'locked' }, /"Time Tracker: license locked"/],
        ['l', { license: 'valid' }, /valid again/],
        ['b', { onBreak: true }, /"On break"/],
        ['b', { onBreak: false }, /over/],
        ['t', { tokenAnnounced: false }, /"Time Tracker: token rejected"/],
        ['t', { tokenAnnounced: true }, /turned off and on/],
      ];
      for (const [key, outcome, pattern] of shows) {
        const line = pressedLine(key, outcome);
        assert.match(line, pattern, `${key} ${JSON.stringify(outcome)}`);
        assert.ok(line.startsWith(`${key}  `) && !line.includes('\n'), `one line, starting with the key: ${line}`);
      }
      for (const key of ['l', 'b', 't'])
        assert.equal(pressedLine(key, { offline: true }), `${key}  ${OFFLINE_REFUSAL}`);
      assert.match(QUIT_LINE, /^q {2}Stopping/);
    },
  ],
  [
    '--desktop without `code` on PATH: one sentence, exit 1, nothing built or started',
    async ({ scratch, started }) => {
      const emptyDir = join(scratch, 'no-code');
      mkdirSync(emptyDir);
      const start = startProcess(['--desktop'], { PATH: emptyDir }, started);
      const { code } = await start.exited;
      assert.equal(code, 1);
      assert.equal(start.stderr(), `${NO_DESKTOP_CODE}\n`);
      assert.doesNotMatch(start.stdout(), /build|demo app/);
      assert.deepEqual(processesOf(start.marker), []);
    },
  ],
  [
    'npm start prints one URL and a password; the URL asks for it, and logged in the status bar shows the running demo activity at about 25 minutes',
    async (context) => {
      const spawnedAt = Date.now();
      const start = startProcess(context.build ? [] : ['--no-build'], {}, context.started);
      // Stopped by the next check, whatever happens here.
      context.first = start;
      const [, url] = await start.waitFor(URL_LINE, 180_000);
      const urlSeconds = seconds(spawnedAt);
      assert.equal(start.stdout().match(/https?:\/\//g)?.length, 1, `one URL, not:\n${start.stdout()}`);
      assert.ok(!start.stdout().includes(KEYS_HINT), 'keys are offered although stdin is no terminal');
      if (context.build)
        assert.ok(
          statSync(join(repoRoot, 'dist', 'extension.js')).mtimeMs >= spawnedAt - 1000,
          'dist/extension.js was built by this start',
        );
      checkAnnouncement(start.stdout());
      const status = await statusBarText(url, PASSWORD_LINE.exec(start.stdout())?.[1], context);
      const match = /^Write docs (\d+)m · today (\d+h(?: \d+m)?|\d+m)$/.exec(status);
      assert.ok(match, `the status bar shows "${status}", not "${RUNNING} 25m · today …"`);
      const minutes = Number(match[1]);
      assert.ok(minutes >= 25 && minutes < 30, `running for ${minutes} minutes, not about 25`);
      checkDemoToday(minutesOfTotal(match[2]), minutes, status);
      return `URL after ${urlSeconds} s${context.build ? ' (with the build)' : ''}; the status bar says "${status}"`;
    },
  ],
  [
    'without the password code-server gives nothing: no workbench, no file of it, no websocket, no port proxy, from 127.0.0.1 or a DNS-rebinding host name, with a made-up cookie or a wrong password',
    async ({ first }) => {
      const { url, port } = printedUrl(first);
      const rebinding = `rebind.attacker.example:${port}`;
      const askers = [
        ['127.0.0.1', {}],
        ['a DNS-rebinding page', { host: rebinding, origin: `http://${rebinding}` }],
        ['a made-up session cookie', { cookie: `code-server-session=${randomUUID()}` }],
      ];
      for (const [who, headers] of askers) {
        const page = await probe(port, { path: url.pathname + url.search, headers });
        assert.equal(
          page.status,
          302,
          `the printed URL, asked by ${who} without the password: ${page.status}, not a redirect to the login page`,
        );
        assert.match(
          page.headers.location ?? '',
          /^\.\/login\?/,
          `the printed URL, asked by ${who}, redirects to ${page.headers.location}, not to the login page`,
        );
        assert.doesNotMatch(page.body, /workbench/, `the printed URL, asked by ${who}, shows the workbench`);
        const asset = await probe(port, {
          path: `/stable-${vscodeCommit()}/static/out/vs/code/browser/workbench/workbench.js`,
          headers,
        });
        assert.equal(asset.status, 401, `the workbench's script, asked by ${who}: ${asset.status}, not 401`);
        const socket = await probe(port, {
          path: '/?reconnectionToken=start-check&reconnection=false&skipWebSocketFrames=false',
          headers: { ...WEBSOCKET_HEADERS, ...headers },
        });
        assert.equal(socket.upgraded, false, `a websocket to the extension host, asked by ${who}, was opened`);
        assert.equal(
          socket.status,
          401,
          `a websocket to the extension host, asked by ${who}: ${socket.status}, not 401`,
        );
        const proxied = await probe(port, { path: `/proxy/${port}/healthz`, headers });
        assert.equal(proxied.status, 401, `code-server's port proxy, asked by ${who}: ${proxied.status}, not 401`);
      }
      const wrong = await probe(port, {
        path: `/login${url.search}`,
        method: 'POST',
        headers: FORM,
        body: new URLSearchParams({ password: randomUUID() }).toString(),
      });
      assert.equal(wrong.headers['set-cookie'], undefined, 'a wrong password got a session cookie');
      assert.doesNotMatch(wrong.body, /workbench/, 'a wrong password got the workbench');
      return `${askers.length} askers × 4 requests and a wrong password: the login page or 401, no websocket`;
    },
  ],
  [
    'the printed password logs in with one form POST, back at the printed URL; it is printed once and is on no command line, in no file of the run and in no process but code-server',
    async ({ first }) => {
      const { url, port } = printedUrl(first);
      const password = passwordOf(first.stdout());
      const login = await probe(port, {
        path: `/login${url.search}`,
        method: 'POST',
        headers: FORM,
        body: new URLSearchParams({ password }).toString(),
      });
      assert.equal(login.status, 302, `logging in: ${login.status}, not a redirect\n${login.body.slice(0, 500)}`);
      const back = new URL(login.headers.location, `http://127.0.0.1:${port}/login`);
      assert.equal(back.pathname, url.pathname, `logging in leads to ${back.href}`);
      for (const name of ['folder', 'payload'])
        assert.equal(
          back.searchParams.get(name),
          url.searchParams.get(name),
          `logging in keeps the printed URL's ${name}`,
        );
      const cookie = (login.headers['set-cookie'] ?? [])
        .map((line) => line.split(';')[0])
        .find((pair) => pair.startsWith('code-server-session='));
      assert.ok(
        cookie !== undefined,
        `logging in sets no code-server-session cookie: ${JSON.stringify(login.headers['set-cookie'])}`,
      );
      const page = await probe(port, { path: back.pathname + back.search, headers: { cookie } });
      assert.equal(page.status, 200, `the printed URL with the session cookie: ${page.status}`);
      assert.match(page.body, /workbench\.js/, 'the printed URL with the session cookie shows the workbench');

      // The secrets: the password, and whatever code-server was given for it (a hash of it opens
      // code-server as well as the password does). Only code-server's own first process may hold
      // them, in its environment (which only this user can read); not the processes it starts: an
      // extension host, a terminal.
      const output = first.stdout() + first.stderr();
      assert.equal(output.split(password).length - 1, 1, 'the password is printed exactly once');
      const processes = processesOf(first.marker).map((pid) => ({
        argv: readProc(pid, 'cmdline').split('\0'),
        environ: readProc(pid, 'environ').split('\0'),
      }));
      const isCodeServer = ({ argv }) => /code-server\/out\/node\/entry(?:\.js)?$/.test(argv[1] ?? '');
      const given = processes
        .filter(isCodeServer)
        .flatMap(({ environ }) =>
          environ
            .filter((pair) => /^(?:HASHED_)?PASSWORD=./.test(pair))
            .map((pair) => pair.slice(pair.indexOf('=') + 1)),
        );
      const secrets = [password, ...given];
      const holders = processes.filter(({ environ }) =>
        environ.some((pair) => secrets.some((secret) => pair.includes(secret))),
      );
      assert.ok(
        holders.length <= 1 && holders.every(isCodeServer),
        `the password is in the environment of ${JSON.stringify(holders.map(({ argv }) => argv.slice(0, 2)))}`,
      );
      for (const { argv } of processes)
        assert.ok(
          !secrets.some((secret) => argv.join(' ').includes(secret)),
          `the password is on the command line of ${argv.join(' ')}`,
        );
      for (const secret of given)
        assert.ok(!output.includes(secret), 'what code-server was given for the password is printed');
      const runDir = temporaryFolder(first.stdout());
      const inFiles = filesUnder(runDir).filter((file) =>
        secrets.some((secret) => readFileSync(file).includes(secret)),
      );
      assert.deepEqual(inFiles, [], `the password is written in ${inFiles.join(', ')}`);
      return `one POST to /login, then the workbench; the password on screen once, in no file, and ${holders.length === 0 ? 'in no environment' : "in code-server's environment only"}`;
    },
  ],
  [
    'Ctrl-C (SIGINT) stops every process it started, removes the socket, the capability file and the temporary folder, and closes the port',
    ({ first }) => {
      if (first === undefined) throw new Error('the check before started nothing');
      return stopAndCheck(first, 'SIGINT');
    },
  ],
  [
    'with --lang de the status bar speaks German (as in the German suite); SIGTERM does the same',
    async (context) => {
      const start = startProcess(['--no-build', '--lang', 'de'], {}, context.started);
      const [, url] = await start.waitFor(URL_LINE, 120_000);
      assert.match(start.stdout(), /^> display language de: /m);
      const status = await withWorkbench(url, passwordOf(start.stdout()), context, (page) =>
        statusMatching(page, new RegExp(`^${RUNNING}.*heute`), 90_000),
      );
      return `"${status}"; ${await stopAndCheck(start, 'SIGTERM')}`;
    },
  ],
  [
    'with --restricted --lang de a sample repository with links opens untrusted: the tooltip says in German that its 2 links are not read, and the demo activity runs on',
    async (context) => {
      const start = startProcess(['--no-build', '--restricted', '--lang', 'de'], {}, context.started);
      const [, url] = await start.waitFor(URL_LINE, 120_000);
      assert.match(start.stdout(), /^> restricted: \S+\/shop opens untrusted \(Restricted Mode\)/m);
      assert.match(new URL(url).searchParams.get('folder') ?? '', /\/sample\/shop$/);
      const tooltip = await withWorkbench(url, passwordOf(start.stdout()), context, async (page) => {
        await statusMatching(page, new RegExp(`^${RUNNING}.*heute`), 90_000);
        return hoverMatching(page, /eingeschränkten Modus, daher werden seine 2 Verknüpfungen nicht gelesen/, 30_000);
      });
      return `"${tooltip.slice(-90)}"; ${await stopAndCheck(start, 'SIGINT')}`;
    },
  ],
  [
    'in a terminal the keys change what the status bar shows while VS Code keeps running: o offline and back, l license locked and valid, b on break and over, t token rejected and back; q quits as Ctrl-C does, leaving nothing',
    async (context) => {
      const start = startProcess(['--no-build'], {}, context.started, { terminal: true });
      const [, url] = await start.waitFor(URL_LINE, 120_000);
      await start.waitFor(`\n${KEYS_HINT}\n`, 10_000);
      const runDir = temporaryFolder(start.stdout());
      const capabilityFile = join(
        runDir,
        'home',
        'Library',
        'Containers',
        'com.mattes.clessira',
        'Data',
        'api-endpoint.json',
      );
      const seen = [];
      await withWorkbench(url, passwordOf(start.stdout()), context, async (page) => {
        seen.push(`"${await statusMatching(page, TRACKING, 90_000)}"`);
        const press = async (key, line, shows) => {
          const from = start.stdout().length;
          start.child.stdin.write(key);
          await start.waitFor(`${line}\n`, 15_000, from);
          if (shows === undefined) return;
          const text = await statusMatching(page, shows, KEY_SHOWS_WITHIN_MS);
          seen.push(`${key} "${text}"`);
        };
        await press('h', helpText());
        await press('x', unknownKeyLine('"x"'));
        await press('o', pressedLine('o', { online: false }), /offline/);
        assert.equal(existsSync(capabilityFile), false, 'offline, the capability file is gone');
        await press('l', pressedLine('l', { offline: true }));
        await press('o', pressedLine('o', { online: true }), TRACKING);
        await press('l', pressedLine('l', { license: 'locked' }), /license locked/);
        await press('l', pressedLine('l', { license: 'valid' }), TRACKING);
        await press('b', pressedLine('b', { onBreak: true }), /^On break/);
        await press('b', pressedLine('b', { onBreak: false }), TRACKING);
        await press('t', pressedLine('t', { tokenAnnounced: false }), /token rejected/);
        await press('t', pressedLine('t', { tokenAnnounced: true }), TRACKING);
      });
      const token = JSON.parse(readFileSync(capabilityFile, 'utf8')).token;
      assert.ok(!start.stdout().includes(token), 'the token is printed');
      const port = printedUrl(start).port;
      const running = processesOf(start.marker);
      start.child.stdin.write('q');
      const { code, signal } = await start.exited;
      assert.equal(code, 0, `q: exit ${code ?? signal}:\n${start.stdout()}`);
      assert.match(start.stdout(), new RegExp(`^${escapeRegExp(QUIT_LINE)}$`, 'm'));
      const left = processesOf(start.marker);
      assert.deepEqual(left, [], `processes left after q: ${left.join(', ')}`);
      assert.equal(existsSync(runDir), false, `${runDir} (socket, capability file, profile) is removed`);
      await assert.rejects(
        fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) }),
        Error,
        `port ${port} still answers`,
      );
      return `${seen.join(' → ')}; q: ${running.length} processes before, none after`;
    },
  ],
  [
    'in a terminal Ctrl-C, which raw mode turns into a byte rather than a signal, still stops everything as SIGINT does',
    async ({ started }) => {
      const start = startProcess(['--no-build'], {}, started, { terminal: true });
      await start.waitFor(URL_LINE, 120_000);
      await start.waitFor(`\n${KEYS_HINT}\n`, 10_000);
      return stopAndCheck(start, 'SIGINT', () => start.child.stdin.write('\x03'));
    },
  ],
  [
    '--desktop with a `code` on PATH: runs it with the desktop arguments and the capability file in its settings, and stops when it exits',
    async ({ scratch, started }) => {
      const bin = join(scratch, 'bin');
      const report = join(scratch, 'fake-code.json');
      mkdirSync(bin);
      writeFileSync(join(bin, 'code'), fakeCode(report));
      chmodSync(join(bin, 'code'), 0o755);
      const start = startProcess(['--desktop', '--no-build'], { PATH: `${bin}:${dirname(process.execPath)}` }, started);
      const { code } = await start.exited;
      assert.equal(code, 0, `exit ${code}: ${start.stderr()}`);
      assert.match(start.stdout(), /^VS Code closed; stopping the demo app\.$/m);
      const seen = JSON.parse(readFileSync(report, 'utf8'));
      const runDir = temporaryFolder(start.stdout());
      assert.deepEqual(
        seen.args,
        desktopArgs({ repoRoot, userDataDir: join(runDir, 'user-data'), extensionsDir: join(runDir, 'extensions') }),
      );
      assert.equal(
        seen.capabilityFile,
        join(runDir, 'home', 'Library', 'Containers', 'com.mattes.clessira', 'Data', 'api-endpoint.json'),
      );
      assert.deepEqual(seen.capability, { version: 1, socket: true, token: true, pidRunning: true });
      assert.equal(existsSync(runDir), false, `${runDir} is removed`);
      assert.deepEqual(processesOf(start.marker), []);
    },
  ],
];

/**
 * Sends `signal` to start.mjs (or does `send`, which should end it as that signal does) and checks
 * what it leaves: no process of its own, no temporary folder (the socket and the capability file
 * are in it), the port closed.
 */
async function stopAndCheck(start, signal, send = () => start.child.kill(signal)) {
  const runDir = temporaryFolder(start.stdout());
  const port = /^ {2}http:\/\/127\.0\.0\.1:(\d+)\//m.exec(start.stdout())?.[1];
  const running = processesOf(start.marker);
  assert.ok(
    running.length >= 3,
    `start.mjs (the demo app runs in it) and code-server run before the ${signal} (found ${running.length})`,
  );
  send();
  const { code, signal: killedBy } = await start.exited;
  assert.equal(code, signal === 'SIGINT' ? 130 : 143, `exit ${code ?? killedBy}; stderr: ${start.stderr()}`);
  const left = processesOf(start.marker);
  assert.deepEqual(left, [], `processes left after ${signal}: ${left.join(', ')}`);
  assert.equal(existsSync(runDir), false, `${runDir} (socket, capability file, profile) is removed`);
  await assert.rejects(
    fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) }),
    Error,
    `port ${port} still answers`,
  );
  return `${running.length} processes before, none after; ${runDir} removed; port ${port} closed`;
}

/**
 * What a failed check left running gets the Ctrl-C a user would give, so that start.mjs tears
 * down what it started; whatever still carries the marker after 10 s is killed.
 */
async function stopLeftover(start) {
  start.child.kill('SIGINT');
  let limit;
  await Promise.race([start.exited, new Promise((resolve) => (limit = setTimeout(resolve, 10_000)))]);
  clearTimeout(limit);
  for (const pid of processesOf(start.marker)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Exited meanwhile.
    }
  }
}

/** The capability file the demo app announced: valid, its socket there, its pid running. The token is never shown. */
function checkAnnouncement(stdout) {
  const path = /announced in (\S+)$/m.exec(stdout)?.[1];
  assert.ok(path !== undefined, 'start.mjs names the capability file');
  assert.equal(
    path,
    join(temporaryFolder(stdout), 'home', 'Library', 'Containers', 'com.mattes.clessira', 'Data', 'api-endpoint.json'),
  );
  const capability = JSON.parse(readFileSync(path, 'utf8'));
  assert.equal(capability.version, 1);
  assert.ok(statSync(capability.socketPath).isSocket(), 'the socket is there');
  assert.equal(typeof capability.token === 'string' && capability.token.length > 0, true, 'a token');
  process.kill(capability.pid, 0);
}

/**
 * The status bar item's text once it names the running activity, reached as a user would: the
 * printed URL shows code-server's login page, the printed password goes in, Enter leads back to
 * the printed URL.
 */
function statusBarText(url, password, context) {
  return withWorkbench(url, password, context, (page) =>
    statusMatching(page, new RegExp(`^${RUNNING}.*today`), 90_000),
  );
}

/**
 * Opens the printed URL in chromium, logs in with the printed password, and runs `work(page)`
 * on the workbench; the browser is kept in `context` while open.
 */
async function withWorkbench(url, password, context, work) {
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  context.browser = browser;
  try {
    const page = await browser.newPage();
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    // The login page is the server's HTML, there as soon as the document is.
    const field = await page.$('form.login-form input[name="password"]');
    if (field === null) throw new Error(`the printed URL opened ${page.url()} without asking for a password`);
    assert.equal(await page.textContent('h1'), LOGIN_HEADING, 'the login page says where the password is');
    assert.ok(password !== undefined, 'npm start printed no password next to the URL');
    await field.fill(password);
    await Promise.all([
      page.waitForURL((at) => !at.pathname.endsWith('/login'), { waitUntil: 'domcontentloaded', timeout: 30_000 }),
      field.press('Enter'),
    ]);
    const landed = new URL(page.url());
    const printed = new URL(url);
    for (const name of ['folder', 'payload'])
      assert.equal(
        landed.searchParams.get(name),
        printed.searchParams.get(name),
        `after the login the browser is at ${landed.href}, not at the printed URL`,
      );
    return await work(page);
  } finally {
    context.browser = undefined;
    await browser.close();
  }
}

/** The extension's status bar item's text once it matches `pattern`; after `ms`, an error naming every item. */
async function statusMatching(page, pattern, ms) {
  const handle = await page
    .waitForFunction(
      ({ prefix, source, flags }) => {
        const item = [...document.querySelectorAll('.statusbar-item')].find((element) => element.id.startsWith(prefix));
        const text = item?.textContent?.replace(/\s+/g, ' ').trim() ?? '';
        return new RegExp(source, flags).test(text) ? text : false;
      },
      { prefix: STATUS_ITEM, source: pattern.source, flags: pattern.flags },
      { timeout: ms, polling: 200 },
    )
    .catch(() => undefined);
  if (handle !== undefined) return await handle.jsonValue();
  const items = await page.evaluate(() =>
    [...document.querySelectorAll('.statusbar-item')].map((element) => `${element.id}: ${element.textContent?.trim()}`),
  );
  throw new Error(`the status bar never showed ${pattern} within ${ms / 1000} s; its items: ${JSON.stringify(items)}`);
}

/** The extension's status bar item's tooltip once it matches `pattern`, hovered as a user would. */
async function hoverMatching(page, pattern, ms) {
  await page.hover(`[id^="${STATUS_ITEM}"]`);
  const handle = await page
    .waitForFunction(
      ({ source, flags }) => {
        const text = [...document.querySelectorAll('.monaco-hover, .workbench-hover')]
          .map((element) => element.textContent?.replace(/\s+/g, ' ').trim() ?? '')
          .find((shown) => new RegExp(source, flags).test(shown));
        return text ?? false;
      },
      { source: pattern.source, flags: pattern.flags },
      { timeout: ms, polling: 200 },
    )
    .catch(() => undefined);
  if (handle === undefined)
    throw new Error(`the status bar item's tooltip never showed ${pattern} within ${ms / 1000} s`);
  return await handle.jsonValue();
}

/** The URL start.mjs printed, and its port. */
function printedUrl(start) {
  const printed = URL_LINE.exec(start.stdout())?.[1];
  assert.ok(printed !== undefined, `start.mjs printed no URL:\n${start.stdout()}`);
  const url = new URL(printed);
  return { url, port: Number(url.port) };
}

function passwordOf(stdout) {
  const password = PASSWORD_LINE.exec(stdout)?.[1];
  assert.ok(password !== undefined, `start.mjs printed no password next to the URL:\n${stdout}`);
  return password;
}

/**
 * One request to 127.0.0.1:`port` as it is written, `Host` included (fetch would not send a
 * made-up one): `{ status, headers, body, upgraded }`. A websocket upgrade that succeeds is
 * closed at once.
 */
function probe(port, { path, method = 'GET', headers = {}, body }) {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: '127.0.0.1', port, path, method, headers, timeout: 10_000 }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode, headers: response.headers, body: text, upgraded: false }),
      );
    });
    request.on('upgrade', (response, socket) => {
      socket.destroy();
      resolve({ status: response.statusCode, headers: response.headers, body: '', upgraded: true });
    });
    request.on('timeout', () => request.destroy(new Error(`${method} ${path}: no answer within 10 s`)));
    request.on('error', reject);
    request.end(body);
  });
}

/** The commit in the paths of the workbench's files (code-server's VS Code). */
function vscodeCommit() {
  return JSON.parse(readFileSync(join(codeServerPaths().vscode, 'product.json'), 'utf8')).commit;
}

function readProc(pid, name) {
  try {
    return readFileSync(`/proc/${pid}/${name}`, 'latin1');
  } catch {
    // Exited meanwhile.
    return '';
  }
}

/** Every regular file under `dir`. */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((path) => {
      try {
        return lstatSync(path).isFile();
      } catch {
        return false;
      }
    });
}

/**
 * `node scripts/start.mjs`, marked so that every process it starts can be found. With `terminal`
 * it runs in a pseudo-terminal (util-linux's `script`, in every Debian) as in a user's terminal,
 * so that its keys are read: what is written to `child.stdin` is typed there, and stdout holds
 * both of its streams with plain line ends. `waitFor` takes a pattern or a text, and where in
 * stdout to look from.
 */
function startProcess(args, env, started, { terminal = false } = {}) {
  const marker = randomUUID();
  const command = [process.execPath, startScript, ...args];
  const [file, argv] = terminal
    ? ['script', ['--quiet', '--flush', '--return', '--command', command.map(shellQuote).join(' '), '/dev/null']]
    : [command[0], command.slice(1)];
  const child = spawn(file, argv, {
    cwd: repoRoot,
    env: { ...process.env, ...env, TT_START_CHECK_ID: marker },
    stdio: [terminal ? 'pipe' : 'ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const listeners = new Set();
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    out += terminal ? chunk.replace(/\r\n/g, '\n') : chunk;
    for (const listener of listeners) listener();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk) => (err += chunk));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const start = {
    child,
    marker,
    exited,
    stdout: () => out,
    stderr: () => err,
    waitFor: (pattern, ms, from = 0) =>
      new Promise((resolve, reject) => {
        const limit = setTimeout(
          () =>
            finish(() =>
              reject(
                new Error(
                  `start.mjs did not print ${JSON.stringify(String(pattern))} within ${ms / 1000} s:\n${out}${err}`,
                ),
              ),
            ),
          ms,
        );
        const finish = (settle) => {
          clearTimeout(limit);
          listeners.delete(check);
          settle();
        };
        const check = () => {
          const match =
            typeof pattern === 'string'
              ? out.includes(pattern, from)
                ? [pattern]
                : null
              : pattern.exec(out.slice(from));
          if (match) finish(() => resolve(match));
        };
        void exited.then(({ code, signal }) =>
          finish(() =>
            reject(
              new Error(
                `start.mjs exited (${code ?? signal}) before it printed ${JSON.stringify(String(pattern))}:\n${out}${err}`,
              ),
            ),
          ),
        );
        listeners.add(check);
        check();
      }),
  };
  started.add(start);
  void exited.then(() => started.delete(start));
  return start;
}

function shellQuote(word) {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function temporaryFolder(stdout) {
  const dir = /and removes (\/\S+)\.$/m.exec(stdout)?.[1];
  assert.ok(dir !== undefined, `start.mjs names its temporary folder:\n${stdout}`);
  return dir;
}

/** Pids of the processes whose environment carries the marker (this process excluded). */
function processesOf(marker) {
  const needle = `TT_START_CHECK_ID=${marker}`;
  const pids = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${name}/environ`, 'latin1');
      if (environ.split('\0').includes(needle)) pids.push(Number(name));
    } catch {
      // Exited meanwhile.
    }
  }
  return pids;
}

/**
 * A stand-in for a desktop `code`: a Node script that records its arguments, the capability file
 * its settings name, and whether that file announces a running app on a socket (never the token),
 * then exits 0 as `code --wait` does once its window is closed.
 */
function fakeCode(report) {
  return `#!${process.execPath}
const { readFileSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const args = process.argv.slice(2);
const settings = JSON.parse(readFileSync(join(args[args.indexOf('--user-data-dir') + 1], 'User', 'settings.json'), 'utf8'));
const capabilityFile = settings['timeTracker.capabilityFile'];
const file = JSON.parse(readFileSync(capabilityFile, 'utf8'));
let pidRunning = true;
try { process.kill(file.pid, 0); } catch { pidRunning = false; }
const capability = { version: file.version, socket: statSync(file.socketPath).isSocket(), token: typeof file.token === 'string' && file.token !== '', pidRunning };
writeFileSync(${JSON.stringify(report)}, JSON.stringify({ args, capabilityFile, capability }));
`;
}

function seconds(since) {
  return ((Date.now() - since) / 1000).toFixed(1);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const build = !process.argv.includes('--no-build');
  const began = Date.now();
  console.log(`start check (npm start${build ? '' : ' -- --no-build'}, then the URL in chromium)`);
  const result = await checkStart({ build });
  console.log(`\nstart check took ${seconds(began)} s`);
  console.log(`start-check: ${result.passed} passed, ${result.failed} failed`);
  if (process.exitCode === undefined || process.exitCode === 0)
    process.exitCode = result.failed === 0 && result.passed > 0 ? 0 : 1;
}
