// `npm test`: build, type-check and compile, lint, then run every suite: the unit tests here, then
// the extension tests in a real VS Code extension host (test/extension/host/run.mjs), the offline
// queue across a window reload (test/extension/host/reload.mjs), the extension in German
// (test/extension/host/german.mjs), the packaged .vsix installed into a clean host and checked
// through its status bar (test/extension/host/packaged.mjs), then a 2-minute soak of the extension
// under injected faults (test/extension/host/soak.mjs, `npm run soak -- --minutes 2`). The last
// line is `tests: N passed, N failed` over all of them, so a reader (and CI) sees the count. Extra
// arguments go to the unit tests' mocha as a filter: `npm test -- --grep signing`.
// TT_SKIP_EXTENSION_TESTS=1 skips every suite but the unit tests; TT_SKIP_SOAK=1 only the soak
// (about 2.5 minutes); both say so.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Mocha from 'mocha';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules', '.bin', name);

function step(title, command, args) {
  console.log(`\n> ${title}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`${title} failed.`);
    console.log('tests: 0 passed, 1 failed');
    process.exit(1);
  }
}

step('build (esbuild)', process.execPath, ['esbuild.mjs']);
step('type-check and compile (tsc)', bin('tsc'), ['-p', '.']);
step('lint (eslint)', bin('eslint'), ['.']);

const grepIndex = process.argv.indexOf('--grep');
const grep = grepIndex >= 0 ? process.argv[grepIndex + 1] : undefined;

const unitRoot = join(root, 'out', 'test', 'unit');
const files = readdirSync(unitRoot, { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.js'))
  .sort()
  .map((file) => join(unitRoot, file));

const mocha = new Mocha({ reporter: 'spec', timeout: 20_000, ...(grep ? { grep } : {}) });
for (const file of files) mocha.addFile(file);

const stats = await new Promise((resolve) => {
  const runner = mocha.run(() => resolve(runner.stats));
});
const unit = { passed: stats?.passes ?? 0, failed: stats?.failures ?? 0 };
console.log(`\nunit-tests: ${unit.passed} passed, ${unit.failed} failed`);

const hostSuites = process.env.TT_SKIP_EXTENSION_TESTS === '1'
  ? [skipExtensionTests()]
  : [
      await runHostSuite('extension tests', 'real VS Code extension host: code-server + chromium', 'run.mjs', 'extension-tests'),
      await runHostSuite('reload tests', 'entries queued offline survive a window reload and arrive once, in order', 'reload.mjs', 'reload-tests'),
      await runHostSuite('German tests', 'the extension with the display language German', 'german.mjs', 'german-tests'),
      await runHostSuite('packaged tests', 'the .vsix installed into a clean code-server, seen through its status bar', 'packaged.mjs', 'packaged-tests'),
      process.env.TT_SKIP_SOAK === '1'
        ? skipSoak()
        : await runHostSuite('soak', '2 minutes of injected faults in the real extension host', 'soak.mjs', 'soak-tests', ['--minutes', '2']),
    ];
const passed = unit.passed + hostSuites.reduce((sum, suite) => sum + suite.passed, 0);
const failed = unit.failed + hostSuites.reduce((sum, suite) => sum + suite.failed, 0);
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;

function skipExtensionTests() {
  console.log('\n> extension, reload, German, packaged and soak tests: SKIPPED (TT_SKIP_EXTENSION_TESTS=1); the count below is the unit tests only.');
  return { passed: 0, failed: 0 };
}

function skipSoak() {
  console.log('\n> soak: SKIPPED (TT_SKIP_SOAK=1); the count below has no soak checks. Run `npm run soak` before a release.');
  return { passed: 0, failed: 0 };
}

/**
 * Runs a suite of test/extension/host/ in its own process (it owns code-server and chromium) and
 * reads its count line, `<label>: N passed, N failed`.
 */
async function runHostSuite(name, what, script, label, args = []) {
  console.log(`\n> ${name} (${what})`);
  const child = spawn(process.execPath, [join(root, 'test', 'extension', 'host', script), '--no-build', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    output += chunk;
    process.stdout.write(chunk);
  });
  const code = await new Promise((resolve) => child.once('close', (status, signal) => resolve(status ?? signal)));
  const counts = [...output.matchAll(new RegExp(`^${label}: (\\d+) passed, (\\d+) failed$`, 'gm'))].at(-1);
  if (counts === undefined) {
    console.error(`${name}: the harness gave no count (exit ${code}); counted as 1 failure.`);
    return { passed: 0, failed: 1 };
  }
  const result = { passed: Number(counts[1]), failed: Number(counts[2]) };
  // A harness that fails without a failing test is still a failure.
  if (code !== 0 && result.failed === 0) result.failed = 1;
  return result;
}
