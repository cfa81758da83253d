// `npm run test:extension`: runs out/test/extension/suite/ inside a real VS Code extension host,
// offline. @vscode/test-electron cannot download VS Code here, so the host is code-server (VS
// Code's server from the npm registry, installed by ./install.mjs) and the workbench is opened in
// Debian's chromium, driven by playwright-core (./suite.mjs, shared with the soak's ./soak.mjs).
// The extension runs in the remote (workspace) extension host with the real `vscode` API.
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
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HostRun, repoRoot } from './common.mjs';
import { runSuiteInHost } from './suite.mjs';

const { values: options } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    workspace: { type: 'string', default: process.env.TT_EXTENSION_WORKSPACE },
    'prepare-workspace': { type: 'string', default: process.env.TT_EXTENSION_WORKSPACE_SETUP },
  },
});

const run = new HostRun({ name: 'extension tests', countLabel: 'extension-tests', tempPrefix: 'tt-ext-', verbose: process.env.TT_EXTENSION_VERBOSE === '1' });
await run.execute(() =>
  runSuiteInHost(run, {
    suiteIndex: join(repoRoot, 'out', 'test', 'extension', 'suite', 'index.js'),
    label: 'extension tests',
    noBuild: options['no-build'],
    workspace: options.workspace,
    prepareWorkspace: options['prepare-workspace'],
    timeoutSeconds: Number(process.env.TT_EXTENSION_TIMEOUT_SECONDS ?? 300),
    timeoutHint: 'TT_EXTENSION_TIMEOUT_SECONDS',
  }),
);
