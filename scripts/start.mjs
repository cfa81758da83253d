// `npm start`: the product, seen in one command. Builds the bundles, starts the reference server
// with demo data (`--demo`) as the app's VS Code integration does (a Unix socket and the capability
// file, in a temporary home), then VS Code with this repository open and the extension loaded from
// this checkout, connected with no token typed:
//   - by default code-server, the offline VS Code host the extension tests install, on 127.0.0.1
//     with HOME pointing at the temporary home, so the extension finds the file where it looks for
//     the app's; it prints one URL to open in a browser and a new random password, without which
//     code-server shows only its login page: a VS Code in a browser is a terminal as the user, and
//     127.0.0.1 keeps out neither other local users nor a DNS-rebinding web page;
//   - with --desktop a local `code` with its own temporary profile, whose settings name the file
//     (a desktop VS Code keeps the user's HOME). It has no server, so no password.
// Ctrl-C (or SIGTERM, SIGHUP) stops everything it started and removes the temporary folder: the
// teardown is the host tests' HostRun (test/extension/host/common.mjs). Decisions that need no I/O
// live in ./start/plan.mjs; test/start/check.mjs proves the whole route in a real browser.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build, HostRun, repoRoot } from '../test/extension/host/common.mjs';
import { ensureCodeServer, isInstalled, missingPrerequisites } from '../test/extension/host/install.mjs';
import { CAPABILITY_FILE_IN_HOME, codeServerLogin, codeServerReady, desktopArgs, findOnPath, NO_DESKTOP_CODE, parseStartArgs, USAGE, workbenchUrl } from './start/plan.mjs';

const started = Date.now();
const parsed = parseStartArgs(process.argv.slice(2));
if (parsed.kind === 'help') {
  console.log(USAGE);
  process.exit(0);
}
if (parsed.kind === 'error') {
  console.error(parsed.message);
  process.exit(2);
}
const { options } = parsed;

// Everything that can be refused is refused before anything is built or started.
const code = options.desktop ? findOnPath('code', process.env.PATH, isFile) : undefined;
if (options.desktop && code === undefined) fail(NO_DESKTOP_CODE);
if (!options.desktop) {
  const problems = missingPrerequisites({ build: !isInstalled() });
  if (problems.length > 0) fail(`npm start needs code-server, which cannot be installed here yet:\n  ${problems.join('\n  ')}`);
}

try {
  if (options.build) build('build (esbuild)', process.execPath, ['esbuild.mjs']);
} catch {
  fail('The build failed (see above); nothing was started.');
}
for (const file of ['extension.js', 'server.js']) {
  if (!existsSync(join(repoRoot, 'dist', file))) fail(`dist/${file} is missing: run \`npm run build\` (or leave out --no-build).`);
}
const entry = options.desktop ? undefined : ensureCodeServer().entry;

const run = new HostRun({ name: 'npm start', tempPrefix: 'tt-start-', verbose: options.verbose });
// HostRun stops everything on the first signal. A second Ctrl-C, as an impatient user gives, would
// otherwise end this process halfway through and leave code-server running: it is ignored instead.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});
try {
  const { runDir, dirs, isolation, configFile } = run.makeDirs(['home', 'app']);
  const capabilityFile = join(dirs.home, ...CAPABILITY_FILE_IN_HOME);
  mkdirSync(dirname(capabilityFile), { recursive: true });
  const socket = join(dirs.app, 'api.sock');

  // The token is the server's and the capability file's alone: never on a command line or the screen.
  const app = run.spawnOwned('demo app', process.execPath, [join(repoRoot, 'dist', 'server.js'), '--demo', '--answers', 'minimal', '--socket', socket, '--capability-file', capabilityFile], {
    cwd: repoRoot,
    env: { SERVICE_TOKEN: randomBytes(24).toString('base64url') },
  });
  try {
    await app.waitFor(/^listening on unix:/m, 15_000);
  } catch (error) {
    app.show();
    throw error;
  }
  console.log(`> demo app: the reference server with demo data, announced in ${capabilityFile}`);

  let window;
  if (options.desktop) {
    run.writeUserSettings(dirs, { 'timeTracker.capabilityFile': capabilityFile });
    const args = desktopArgs({ repoRoot, userDataDir: dirs['user-data'], extensionsDir: dirs.extensions });
    window = run.spawnOwned('code', code, args, { cwd: repoRoot, env: {} });
    console.log(
      `\nVS Code opens with this repository and the extension connected to the demo app (${seconds()} s).\nClosing its window or Ctrl-C stops VS Code and the demo app, and removes ${runDir}.`,
    );
  } else {
    run.writeUserSettings(dirs);
    // Hex: a double click selects all of it. Kept in this process's memory and printed once.
    const password = randomBytes(16).toString('hex');
    const codeServer = await run.startCodeServer(entry, {
      dirs,
      configFile,
      cwd: repoRoot,
      env: { ...isolation, HOME: dirs.home },
      auth: codeServerLogin(password),
      until: Date.now() + 60_000,
    });
    window = codeServer;
    const url = workbenchUrl(codeServer.authority, { folder: repoRoot, extensionPath: repoRoot });
    console.log(codeServerReady({ url, password, seconds: seconds(), runDir }));
  }

  // Runs until a signal (HostRun cleans up and exits) or until one of the two ends by itself.
  const ended = await Promise.race([
    window.exited.then((exit) => ({ who: options.desktop ? 'VS Code' : 'code-server', exit })),
    app.exited.then((exit) => ({ who: 'the demo app', exit })),
  ]);
  if (run.interrupted) {
    // The signal handler is already tearing down and exits when done.
  } else if (options.desktop && ended.who === 'VS Code' && ended.exit.code === 0) {
    console.log('VS Code closed; stopping the demo app.');
  } else {
    console.error(`${ended.who} stopped by itself (${ended.exit.code ?? ended.exit.signal}); stopping the rest.`);
    (ended.who === 'the demo app' ? app : window).show();
    process.exitCode = 1;
  }
} catch (error) {
  if (!run.interrupted) console.error(`npm start could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await run.cleanup();
}

function seconds() {
  return ((Date.now() - started) / 1000).toFixed(1);
}

function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function fail(message) {
  console.error(message);
  process.exit(1);
}
