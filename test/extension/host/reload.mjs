// The offline queue across a window reload, the first acceptance point of issue 7, in a real VS
// Code extension host (code-server in Debian's chromium, through ./suite.mjs): the app (the
// reference server, run inside the extension host) is killed, three entries are logged and
// queued, the window reloads (a new extension host, nothing kept in memory), the app restarts on
// the same port with the same data file, and all three must arrive exactly once, in order, with
// no user action. The in-host part is test/extension/reload/ (index.ts says how the two halves
// meet). The last line is `reload-tests: N passed, N failed`.
//
// Options: --no-build (test/run.mjs has just built); TT_CHROMIUM_PATH, TT_EXTENSION_VERBOSE=1 as
// for run.mjs; TT_EXTENSION_TIMEOUT_SECONDS, the limit from code-server's start, default 300.
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, HostRun, repoRoot } from './common.mjs';
import { runSuiteInHost } from './suite.mjs';

const { values: options } = parseArgs({ options: { 'no-build': { type: 'boolean', default: false } } });

const run = new HostRun({ name: 'reload tests', countLabel: 'reload-tests', tempPrefix: 'tt-reload-', verbose: process.env.TT_EXTENSION_VERBOSE === '1' });
await run.execute(async () => {
  const port = await freePort();
  // Hex: the token must not start with "-".
  const token = randomBytes(24).toString('hex');
  return runSuiteInHost(run, {
    suiteIndex: join(repoRoot, 'out', 'test', 'extension', 'reload', 'index.js'),
    label: 'reload tests',
    noBuild: options['no-build'],
    timeoutSeconds: Number(process.env.TT_EXTENSION_TIMEOUT_SECONDS ?? 300),
    timeoutHint: 'TT_EXTENSION_TIMEOUT_SECONDS',
    // A short poll interval keeps the offline back-off (doubling up to 60 s) short as well.
    settings: { 'timeTracker.port': port, 'timeTracker.pollIntervalSeconds': 2 },
    env: (dirs) => {
      // Outlives the window's extension hosts, not the run: removed with the run's folder.
      const stateDir = join(dirs.data, 'reload-state');
      mkdirSync(stateDir, { recursive: true });
      return { TT_RELOAD_DIR: stateDir, TT_RELOAD_PORT: String(port), SERVICE_TOKEN: token };
    },
  });
});
