// `npm run test:extension:electron`: the same extension suite as `npm run test:extension`, in
// desktop VS Code downloaded by @vscode/test-electron into .vscode-test/. For machines that can
// reach update.code.visualstudio.com; without internet use test/extension/host/run.mjs.
// On Linux without a display, run it under `xvfb-run -a`.
//
// TT_VSCODE_VERSION picks the build (default 1.100.3, the oldest this extension supports and the
// one code-server bundles; `stable` or `insiders` for the newest). The last line is
// `extension-tests: N passed, N failed`, as from the code-server route.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const version = process.env.TT_VSCODE_VERSION ?? '1.100.3';

if (!process.argv.includes('--no-build')) {
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
    extensionTestsEnv: { TT_EXTENSION_RESULT_FILE: resultFile, TT_EXTENSION_HOST: 'electron' },
    // Other installed extensions stay out; the workspace is empty, as in the code-server route.
    launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--skip-welcome', '--skip-release-notes'],
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
console.log(`extension-tests: ${outcome.passes} passed, ${outcome.failures} failed`);
process.exitCode = outcome.failures === 0 && outcome.passes > 0 ? 0 : 1;
