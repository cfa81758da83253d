// `npm start`: the product, seen in one command. Builds the bundles, starts the reference server
// with demo data in this process (./start/demoApp.mjs) as the app's VS Code integration runs (a
// Unix socket and the capability file, in a temporary home), then VS Code with this repository
// open and the extension loaded from this checkout, connected with no token typed:
//   - by default code-server, the offline VS Code host the extension tests install, on 127.0.0.1
//     with HOME pointing at the temporary home, so the extension finds the file where it looks for
//     the app's; it prints one URL to open in a browser and a new random password, without which
//     code-server shows only its login page: a VS Code in a browser is a terminal as the user, and
//     127.0.0.1 keeps out neither other local users nor a DNS-rebinding web page;
//   - with --desktop a local `code` with its own temporary profile, whose settings name the file
//     (a desktop VS Code keeps the user's HOME). It has no server, so no password.
// In a terminal, keys (./start/keys.mjs) take the demo app offline and back, lock its license,
// start a break and replace its token while VS Code keeps running, so every state of the status
// bar can be seen, not only the happy one. Without a terminal (CI) there are no keys.
// --lang de shows the extension in German the way the German host suite does (HostRun's
// useDisplayLanguage): no language pack can be downloaded offline, so VS Code's own menus stay English.
// --restricted opens a sample repository instead (./start/sampleRepository.mjs), whose settings hold
// links, in Restricted Mode, as a stranger's clone opens: what the extension says of links it does not read.
// q, Ctrl-C (or SIGTERM, SIGHUP) stop everything it started and remove the temporary folder: the
// teardown is the host tests' HostRun (test/extension/host/common.mjs). Decisions that need no I/O
// live in ./start/plan.mjs and ./start/keys.mjs; test/start/check.mjs proves the whole route in a
// real browser, the keys through a pseudo-terminal.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build, HostRun, repoRoot } from '../test/extension/host/common.mjs';
import { ensureCodeServer, isInstalled, missingPrerequisites } from '../test/extension/host/install.mjs';
import { startDemoApp } from './start/demoApp.mjs';
import { prepareSampleRepository } from './start/sampleRepository.mjs';
import { helpText, KEYS_HINT, keysOf, pressedLine, QUIT_LINE, unknownKeyLine } from './start/keys.mjs';
import {
  CAPABILITY_FILE_IN_HOME,
  codeServerReady,
  desktopArgs,
  findOnPath,
  LOGIN_HEADING,
  NO_DESKTOP_CODE,
  parseStartArgs,
  RESTRICTED_SETTINGS,
  startLanguages,
  USAGE,
  workbenchUrl,
} from './start/plan.mjs';

const started = Date.now();
const languages = startLanguages({ root: readdirSync(repoRoot), l10n: readdirSync(join(repoRoot, 'l10n')) });
const parsed = parseStartArgs(process.argv.slice(2), languages);
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
  if (problems.length > 0)
    fail(`npm start needs code-server, which cannot be installed here yet:\n  ${problems.join('\n  ')}`);
}

try {
  if (options.build) build('build (esbuild)', process.execPath, ['esbuild.mjs']);
} catch {
  fail('The build failed (see above); nothing was started.');
}
if (!existsSync(join(repoRoot, 'dist', 'extension.js')))
  fail('dist/extension.js is missing: run `npm run build` (or leave out --no-build).');
const entry = options.desktop ? undefined : ensureCodeServer().entry;

const run = new HostRun({ name: 'npm start', tempPrefix: 'tt-start-', verbose: options.verbose });
let demoApp;
/** Stops reading keys; resolves once what a key started is done. */
let stopKeys = () => Promise.resolve();
// HostRun stops everything on the first signal. A second Ctrl-C, as an impatient user gives, would
// otherwise end this process halfway through and leave code-server running: it is ignored instead.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});
try {
  const { runDir, dirs, isolation, configFile } = run.makeDirs(['home', 'app', 'sample']);
  const folder = options.restricted ? prepareSampleRepository(dirs.sample) : repoRoot;
  const trust = options.restricted ? RESTRICTED_SETTINGS : {};
  if (options.restricted)
    console.log(`> restricted: ${folder} opens untrusted (Restricted Mode); its .vscode/settings.json holds 2 links`);
  const capabilityFile = join(dirs.home, ...CAPABILITY_FILE_IN_HOME);
  mkdirSync(dirname(capabilityFile), { recursive: true });
  const socket = join(dirs.app, 'api.sock');
  if (options.lang !== 'en') {
    run.useDisplayLanguage({ dirs, configFile }, options.lang);
    console.log(
      `> display language ${options.lang}: the extension speaks it; VS Code's own menus stay English (no language pack offline)`,
    );
  }

  const app = await startDemoApp({
    repoRoot,
    runDir,
    socket,
    capabilityFile,
    ...(options.verbose ? { onRequest: (line) => console.log(`[demo app] ${line}`) } : {}),
  });
  demoApp = app;
  console.log(`> demo app: the reference server with demo data, announced in ${capabilityFile}`);

  let window;
  if (options.desktop) {
    run.writeUserSettings(dirs, { 'timeTracker.capabilityFile': capabilityFile, ...trust });
    const args = desktopArgs({
      repoRoot,
      userDataDir: dirs['user-data'],
      extensionsDir: dirs.extensions,
      locale: options.lang,
      folder,
      restricted: options.restricted,
    });
    window = run.spawnOwned('code', code, args, { cwd: repoRoot, env: {} });
    console.log(
      `\nVS Code opens with this repository and the extension connected to the demo app (${seconds()} s).\nClosing its window or Ctrl-C stops VS Code and the demo app, and removes ${runDir}.`,
    );
  } else {
    run.writeUserSettings(dirs, trust);
    // Hex: a double click selects all of it. Kept in this process's memory and printed once.
    const password = randomBytes(16).toString('hex');
    const codeServer = await run.startCodeServer(entry, {
      dirs,
      configFile,
      cwd: repoRoot,
      env: { ...isolation, HOME: dirs.home },
      password,
      welcomeText: LOGIN_HEADING,
      workspaceTrust: options.restricted,
      until: Date.now() + 60_000,
    });
    window = codeServer;
    const url = workbenchUrl(codeServer.authority, { folder, extensionPath: repoRoot });
    console.log(codeServerReady({ url, password, seconds: seconds(), runDir }));
  }

  let quit;
  const quitPressed = new Promise((resolve) => (quit = resolve));
  stopKeys = listenForKeys(app, quit);

  // Runs until q, a signal (HostRun cleans up and exits) or until VS Code ends by itself.
  const ended = await Promise.race([
    window.exited.then((exit) => ({ who: options.desktop ? 'VS Code' : 'code-server', exit })),
    quitPressed.then(() => ({ who: 'q' })),
  ]);
  if (run.interrupted || ended.who === 'q') {
    // The signal handler is already tearing down and exits when done; q tears down below.
  } else if (options.desktop && ended.exit.code === 0) {
    console.log('VS Code closed; stopping the demo app.');
  } else {
    console.error(`${ended.who} stopped by itself (${ended.exit.code ?? ended.exit.signal}); stopping the rest.`);
    window.show();
    process.exitCode = 1;
  }
} catch (error) {
  if (!run.interrupted)
    console.error(`npm start could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await stopKeys();
  await demoApp
    ?.close()
    .catch((error) =>
      console.error(`The demo app did not stop cleanly: ${error instanceof Error ? error.message : String(error)}`),
    );
  await run.cleanup();
}

/**
 * Reads keys from a terminal in raw mode (one byte a key, no Enter) and prints what each did;
 * returns what stops reading, which resolves once the last change is done. Without a terminal
 * (CI, a pipe) nothing is read and nothing is said. The demo app's changes run one after the
 * other, in the order pressed.
 */
function listenForKeys(app, quit) {
  const input = process.stdin;
  if (!input.isTTY) return () => Promise.resolve();
  let turn = Promise.resolve();
  const act = (key) => {
    if (key === 'o') return app.toggleOnline();
    if (key === 'l') return app.toggleLicense();
    if (key === 'b') return app.toggleBreak();
    return app.toggleToken();
  };
  const onKey = (key) => {
    if (typeof key === 'object') console.log(unknownKeyLine(key.unknown));
    else if (key === 'h') console.log(helpText());
    else if (key === 'q') {
      console.log(QUIT_LINE);
      quit();
    } else if (key === 'ctrl-c') {
      // Raw mode delivers Ctrl-C as a byte: it ends the run as the signal would.
      process.kill(process.pid, 'SIGINT');
    } else {
      turn = turn.then(async () => {
        try {
          console.log(pressedLine(key, await act(key)));
        } catch (error) {
          console.log(
            `${key}  The demo app could not do it: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      });
    }
  };
  const onData = (chunk) => {
    for (const key of keysOf(chunk)) onKey(key);
  };
  try {
    input.setRawMode(true);
  } catch (error) {
    // A terminal that refuses raw mode: npm start runs on, as without a terminal, and says why.
    console.log(`No keys: the terminal refused raw mode (${error instanceof Error ? error.message : String(error)}).`);
    return () => Promise.resolve();
  }
  input.setEncoding('utf8');
  input.on('data', onData);
  input.resume();
  console.log(KEYS_HINT);
  return () => {
    input.off('data', onData);
    input.setRawMode(false);
    input.pause();
    input.unref();
    return turn;
  };
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
