// Installs code-server (a VS Code build that comes from the npm registry) into .test-cache/, for the
// extension tests. It stays out of package.json so a plain `npm install` remains light, and the
// cache is reused: when the marker file is there, this does nothing.
//
// code-server's own install scripts fail without internet (ripgrep and prebuilt binaries come
// from GitHub) and as root (its postinstall refuses without npm's old unsafe-perm), so the scripts
// are skipped and their work is done here step by step.
//
// Usage: `node test/extension/host/install.mjs` (also called before every host suite of `npm test`).
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  openSync,
  closeSync,
  readFileSync,
  renameSync,
} from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.100.3';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const cacheRoot = join(repoRoot, '.test-cache');
export const installDir = join(cacheRoot, `code-server-${CODE_SERVER_VERSION}`);
const markerName = '.installed.json';

/** code-server's files inside a cache folder. */
export function codeServerPaths(base = installDir) {
  const pkg = join(base, 'node_modules', 'code-server');
  return { pkg, entry: join(pkg, 'out', 'node', 'entry.js'), vscode: join(pkg, 'lib', 'vscode') };
}

/** Native modules of VS Code's server; the Windows-only ones are left out on purpose. */
const vscodeNativeModules = [
  '@parcel/watcher',
  '@vscode/deviceid',
  '@vscode/spdlog',
  'kerberos',
  'native-watchdog',
  'node-pty',
];

function onPath(command) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir !== '' && existsSync(join(dir, command)));
}

/**
 * Sentences naming what is missing and the Debian package that provides it, so a fresh machine
 * fails with the fix rather than a node-gyp stack trace.
 */
export function missingPrerequisites({ browser = undefined, build = true } = {}) {
  const problems = [];
  const major = Number(process.versions.node.split('.')[0]);
  if (major !== 20) {
    problems.push(
      `code-server ${CODE_SERVER_VERSION} runs only on Node 20 (this is Node ${process.versions.node}); newer code-server releases need Node 22 or 24.`,
    );
  }
  const tools = [
    ['rg', 'ripgrep', 'VS Code needs ripgrep and cannot download it offline'],
    ['krb5-config', 'libkrb5-dev', 'the kerberos module is compiled from source'],
    ['python3', 'python3', 'node-gyp needs it to compile native modules'],
    ['make', 'make', 'node-gyp needs it to compile native modules'],
    ['g++', 'g++', 'node-gyp needs it to compile native modules'],
  ];
  for (const [command, aptPackage, why] of build ? tools : []) {
    if (!onPath(command))
      problems.push(`\`${command}\` is missing (${why}): run \`apt-get install -y ${aptPackage}\`.`);
  }
  if (browser !== undefined && !existsSync(browser)) {
    problems.push(`No browser at ${browser}: run \`apt-get install -y chromium\` (or set TT_CHROMIUM_PATH).`);
  }
  return problems;
}

export function isInstalled() {
  const marker = join(installDir, markerName);
  if (!existsSync(marker)) return false;
  try {
    return JSON.parse(readFileSync(marker, 'utf8')).version === CODE_SERVER_VERSION;
  } catch {
    return false;
  }
}

/**
 * Makes sure code-server is installed and returns its paths. Builds in a staging folder and
 * renames it into place at the end, so an interrupted install never looks complete and two runs
 * at once cannot mix their files.
 */
export function ensureCodeServer({ log = (line) => console.log(line) } = {}) {
  if (isInstalled()) return codeServerPaths();

  const problems = missingPrerequisites();
  if (problems.length > 0)
    throw new Error(`Cannot install code-server for the extension tests:\n  ${problems.join('\n  ')}`);

  mkdirSync(cacheRoot, { recursive: true });
  removeAbandonedStagingFolders();
  // A cache folder without the marker is a leftover of an older or broken install.
  rmSync(installDir, { recursive: true, force: true });

  const staging = `${installDir}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(join(staging, 'tmp'), { recursive: true });
  const logFile = join(staging, 'install.log');
  const started = Date.now();
  log(`Installing code-server ${CODE_SERVER_VERSION} into ${installDir} (once; about 1-2 minutes)...`);

  try {
    installInto(staging, logFile, log);
    writeFileSync(
      join(staging, markerName),
      `${JSON.stringify({ version: CODE_SERVER_VERSION, node: process.version, installedAt: new Date().toISOString() }, null, 2)}\n`,
    );
    try {
      renameSync(staging, installDir);
    } catch (error) {
      // Another run finished first; its copy is as good as ours.
      if (!isInstalled()) throw error;
      rmSync(staging, { recursive: true, force: true });
    }
  } catch (error) {
    const tail = existsSync(logFile) ? readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n') : '';
    rmSync(staging, { recursive: true, force: true });
    throw new Error(
      `Installing code-server failed: ${error instanceof Error ? error.message : String(error)}\n--- last lines of the install log ---\n${tail}`,
    );
  }
  log(`code-server installed in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  return codeServerPaths();
}

function installInto(staging, logFile, log) {
  const { pkg, vscode, entry } = codeServerPaths(staging);
  const nodePrefix = dirname(dirname(process.execPath));
  const env = {
    ...process.env,
    // Keeps npm's and node-gyp's temporary files inside the staging folder.
    TMPDIR: join(staging, 'tmp'),
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    // node-pty's script runs `npx node-gyp`, which otherwise stops at npx's install prompt.
    npm_config_yes: 'true',
    // node-gyp would download Node's headers from nodejs.org; the installed Node ships them.
    ...(process.env.npm_config_nodedir === undefined && existsSync(join(nodePrefix, 'include', 'node', 'common.gypi'))
      ? { npm_config_nodedir: nodePrefix }
      : {}),
    JOBS: 'max',
  };
  const fd = openSync(logFile, 'a');
  const run = (title, args, cwd) => {
    log(`  ${title}`);
    writeFileSync(fd, `\n$ (cd ${cwd} && npm ${args.join(' ')})\n`);
    const result = spawnSync('npm', args, { cwd, env, stdio: ['ignore', fd, fd] });
    if (result.error) throw result.error;
    if (result.status !== 0)
      throw new Error(`\`npm ${args.join(' ')}\` in ${cwd} exited with ${result.status ?? result.signal}`);
  };
  try {
    writeFileSync(
      join(staging, 'package.json'),
      `${JSON.stringify({ name: 'tt-code-server-cache', private: true, dependencies: { 'code-server': CODE_SERVER_VERSION } }, null, 2)}\n`,
    );
    run('code-server package (scripts skipped)', ['install', '--ignore-scripts', '--no-save'], staging);
    run("VS Code server's dependencies", ['install', '--omit=dev', '--ignore-scripts'], vscode);
    run('native modules (node-gyp)', ['rebuild', '--foreground-scripts', ...vscodeNativeModules], vscode);

    // What code-server's postinstall.sh does after its `npm install`.
    symlinkSync('node_modules', join(vscode, 'node_modules.asar'));
    symlinkSync('code-linux.sh', join(vscode, 'bin', 'remote-cli', 'code-server'));
    symlinkSync('browser-linux.sh', join(vscode, 'bin', 'helpers', 'browser.sh'));

    // @vscode/ripgrep's postinstall downloads from GitHub; Debian's binary does the same job.
    const rgDir = join(vscode, 'node_modules', '@vscode', 'ripgrep', 'bin');
    mkdirSync(rgDir, { recursive: true });
    copyFileSync(whichOrThrow('rg'), join(rgDir, 'rg'));

    const extensions = join(vscode, 'extensions');
    run("built-in extensions' dependencies", ['install', '--omit=dev', '--ignore-scripts'], extensions);
    // Its own postinstall only trims the bundled TypeScript; run it for the same layout.
    run('built-in extensions postinstall', ['run', 'postinstall'], extensions);
    run(
      'argon2 (password hashing, loaded even with --auth none)',
      ['rebuild', '--foreground-scripts', 'argon2'],
      staging,
    );

    log('  smoke test');
    const config = join(staging, 'tmp', 'config.yaml');
    writeFileSync(config, '');
    const xdg = join(staging, 'tmp');
    const version = spawnSync(process.execPath, [entry, '--config', config, '--version'], {
      env: { ...env, XDG_CONFIG_HOME: xdg, XDG_DATA_HOME: xdg, XDG_CACHE_HOME: xdg },
      encoding: 'utf8',
    });
    if (version.status !== 0 || !version.stdout.includes(CODE_SERVER_VERSION)) {
      throw new Error(`code-server --version failed: ${version.stdout}${version.stderr}`);
    }
    // A native module that built wrong only fails once VS Code loads it; find out now instead.
    const load = spawnSync(
      process.execPath,
      [
        '-e',
        `for (const m of ${JSON.stringify(vscodeNativeModules)}) require(m); require(require.resolve('argon2', { paths: [${JSON.stringify(pkg)}] }));`,
      ],
      {
        cwd: vscode,
        encoding: 'utf8',
      },
    );
    if (load.status !== 0) throw new Error(`a native module does not load: ${load.stderr}`);
  } finally {
    closeSync(fd);
  }
  rmSync(join(staging, 'tmp'), { recursive: true, force: true });
}

function whichOrThrow(command) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir !== '' && existsSync(join(dir, command))) return join(dir, command);
  }
  throw new Error(`\`${command}\` not found on PATH`);
}

/** Staging folders of runs that were killed mid-install (their process is gone). */
function removeAbandonedStagingFolders() {
  const prefix = `code-server-${CODE_SERVER_VERSION}.partial-`;
  for (const name of readdirSync(cacheRoot)) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (Number.isInteger(pid) && pid !== process.pid && processExists(pid)) continue;
    rmSync(join(cacheRoot, name), { recursive: true, force: true });
  }
}

function processExists(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    if (isInstalled()) console.log(`code-server ${CODE_SERVER_VERSION} is already installed in ${installDir}.`);
    else ensureCodeServer();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  }
}
