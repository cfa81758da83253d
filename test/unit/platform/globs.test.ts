import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { compileGlobs as compileBranchGlobs } from '../../../src/platform/globs';
import { seededRandom } from '../../support/random';

/** The globs as regular expressions, as they were matched before issue 12: the meaning to keep, for small inputs. */
function asRegExp(glob: string): RegExp {
  const source = glob
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*\*|\*|\?/g, (wildcard) => (wildcard === '**' ? '.*' : wildcard === '*' ? '[^/]*' : '[^/]'));
  return new RegExp(`^${source}$`);
}

describe('platform/globs', () => {
  it("matches a workspace's worst glob in linear time: *a*a*a*a*a*a*a*a*a*a*a*b against 30, 40 and 4,000 a's", () => {
    const ignored = compileBranchGlobs(['*a*a*a*a*a*a*a*a*a*a*a*b']);
    for (const length of [30, 40, 4_000]) {
      const started = performance.now();
      assert.equal(ignored('a'.repeat(length)), false);
      const tookMs = performance.now() - started;
      // Microseconds when linear; a backtracking match took 10 s for 30 and over a minute for 40.
      assert.ok(tookMs < 200, `${length} a's took ${tookMs.toFixed(0)} ms`);
    }
    assert.equal(ignored(`${'a'.repeat(4_000)}b`), true);
    const across = compileBranchGlobs(['**a**a**a**a**a**a**a**a**a**a**a**b']);
    const started = performance.now();
    assert.equal(across('a/'.repeat(2_000)), false);
    assert.ok(performance.now() - started < 200, '** as well');
  });

  it('keeps the documented meaning: * within one segment, ** across, ? one character but /, the rest literal', () => {
    const cases: [glob: string, branch: string, expected: boolean][] = [
      ['feature/*', 'feature/x-1', true],
      ['feature/*', 'feature/x/y', false],
      ['feature/*', 'feature/', true],
      ['feature/**', 'feature/x/y', true],
      ['feature/**/wip', 'feature/a/b/wip', true],
      ['feature/**/wip', 'feature/wip', false],
      ['**', 'any/thing/at/all', true],
      ['*', 'a/b', false],
      ['?', '/', false],
      ['wip?', 'wip12', false],
      ['v1.?', 'v1.2', true],
      ['v1.?', 'v1x2', false],
      ['(x)+[y]', '(x)+[y]', true],
      ['tmp-*', 'feature/tmp-1', false],
      ['émoji-?', 'émoji-🚀', true],
      ['', '', false],
    ];
    for (const [glob, branch, expected] of cases)
      assert.equal(compileBranchGlobs([glob])(branch), expected, `${glob} against ${branch}`);
  });

  it('agrees with the regular expressions it replaced, on 20,000 small globs and branches', () => {
    const next = seededRandom(12);
    const pick = (alphabet: string, most: number): string =>
      Array.from(
        { length: Math.floor(next() * (most + 1)) },
        () => alphabet[Math.floor(next() * alphabet.length)],
      ).join('');
    for (let i = 0; i < 20_000; i++) {
      const glob = pick('ab/.*?', 7);
      const branch = pick('ab/.', 8);
      if (glob.trim() === '') continue;
      assert.equal(compileBranchGlobs([glob])(branch), asRegExp(glob).test(branch), `${glob} against ${branch}`);
    }
  });
});
