// `npm run test:extension:electron`: the same extension suite as `npm run test:extension`, in
// desktop VS Code downloaded by @vscode/test-electron into .vscode-test/. For machines that can
// reach update.code.visualstudio.com; without internet `npm run test:extension` runs it in
// code-server. On Linux without a display, run it under `xvfb-run -a`.
//
// `--vscode-version V` picks the build (default 1.100.3, the oldest this extension supports and
// the one code-server bundles; `stable` or `insiders` for the newest). The last line is
// `extension: N passed, N failed`, as from the launcher.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runTests } from '@vscode/test-electron';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const { values: options } = parseArgs({
  options: {
    'vscode-version': { type: 'string', default: '1.100.3' },
    'no-build': { type: 'boolean', default: false },
  },
});
const version = options['vscode-version'];

if (!options['no-build']) {
  for (const args of [['esbuild.mjs'], [join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.']]) {
    if (spawnSync(process.execPath, args, { cwd: repoRoot, stdio: 'inherit' }).status !== 0) process.exit(1);
  }
}

const runDir = mkdtempSync(join(tmpdir(), 'tt-ext-electron-'));
const workspace = join(runDir, 'workspace');
const resultFile = join(runDir, 'result.json');
let outcome = { passes: 0, failures: 1 };
try {
  mkdirSync(workspace);
  await runTests({
    version,
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath: join(repoRoot, 'out', 'test', 'extension', 'suite', 'index'),
    // What test/extension/launch.ts reads: the host and the result file; this suite has no parameters.
    extensionTestsEnv: { TT_SUITE: JSON.stringify({ host: 'electron', resultFile, params: {} }) },
    // Other installed extensions stay out; the workspace is empty, as in the code-server route.
    launchArgs: [
      workspace,
      '--disable-extensions',
      '--disable-workspace-trust',
      '--skip-welcome',
      '--skip-release-notes',
    ],
  }).catch((error) => {
    // runTests rejects when the suite fails; the result file says how, when it exists.
    console.error(`VS Code ${version}: ${error instanceof Error ? error.message : String(error)}`);
  });
  try {
    outcome = JSON.parse(readFileSync(resultFile, 'utf8'));
    console.log(readFileSync(`${resultFile}.log`, 'utf8'));
  } catch {
    console.error('extension tests: the in-host runner wrote no result; the suite did not run to its end.');
  }
} finally {
  rmSync(runDir, { recursive: true, force: true });
}
console.log(`extension: ${outcome.passes} passed, ${outcome.failures} failed`);
process.exitCode = outcome.failures === 0 && outcome.passes > 0 ? 0 : 1;
