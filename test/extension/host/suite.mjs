// Every development-build suite of test/suites.mjs runs through here (./launch.mjs): a mocha suite
// of out/test/extension/ run inside the real VS Code extension host of code-server, opened in
// Debian's chromium through playwright-core, with a fresh git repository as the workspace. The
// extension runs in the remote (workspace) extension host with the real `vscode` API.
//
// The verdict is the result file the in-host runner writes (its path goes in through TT_SUITE, see
// test/extension/launch.ts and runner.ts); the browser's `codeAutomationExit` only says that the
// suite has settled.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';
import { build, chromiumPath, prefixLines, repoRoot, timer } from './common.mjs';
import { ensureCodeServer, isInstalled, missingPrerequisites } from './install.mjs';

const defaultWorkspaceSetup = join(repoRoot, 'test', 'extension', 'workspace.mjs');

/**
 * Runs the suite whose entry point is `suiteIndex` (a compiled index.js) in code-server, owned by
 * `run` (a HostRun), and resolves to `{ passes, failures, resultFile }` once it has settled.
 *
 * - `noBuild`: skip esbuild and tsc (the launcher, test/run.mjs, has just run them).
 * - `workspace`: open this folder instead of a fresh one; `prepareWorkspace`: module whose default
 *   export gets the workspace folder first and may return `{ env }` for the extension host; by
 *   default test/extension/workspace.mjs (a git repository) unless `workspace` names a folder.
 * - `timeoutSeconds`: limit from code-server's start to the verdict; `timeoutHint` names the knob
 *   that sets it in the message when it runs out.
 * - `params`: the suite's own parameters, or a function of the run's folders that returns them;
 *   they reach the host in TT_SUITE (test/extension/launch.ts).
 * - `locale`: the workbench's display language, e.g. `de` (see HostRun#useDisplayLanguage).
 * - `settings`: user settings on top of common.mjs's base ones (`security.workspace.trust.enabled`
 *   true opens the folder in Restricted Mode); `env(dirs)`: more environment for
 *   code-server and its extension host, given the run's folders.
 * - `onPage(page, { resultFile })`: called once the workbench page is open; `afterVerdict({ resultFile })`: called
 *   before the run's folder is removed, to read what the suite left beside its result file.
 */
export async function runSuiteInHost(
  run,
  {
    suiteIndex,
    label,
    noBuild = false,
    workspace: givenWorkspace,
    prepareWorkspace,
    timeoutSeconds,
    timeoutHint = "the suite's minutes in test/suites.mjs",
    locale,
    settings = {},
    env = () => ({}),
    params = {},
    onPage = () => {},
    afterVerdict = () => {},
  },
) {
  const problems = missingPrerequisites({ browser: chromiumPath, build: !isInstalled() });
  if (problems.length > 0) throw new Error(`missing prerequisites:\n  ${problems.join('\n  ')}`);
  const { entry } = ensureCodeServer();

  if (!noBuild) {
    build('build (esbuild)', process.execPath, ['esbuild.mjs']);
    build('compile (tsc)', process.execPath, [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.']);
  }
  if (!existsSync(suiteIndex)) throw new Error(`${suiteIndex} is missing: run \`npm run compile\` first.`);
  if (!existsSync(join(repoRoot, 'dist', 'extension.js')))
    throw new Error('dist/extension.js is missing: run `npm run build` first.');

  const { runDir, dirs, isolation, configFile } = run.makeDirs(['workspace']);

  const workspace = givenWorkspace !== undefined ? resolve(givenWorkspace) : dirs.workspace;
  // The suite's own workspace is a fresh git repository (branch reporting needs one); a folder
  // given with --workspace is opened as it is unless a setup module is named.
  const setupModule = prepareWorkspace ?? (givenWorkspace === undefined ? defaultWorkspaceSetup : undefined);
  let hostEnv = {};
  if (setupModule !== undefined) {
    const setup = await import(pathToFileURL(resolve(setupModule)).href);
    const prepared = await setup.default(workspace);
    hostEnv = prepared?.env ?? {};
  }

  run.writeUserSettings(dirs, settings);
  if (locale !== undefined) run.useDisplayLanguage({ dirs, configFile }, locale);
  const resultFile = join(runDir, 'result.json');

  // The limit is for the run itself; a first-time install of code-server comes on top.
  const deadline = Date.now() + timeoutSeconds * 1000;
  const codeServer = await run.startCodeServer(entry, {
    dirs,
    configFile,
    cwd: workspace,
    env: {
      ...isolation,
      ...hostEnv,
      ...env(dirs),
      TT_SUITE: JSON.stringify({
        host: 'code-server',
        resultFile,
        params: typeof params === 'function' ? params(dirs) : params,
      }),
    },
    until: deadline,
    workspaceTrust: settings['security.workspace.trust.enabled'] === true,
    announce: (authority) => console.log(`> ${label} in code-server on ${authority}, workspace ${workspace}`),
  });
  const { authority, exited } = codeServer;

  const browser = await run.launchBrowser(isolation);
  const page = await browser.newPage();
  await codeServer.logIn(page.context());
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
  await onPage(page, { resultFile });

  const limit = timer(Math.max(0, deadline - Date.now()));
  const verdict = await Promise.race([
    settled,
    exited.then(({ code, signal }) => ({ error: `code-server exited early (${code ?? signal})` })),
    limit.elapsed.then(() => ({ error: `no verdict within ${timeoutSeconds} s (${timeoutHint})` })),
  ]);
  limit.cancel();
  // The signal handler reports and exits; what follows would only describe the teardown.
  if (run.interrupted) return { passes: 0, failures: 1, resultFile };

  const progressFile = `${resultFile}.log`;
  const progress = existsSync(progressFile) ? readFileSync(progressFile, 'utf8').trimEnd() : '';
  if (progress !== '') console.log(`\n${progress}`);
  const result = readResult(resultFile);
  await afterVerdict({ resultFile });
  if (verdict.error !== undefined) {
    console.error(`\n${label}: ${verdict.error}.`);
    codeServer.show();
  }
  if (result === undefined) {
    console.error(`${label}: the in-host runner wrote no result (${resultFile}); the suite did not run to its end.`);
    if (verdict.error === undefined) codeServer.show();
    return { passes: 0, failures: 1, resultFile };
  }
  if (result.failures > 0) console.error(`\nfailed in the extension host:\n  ${result.failed.join('\n  ')}`);
  // A verdict that disagrees with the result file is a harness problem worth one failure.
  const harnessFailed = verdict.error !== undefined || (verdict.code !== 0 && result.failures === 0);
  return { passes: result.passes, failures: result.failures + (harnessFailed ? 1 : 0), resultFile };
}

function readResult(file) {
  try {
    const result = JSON.parse(readFileSync(file, 'utf8'));
    if (typeof result.passes === 'number' && typeof result.failures === 'number') {
      return {
        passes: result.passes,
        failures: result.failures,
        failed: Array.isArray(result.failed) ? result.failed : [],
      };
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
