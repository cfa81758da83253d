// `npm run test:extension`: runs out/test/extension/suite/ inside a real VS Code extension host,
// offline. @vscode/test-electron cannot download VS Code here, so the host is code-server (VS
// Code's server from the npm registry, installed by ./install.mjs) and the workbench is opened in
// Debian's chromium, driven by playwright-core. The extension runs in the remote (workspace)
// extension host with the real `vscode` API.
//
// The verdict is the result file the in-host runner writes (TT_EXTENSION_RESULT_FILE); the
// browser's `codeAutomationExit` only says that the suite has settled. The last line is
// `extension-tests: N passed, N failed`; the exit code is 0 only with failures 0 and passes > 0.
//
// Options (flag or environment variable):
//   --no-build                     skip esbuild and tsc (test/run.mjs has just run them)
//   --workspace <dir>              TT_EXTENSION_WORKSPACE: open this folder instead of an empty one
//   --prepare-workspace <module>   TT_EXTENSION_WORKSPACE_SETUP: module whose default export gets
//                                  the empty workspace folder first and may return `{ env }` for
//                                  the extension host; default test/extension/workspace.mjs (a
//                                  git repository) unless --workspace names a folder
//   TT_EXTENSION_TIMEOUT_SECONDS   limit from code-server's start to the verdict, default 300
//   TT_CHROMIUM_PATH               default /usr/bin/chromium
//   TT_EXTENSION_VERBOSE=1         also print code-server's own output
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format, parseArgs } from 'node:util';
import { build, chromiumPath, HostRun, prefixLines, repoRoot, timer } from './common.mjs';
import { ensureCodeServer, isInstalled, missingPrerequisites } from './install.mjs';

const suiteIndex = join(repoRoot, 'out', 'test', 'extension', 'suite', 'index.js');
const defaultWorkspaceSetup = join(repoRoot, 'test', 'extension', 'workspace.mjs');
const timeoutSeconds = Number(process.env.TT_EXTENSION_TIMEOUT_SECONDS ?? 300);
const verbose = process.env.TT_EXTENSION_VERBOSE === '1';

const { values: options } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    workspace: { type: 'string', default: process.env.TT_EXTENSION_WORKSPACE },
    'prepare-workspace': { type: 'string', default: process.env.TT_EXTENSION_WORKSPACE_SETUP },
  },
});

const run = new HostRun({ name: 'extension tests', countLabel: 'extension-tests', tempPrefix: 'tt-ext-', verbose });
await run.execute(main);

async function main() {
  const problems = missingPrerequisites({ browser: chromiumPath, build: !isInstalled() });
  if (problems.length > 0) throw new Error(`missing prerequisites:\n  ${problems.join('\n  ')}`);
  const { entry } = ensureCodeServer();

  if (!options['no-build']) {
    build('build (esbuild)', process.execPath, ['esbuild.mjs']);
    build('compile (tsc)', process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.']);
  }
  if (!existsSync(suiteIndex)) throw new Error(`${suiteIndex} is missing: run \`npm run compile\` first.`);
  if (!existsSync(join(repoRoot, 'dist', 'extension.js'))) throw new Error('dist/extension.js is missing: run `npm run build` first.');

  const { runDir, dirs, isolation, configFile } = run.makeDirs(['workspace']);

  const workspace = options.workspace !== undefined ? resolve(options.workspace) : dirs.workspace;
  // The suite's own workspace is a fresh git repository (branch reporting needs one); a folder
  // given with --workspace is opened as it is unless a setup module is named.
  const setupModule = options['prepare-workspace'] ?? (options.workspace === undefined ? defaultWorkspaceSetup : undefined);
  let hostEnv = {};
  if (setupModule !== undefined) {
    const setup = await import(pathToFileURL(resolve(setupModule)).href);
    const prepared = await setup.default(workspace);
    hostEnv = prepared?.env ?? {};
  }

  run.writeUserSettings(dirs);
  const resultFile = join(runDir, 'result.json');

  // The limit is for the run itself; a first-time install of code-server comes on top.
  const deadline = Date.now() + timeoutSeconds * 1000;
  const codeServer = await run.startCodeServer(entry, {
    dirs,
    configFile,
    cwd: workspace,
    env: { ...isolation, ...hostEnv, TT_EXTENSION_RESULT_FILE: resultFile, TT_EXTENSION_HOST: 'code-server' },
    until: deadline,
    announce: (authority) => console.log(`> extension tests in code-server on ${authority}, workspace ${workspace}`),
  });
  const { authority, exited } = codeServer;

  const browser = await run.launchBrowser(isolation);
  const page = await browser.newPage();
  let settle;
  const settled = new Promise((resolveSettled) => (settle = resolveSettled));
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const line = (Array.isArray(args) ? printf(args) : String(args)).trimEnd();
    if (line !== '') (type === 'error' ? console.error : console.log)(prefixLines('[host] ', line));
  });
  await page.exposeFunction('codeAutomationExit', (code) => settle({ code }));
  page.on('pageerror', (error) => console.error(`[page] ${error.message}`));
  page.on('crash', () => settle({ error: 'the workbench page crashed' }));

  const remote = (path) => `vscode-remote://${authority}${path.split(sep).map(encodeURIComponent).join('/')}`;
  const payload = [
    ['extensionDevelopmentPath', remote(repoRoot.replace(/\/$/, ''))],
    ['extensionTestsPath', remote(suiteIndex)],
  ];
  const url = `http://${authority}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });

  const limit = timer(Math.max(0, deadline - Date.now()));
  const verdict = await Promise.race([
    settled,
    exited.then(({ code, signal }) => ({ error: `code-server exited early (${code ?? signal})` })),
    limit.elapsed.then(() => ({ error: `no verdict within ${timeoutSeconds} s (TT_EXTENSION_TIMEOUT_SECONDS)` })),
  ]);
  limit.cancel();
  // The signal handler reports and exits; what follows would only describe the teardown.
  if (run.interrupted) return { passes: 0, failures: 1 };

  const progressFile = `${resultFile}.log`;
  const progress = existsSync(progressFile) ? readFileSync(progressFile, 'utf8').trimEnd() : '';
  if (progress !== '') console.log(`\n${progress}`);
  const result = readResult(resultFile);
  if (verdict.error !== undefined) {
    console.error(`\nextension tests: ${verdict.error}.`);
    codeServer.show();
  }
  if (result === undefined) {
    console.error(`extension tests: the in-host runner wrote no result (${resultFile}); the suite did not run to its end.`);
    if (verdict.error === undefined) codeServer.show();
    return { passes: 0, failures: 1 };
  }
  if (result.failures > 0) console.error(`\nfailed in the extension host:\n  ${result.failed.join('\n  ')}`);
  // A verdict that disagrees with the result file is a harness problem worth one failure.
  const harnessFailed = verdict.error !== undefined || (verdict.code !== 0 && result.failures === 0);
  return { passes: result.passes, failures: result.failures + (harnessFailed ? 1 : 0) };
}

function readResult(file) {
  try {
    const result = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof result.passes === 'number' && typeof result.failures === 'number') {
      return { passes: result.passes, failures: result.failures, failed: Array.isArray(result.failed) ? result.failed : [] };
    }
  } catch {
    // Missing or half-written: reported by the caller.
  }
  return undefined;
}

/** The workbench forwards console calls in printf form: a format string and its arguments. */
function printf(args) {
  const [first, ...rest] = args;
  if (typeof first !== 'string') return format(...args);
  // %c takes a CSS argument that means nothing in a terminal.
  let text = first.replace(/%c/g, () => {
    rest.shift();
    return '';
  });
  text = format(text, ...rest);
  return text;
}
