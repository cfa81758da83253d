import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { compileLinearPattern, PatternError, type PatternProblem } from '../../../src/platform/linearPattern';
import { seededRandom } from '../../support/random';

const LIMITS = { maxLength: 200, maxProgramSize: 2_000 };

function refusal(source: string): PatternProblem | undefined {
  try {
    compileLinearPattern(source, LIMITS);
    return undefined;
  } catch (error) {
    assert.ok(error instanceof PatternError, String(error));
    return error.code;
  }
}

describe('platform/linearPattern', () => {
  it("finds what JavaScript's own engine finds: leftmost, alternatives in order, greedy and lazy", () => {
    const patterns = [
      '[A-Z][A-Z0-9]+-\\d+',
      '#\\d+',
      '(?:PROJ|OPS)-\\d+',
      '\\b[A-Z]+-\\d+\\b',
      'a|ab',
      '(a|ab)(c|bcd)(d*)',
      'a*?b',
      'a+?',
      'x{2,3}',
      'x{2,}?',
      '[^a-c]+',
      '[\\d-z]+',
      '.*',
      '^$',
      'a??b',
      '(?<key>[a-z]+)/\\d',
      '\\w+\\s\\W',
      '[\\]x]+',
      '\\.\\*',
      '(^a|b)*',
      '\\Bb',
      '(ab|a)(bc|c)?',
      '[a-]+',
      '\\x41\\u0042',
      'a{',
    ];
    const next = seededRandom(7);
    const alphabet = 'aAbBcdxyz-#/_1 .ABC2{';
    for (const source of patterns) {
      const linear = compileLinearPattern(source, LIMITS);
      const native = new RegExp(source);
      for (let i = 0; i < 500; i++) {
        let text = '';
        for (let length = Math.floor(next() * 12); length > 0; length--)
          text += alphabet.charAt(Math.floor(next() * alphabet.length));
        assert.equal(linear.firstMatch(text), native.exec(text)?.[0], `${source} on ${JSON.stringify(text)}`);
      }
    }
  });

  it('matches in linear time what backtracks for seconds or forever', () => {
    const cases: [source: string, text: string][] = [
      ['^(a+)+b', 'a'.repeat(40)],
      ['a*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(40)],
      [`${'(a|a)'.repeat(30)}b`, 'a'.repeat(40)],
      ['[A-Z][A-Z0-9]+-\\d+', 'A'.repeat(4_000)],
    ];
    for (const [source, text] of cases) {
      const pattern = compileLinearPattern(source, LIMITS);
      const started = performance.now();
      assert.equal(pattern.firstMatch(text), undefined);
      const tookMs = performance.now() - started;
      assert.ok(tookMs < 50, `${source} on ${text.length} characters took ${tookMs.toFixed(1)} ms`);
    }
  });

  it('refuses what needs backtracking, what it does not read, and what is too long or too large, by code', () => {
    assert.equal(refusal('([A-Z]+'), 'SYNTAX');
    assert.equal(refusal('a'.repeat(201)), 'TOO_LONG');
    assert.equal(refusal('((a{100}){100}){100}'), 'TOO_COMPLEX');
    assert.equal(refusal('(a)\\1'), 'BACKREFERENCE');
    assert.equal(refusal('(?<x>a)\\k<x>'), 'BACKREFERENCE');
    assert.equal(refusal('a(?=b)'), 'LOOKAROUND');
    assert.equal(refusal('(?<!b)a'), 'LOOKAROUND');
    assert.equal(refusal('(a*)*'), 'EMPTY_REPEAT');
    assert.equal(refusal('(x?)+y'), 'EMPTY_REPEAT');
    assert.equal(refusal('\\p{Lu}'), 'UNSUPPORTED');
    assert.equal(refusal('\\cA'), 'UNSUPPORTED');
    assert.equal(refusal('[A-Z][A-Z0-9]+-\\d+'), undefined);
    assert.equal(refusal('(a+)+b'), undefined, 'nested quantifiers cost nothing here: matched linearly, not refused');
  });
});
