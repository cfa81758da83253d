import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import {
  compileBranchGlobs,
  compileGlobs,
  literalGlob,
  MAX_GLOB_LENGTH,
  MAX_MATCHED_BRANCH_LENGTH,
} from '../../../src/platform/globs';
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
    const ignored = compileGlobs(['*a*a*a*a*a*a*a*a*a*a*a*b']);
    for (const length of [30, 40, 4_000]) {
      const started = performance.now();
      assert.equal(ignored('a'.repeat(length)), false);
      const tookMs = performance.now() - started;
      // Microseconds when linear; a backtracking match took 10 s for 30 and over a minute for 40.
      assert.ok(tookMs < 200, `${length} a's took ${tookMs.toFixed(0)} ms`);
    }
    assert.equal(ignored(`${'a'.repeat(4_000)}b`), true);
    const across = compileGlobs(['**a**a**a**a**a**a**a**a**a**a**a**b']);
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
      assert.equal(compileGlobs([glob])(branch), expected, `${glob} against ${branch}`);
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
      assert.equal(compileGlobs([glob])(branch), asRegExp(glob).test(branch), `${glob} against ${branch}`);
    }
  });

  it('writes a name as a glob that matches that name only: `\\` makes the next character literal', () => {
    const names = [
      'client?',
      'clientX',
      'client',
      'notes*',
      'notes',
      'notes-old',
      '**',
      '*',
      'a',
      '[a]',
      'a\\b',
      'a\\',
    ];
    for (const name of names) {
      const glob = literalGlob(name);
      assert.deepEqual(
        names.filter((other) => compileGlobs([glob])(other)),
        [name],
        `${glob} for ${name}`,
      );
    }
    assert.equal(literalGlob('acme-web'), 'acme-web', 'a name without a wildcard is written as it is');
    assert.equal(compileGlobs(['client\\?'])('client?'), true);
    assert.equal(compileGlobs(['a\\'])('a\\'), true, 'a backslash at the end is itself');
  });

  describe('case-folded where the repository ignores case', () => {
    /** "login-é" with the é decomposed (as HFS+ stores names) and composed (as a keyboard types it). */
    const decomposed = 'feature/login-e\u0301';
    const composed = 'feature/login-\u00e9';

    it('matches Feature/Login against feature/* only where the repository ignores case', () => {
      const matches = compileBranchGlobs(['feature/*']);
      assert.equal(matches('feature/login', false), true);
      assert.equal(matches('Feature/Login', false), false, 'exact where git tells the cases apart');
      assert.equal(matches('Feature/Login', true), true);
      assert.equal(compileBranchGlobs(['Feature/LOGIN'])('feature/login', true), true, 'the glob folds too');
      assert.equal(matches('Feature/Login/x', true), false, 'folding keeps * inside one segment');
    });

    it('takes a branch decomposed (NFD) for the glob composed (NFC), only where the repository ignores case', () => {
      const matches = compileBranchGlobs([composed]);
      assert.equal(matches(decomposed, true), true);
      assert.equal(matches(decomposed, false), false);
      assert.equal(compileBranchGlobs([decomposed])(composed, true), true);
    });

    it('compares both sides through the key it is given', () => {
      const upper = (text: string): string => text.toUpperCase();
      assert.equal(compileGlobs(['/work/*.JSON'], undefined, upper)('/Work/app.json'), true);
      assert.equal(compileGlobs(['/work/*.JSON'])('/Work/app.json'), false, 'no key: exact');
    });

    it('still refuses a glob over the limit, folded or not', () => {
      // One step once its stars are one: it would match every branch starting with w, were it used.
      const long = `W${'*'.repeat(MAX_GLOB_LENGTH)}`;
      const matches = compileBranchGlobs([long, 'main']);
      assert.equal(matches('wip', true), false);
      assert.equal(matches('Wip', false), false);
      assert.equal(matches('MAIN', true), true, 'the globs within the limit are used');
    });

    it('cuts a branch to its bound before folding it, so a longer name costs no more', () => {
      // The bound falls between the e and its combining accent: only the e is seen, folded or not.
      const prefix = 'x'.repeat(MAX_MATCHED_BRANCH_LENGTH - 1);
      const branch = `${prefix}e\u0301`;
      assert.equal(compileBranchGlobs([`${prefix}\u00e9`])(branch, true), false);
      assert.equal(compileBranchGlobs([`${prefix}e`])(branch, true), true);
      assert.equal(compileBranchGlobs([`${prefix.toUpperCase()}Y`])(`${prefix}y${'z'.repeat(100_000)}`, true), true);
    });
  });
});
