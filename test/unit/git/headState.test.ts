import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { compileBranchGlobs } from '../../../src/platform/globs';
import { asSeen, decideSwitch, parseHead } from '../../../src/git/headState';

describe('git/headState and branchFilter', () => {
  it('reads a branch, a detached HEAD and garbage from HEAD', () => {
    assert.deepEqual(parseHead('ref: refs/heads/feature/x-1\n'), { kind: 'branch', branch: 'feature/x-1' });
    assert.deepEqual(parseHead('3f2a9c0e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39\n'), { kind: 'detached' });
    assert.deepEqual(parseHead('ref: refs/remotes/origin/main\n'), { kind: 'detached' });
    assert.deepEqual(parseHead(''), { kind: 'unreadable' });
    assert.deepEqual(parseHead(undefined), { kind: 'unreadable' });
  });

  it("reads HEAD's edge cases: CRLF, spaces, nothing after refs/heads/, a detached id, a 64 KiB line", () => {
    assert.deepEqual(parseHead('ref: refs/heads/main\r\n'), { kind: 'branch', branch: 'main' });
    assert.deepEqual(parseHead('ref:refs/heads/main'), { kind: 'branch', branch: 'main' }, 'no space, no newline');
    assert.deepEqual(parseHead('ref: \t refs/heads/feature/a b  \t\n'), { kind: 'branch', branch: 'feature/a b' });
    assert.deepEqual(parseHead(' ref: refs/heads/main\n'), { kind: 'detached' }, 'git writes no space before ref:');
    assert.deepEqual(parseHead('ref: refs/heads/\n'), { kind: 'detached' });
    assert.deepEqual(parseHead('ref: refs/heads/   \n'), { kind: 'detached' }, 'spaces are no name');
    assert.deepEqual(
      parseHead('ref: refs/heads/a\rb\n'),
      { kind: 'detached' },
      'a carriage return inside is no branch',
    );
    assert.deepEqual(
      parseHead('ref: refs/heads/main\nref: refs/heads/other\n'),
      { kind: 'branch', branch: 'main' },
      'the first line only',
    );
    assert.deepEqual(parseHead('3f2a9c0e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39'), { kind: 'detached' });
    assert.deepEqual(parseHead('\n\nref: refs/heads/main'), { kind: 'unreadable' });
    const long = `x${' '.repeat(64 * 1024 - 20)}y`;
    for (const content of [
      `ref: refs/heads/${long}\n`,
      `ref: refs/heads/${' '.repeat(64 * 1024)}x`,
      `ref: ${' '.repeat(64 * 1024)}`,
    ]) {
      const started = performance.now();
      const head = parseHead(content);
      const tookMs = performance.now() - started;
      assert.ok(tookMs < 50, `${tookMs.toFixed(1)} ms`);
      assert.notEqual(head.kind, 'unreadable');
    }
    assert.deepEqual(parseHead(`ref: refs/heads/${long}\n`), { kind: 'branch', branch: long });
    assert.deepEqual(parseHead(`ref: ${' '.repeat(64 * 1024)}`), { kind: 'detached' });
  });

  it('reports only a new branch, never while busy or detached', () => {
    const on = (branch: string) => ({ kind: 'branch', branch }) as const;
    assert.deepEqual(decideSwitch('main', on('dev'), false), { branch: 'dev', previousBranch: 'main' });
    assert.equal(decideSwitch('main', on('main'), false), undefined);
    assert.equal(decideSwitch('main', on('dev'), true), undefined);
    assert.equal(decideSwitch('main', { kind: 'detached' }, false), undefined);
    assert.deepEqual(decideSwitch(undefined, on('dev'), false), { branch: 'dev', previousBranch: undefined });
  });

  it('matches ignore globs against the whole branch name', () => {
    const ignored = compileBranchGlobs(['dependabot/**', 'tmp-*', 'wip?', '  ']);
    assert.equal(ignored('dependabot/npm/undici-7', false), true);
    assert.equal(ignored('tmp-1', false), true);
    assert.equal(ignored('tmp-1/x', false), false, '* stays inside one segment');
    assert.equal(ignored('wip1', false), true);
    assert.equal(ignored('feature/tmp-1', false), false);
    assert.equal(ignored('main', false), false);
    assert.equal(compileBranchGlobs([])('anything', true), false);
    assert.equal(compileBranchGlobs(['release/1.0'])('release/1x0', false), false, 'dots are literal');
  });

  it('reads a branch by the name first seen where the repository ignores case and the two differ in case alone', () => {
    assert.equal(asSeen('feature/Login', 'feature/login', true), 'feature/login');
    assert.equal(asSeen('feature/login-e\u0301', 'Feature/Login-\u00e9', true), 'Feature/Login-\u00e9', 'or form');
    assert.equal(asSeen('feature/Login', 'feature/login', false), 'feature/Login', 'two branches where case counts');
    assert.equal(asSeen('feature/Login', 'main', true), 'feature/Login', 'another branch keeps its name');
    assert.equal(asSeen('feature/Login', undefined, true), 'feature/Login', 'nothing seen yet');
  });
});
