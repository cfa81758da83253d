// `npm test`: build, type-check and compile, lint, then run every suite. The last line is
// `tests: N passed, N failed`, so a reader (and CI) sees the count. Extra arguments go to mocha
// as a filter: `npm test -- --grep signing`.
import { spawnSync } from 'node:child_process';
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
const passed = stats?.passes ?? 0;
const failed = stats?.failures ?? 0;
console.log(`\ntests: ${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
