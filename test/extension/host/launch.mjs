// The suite table's shape and how one entry runs. test/suites.mjs lists the host suites with
// defineSuites (in the spirit of @vscode/test-cli's `defineConfig` in .vscode-test.mjs); test/run.mjs
// picks entries and hands each to launchSuite, which runs it in its own HostRun and resolves to
// data, `{ passes, failures, seconds }`: a development suite's counts come from the result file the
// in-host runner writes (./suite.mjs), a packaged suite's from its checks' return value.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import { isAbsolute, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort, HostRun, repoRoot, timer } from './common.mjs';
import { runSuiteInHost } from './suite.mjs';
import { preparePackage } from './workbench.mjs';

const BUILDS = ['development', 'packaged', 'script'];
const FIELDS = ['label', 'title', 'files', 'workspace', 'language', 'reload', 'build', 'minutes', 'duration', 'driver'];

/**
 * Checks the table and fills in its defaults. An entry:
 * - `label`: what `npm test -- --suite <label>` names (letters, digits, dashes), unique;
 *   `title`: one line saying what it tests, printed before it runs.
 * - `files`: for the development build, the compiled in-host mocha index (`extensionTestsPath`);
 *   for the packaged build, a module whose default export runs the checks (`(run, prepared)`
 *   resolving to `{ passes, failures }`). Relative to the repository.
 * - `workspace`: the folder the window opens: a module (`.mjs`) whose default export prepares a
 *   fresh folder (default test/extension/workspace.mjs, a git repository), or a folder.
 * - `language`: the display language (`de`), default English.
 * - `reload`: the suite reloads the window halfway (two halves in two extension hosts): it gets a
 *   state folder that outlives them (`stateDir`), the app's port (`port`, also the extension's
 *   timeTracker.port) and its token (SERVICE_TOKEN).
 * - `build`: `development` (the extension loaded from this checkout, default), `packaged` (the
 *   .vsix installed into a clean host) or `script` (`files` is a module whose default export
 *   starts what it needs itself, given the run, and resolves to `{ passes, failures }`: the check
 *   of `npm start`, which must start the host the way a user's `npm start` does).
 * - `minutes`: the limit for the suite from code-server's start to its verdict.
 * - `duration`: minutes the suite itself runs, given to its driver and on top of `minutes`;
 *   `--soak-minutes` sets it.
 * - `driver`: a module run beside a development suite, outside the host (the soak's watches
 *   the workbench and adds a check): its default export gets `{ run, options }` and resolves to
 *   hooks (settings, env, params, onPage, afterVerdict, finish, stop); its `readOptions` checks
 *   the command line's options first.
 */
export function defineSuites(entries) {
  const labels = new Set();
  return entries.map((entry) => {
    const where = `test/suites.mjs, entry ${JSON.stringify(entry.label ?? entries.indexOf(entry))}`;
    const unknown = Object.keys(entry).filter((key) => !FIELDS.includes(key));
    if (unknown.length > 0)
      throw new Error(`${where}: unknown field(s) ${unknown.join(', ')} (known: ${FIELDS.join(', ')})`);
    if (typeof entry.label !== 'string' || !/^[a-z][a-z0-9-]*$/.test(entry.label) || entry.label === 'unit')
      throw new Error(`${where}: label must be lower-case letters, digits and dashes, and not "unit"`);
    if (labels.has(entry.label)) throw new Error(`${where}: a second suite labelled ${entry.label}`);
    labels.add(entry.label);
    const suite = {
      title: entry.label,
      workspace: 'test/extension/workspace.mjs',
      language: undefined,
      reload: false,
      build: 'development',
      duration: undefined,
      driver: undefined,
      ...entry,
    };
    if (!BUILDS.includes(suite.build)) throw new Error(`${where}: build must be ${BUILDS.join(' or ')}`);
    if (typeof suite.files !== 'string') throw new Error(`${where}: files must name a file`);
    if (!(suite.minutes > 0)) throw new Error(`${where}: minutes must be a positive number`);
    if (suite.duration !== undefined && !(suite.duration > 0))
      throw new Error(`${where}: duration must be a positive number`);
    if (suite.build !== 'development' && (suite.reload || suite.language !== undefined || suite.driver !== undefined))
      throw new Error(`${where}: a ${suite.build} suite takes no reload, language or driver`);
    return Object.freeze(suite);
  });
}

const fromRepo = (path) => (isAbsolute(path) ? path : join(repoRoot, path));

/** The driver's options, checked before anything runs; throws one sentence. */
export async function driverOptions(suite, { soakMinutes, seed, faults }) {
  if (suite.driver === undefined) return undefined;
  const driver = await import(pathToFileURL(fromRepo(suite.driver)).href);
  return driver.readOptions?.({ duration: soakMinutes ?? suite.duration, seed, faults }) ?? {};
}

/**
 * Runs one entry in a HostRun of its own (code-server, chromium, temp folder, all removed after)
 * and resolves to `{ passes, failures, seconds }`. `options` are the driver's (driverOptions).
 */
export async function launchSuite(suite, { verbose = false, options } = {}) {
  const run = new HostRun({ name: suite.label, countLabel: suite.label, tempPrefix: `tt-${suite.label}-`, verbose });
  console.log(`\n> ${suite.label}: ${suite.title}`);
  const runners = {
    development: () => runDevelopment(run, suite, options),
    packaged: () => runChecks(run, suite, true),
    script: () => runChecks(run, suite, false),
  };
  return run.execute(runners[suite.build]);
}

async function runChecks(run, suite, packaged) {
  const limit = timer(suite.minutes * 60_000);
  try {
    const prepared = packaged ? await preparePackage(run, { noBuild: true }) : undefined;
    const { default: checks } = await import(pathToFileURL(fromRepo(suite.files)).href);
    return await Promise.race([
      checks(run, prepared),
      limit.elapsed.then(() => {
        throw new Error(`no verdict within ${suite.minutes} min (the suite's minutes in test/suites.mjs)`);
      }),
    ]);
  } finally {
    limit.cancel();
  }
}

async function runDevelopment(run, suite, options) {
  const suiteIndex = fromRepo(suite.files);
  const workspace = fromRepo(suite.workspace);
  const setup = suite.workspace.endsWith('.mjs');
  if (!existsSync(workspace))
    throw new Error(`the workspace ${relative(repoRoot, workspace)} of test/suites.mjs does not exist`);
  const hooks =
    suite.driver === undefined
      ? {}
      : await (await import(pathToFileURL(fromRepo(suite.driver)).href)).default({ run, options });
  const reload = suite.reload ? await reloadHooks() : {};
  const duration = options?.minutes ?? suite.duration ?? 0;
  try {
    const outcome = await runSuiteInHost(run, {
      suiteIndex,
      label: suite.label,
      noBuild: true,
      ...(setup ? { prepareWorkspace: workspace } : { workspace }),
      locale: suite.language,
      timeoutSeconds: Math.ceil((suite.minutes + duration) * 60),
      timeoutHint:
        duration > 0
          ? `the soak's ${duration} min plus the suite's ${suite.minutes} min in test/suites.mjs`
          : undefined,
      settings: { ...reload.settings, ...hooks.settings },
      env: (dirs) => ({ ...reload.env?.(dirs), ...hooks.env?.(dirs) }),
      params: (dirs) => ({ ...reload.params?.(dirs), ...hooks.params?.(dirs) }),
      onPage: hooks.onPage,
      afterVerdict: hooks.afterVerdict,
    });
    if (run.interrupted || hooks.finish === undefined) return outcome;
    return hooks.finish(outcome);
  } finally {
    hooks.stop?.();
  }
}

/** What a two-phase suite needs to outlive the window's reload: a folder, the app's port and token. */
async function reloadHooks() {
  const port = await freePort();
  // Hex: the token must not start with "-".
  const token = randomBytes(24).toString('hex');
  return {
    // A short poll interval keeps the offline back-off (doubling up to 60 s) short as well.
    settings: { 'timeTracker.port': port, 'timeTracker.pollIntervalSeconds': 2 },
    env: () => ({ SERVICE_TOKEN: token }),
    params: (dirs) => {
      // Outlives the window's extension hosts, not the run: removed with the run's folder.
      const stateDir = join(dirs.data, 'reload-state');
      mkdirSync(stateDir, { recursive: true });
      return { stateDir, port };
    },
  };
}
