/**
 * A stray `it.only` left in a test would run that one test and skip the rest, and the run would
 * still pass. Every runner builds Mocha with `forbidOnly`, which fails such a run instead: this
 * finds each `new Mocha(` in the runners' sources and shows that the option does that.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const repoRoot = join(__dirname, '..', '..', '..', '..');

/** The runner sources: every .ts and .mjs under test/ and scripts/ outside the unit tests. */
function runnerSources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'unit' || name === 'fixtures' ? [] : runnerSources(path);
    return /\.(ts|mjs)$/.test(name) ? [path] : [];
  });
}

describe('lint/forbidOnly: no runner lets a stray .only pass', () => {
  it('builds Mocha with forbidOnly in every runner', () => {
    const calls = ['test', 'scripts'].flatMap((folder) =>
      runnerSources(join(repoRoot, folder)).flatMap((path) =>
        [...readFileSync(path, 'utf8').matchAll(/new Mocha\(([^)]*)\)/g)].map((match) => ({
          path,
          options: match[1] ?? '',
        })),
      ),
    );
    assert.ok(calls.length >= 2, `the unit and the host runners: ${calls.map(({ path }) => path).join(', ')}`);
    assert.deepEqual(
      calls.filter(({ options }) => !/forbidOnly: true/.test(options)).map(({ path }) => path),
      [],
    );
  });

  it('fails a run with an it.only under forbidOnly', () => {
    const folder = mkdtempSync(join(tmpdir(), 'tt-forbid-only-'));
    try {
      const spec = join(folder, 'stray.spec.js');
      writeFileSync(spec, "it.only('the one test', () => undefined);\nit('another', () => undefined);\n");
      // In a process of its own: a Mocha loading files here would replace this run's globals (it, describe).
      const script = `const Mocha = require(${JSON.stringify(require.resolve('mocha'))}); const mocha = new Mocha({ forbidOnly: true }); mocha.addFile(${JSON.stringify(spec)}); try { mocha.run((failures) => process.exit(failures > 0 ? 1 : 0)); } catch (error) { console.error(String(error)); process.exit(2); }`;
      const run = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 15_000 });
      assert.notEqual(run.status, 0, `the run fails: ${run.stdout}${run.stderr}`);
      assert.match(run.stderr + run.stdout, /forbid/i);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
