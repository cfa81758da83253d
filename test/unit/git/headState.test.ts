import assert from 'node:assert/strict';
import { withoutCredentials } from '../../../src/git/remoteUrl';
import { compileGlobs as compileBranchGlobs } from '../../../src/platform/globs';
import { decideSwitch, parseHead } from '../../../src/git/headState';

describe('git/headState and branchFilter', () => {
  it('reads a branch, a detached HEAD and garbage from HEAD', () => {
    assert.deepEqual(parseHead('ref: refs/heads/feature/x-1\n'), { kind: 'branch', branch: 'feature/x-1' });
    assert.deepEqual(parseHead('3f2a9c0e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39\n'), { kind: 'detached' });
    assert.deepEqual(parseHead('ref: refs/remotes/origin/main\n'), { kind: 'detached' });
    assert.deepEqual(parseHead(''), { kind: 'unreadable' });
    assert.deepEqual(parseHead(undefined), { kind: 'unreadable' });
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
    assert.equal(ignored('dependabot/npm/undici-7'), true);
    assert.equal(ignored('tmp-1'), true);
    assert.equal(ignored('tmp-1/x'), false, '* stays inside one segment');
    assert.equal(ignored('wip1'), true);
    assert.equal(ignored('feature/tmp-1'), false);
    assert.equal(ignored('main'), false);
    assert.equal(compileBranchGlobs([])('anything'), false);
    assert.equal(compileBranchGlobs(['release/1.0'])('release/1x0'), false, 'dots are literal');
  });

  it('strips credentials from remote URLs, and leaves scp-like ones alone', () => {
    assert.equal(withoutCredentials('https://user:ghp_secret@github.com/acme/shop.git'), 'https://github.com/acme/shop.git');
    assert.equal(withoutCredentials('https://ghp_secret@github.com/acme/shop.git'), 'https://github.com/acme/shop.git');
    assert.equal(withoutCredentials('https://github.com/acme/shop.git'), 'https://github.com/acme/shop.git');
    assert.equal(withoutCredentials('git@github.com:acme/shop.git'), 'git@github.com:acme/shop.git');
  });
});
