import assert from 'node:assert/strict';
import { ignoresCase } from '../../../src/git/repoConfig';

describe('git/repoConfig ignoresCase', () => {
  it('reads core.ignorecase as git does: any case of the names, a bare key, the last setting', () => {
    assert.equal(ignoresCase('[core]\n\tignorecase = true\n'), true);
    assert.equal(ignoresCase('[Core]\r\n  IgnoreCase=Yes ; set by git init\r\n'), true);
    assert.equal(ignoresCase('[core]\n\tignorecase\n'), true);
    assert.equal(ignoresCase('[core]\n\tignorecase = "1"\n'), true);
    assert.equal(ignoresCase('[core]\n\tignorecase = true\n\tignorecase = false\n'), false);
  });

  it('is false without the setting, outside [core], or for another key', () => {
    assert.equal(ignoresCase(''), false);
    assert.equal(ignoresCase('[core]\n\tbare = false\n'), false);
    assert.equal(ignoresCase('[core]\n\tignorecase =\n'), false);
    assert.equal(ignoresCase('[core "sub"]\n\tignorecase = true\n'), false);
    assert.equal(ignoresCase('[user]\n\tignorecase = true\n[core]\n'), false);
    assert.equal(ignoresCase('[core]\n\tignorecaseSoon = true\n'), false);
  });

  it('reads a long line of spaces in linear time', () => {
    const started = process.hrtime.bigint();
    assert.equal(ignoresCase(`[core]\n${' '.repeat(64 * 1024)}\n[${' '.repeat(64 * 1024)}`), false);
    assert.ok(process.hrtime.bigint() - started < 1_000_000_000n);
  });
});
