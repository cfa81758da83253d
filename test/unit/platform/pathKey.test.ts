/**
 * Paths and names as the file system compares them: on a Mac (APFS, HFS+) `~/Code/MyApp` and
 * `~/code/myapp` are one folder, and a name stored decomposed (NFD) is the one a keyboard types
 * composed (NFC); on Linux each is its own. The platform is injected, so both run here.
 */
import assert from 'node:assert/strict';
import { branchKey, foldedName, isInside, pathKey } from '../../../src/platform/pathKey';

/** "Café" as HFS+ stores it (e and a combining acute) and as a keyboard types it (é). */
const DECOMPOSED = 'Cafe\u0301';
const COMPOSED = 'Caf\u00e9';

describe('platform/pathKey', () => {
  it('folds case and the Unicode form on darwin, and leaves a path as it is on linux', () => {
    assert.equal(pathKey('/Users/Ana/Code/MyApp', 'darwin'), '/users/ana/code/myapp');
    assert.equal(pathKey(`/Users/ana/${DECOMPOSED}`, 'darwin'), pathKey(`/users/ana/${COMPOSED}`, 'darwin'));
    assert.equal(pathKey(`/x/${DECOMPOSED}`, 'darwin'), '/x/caf\u00e9');
    assert.equal(pathKey('/Users/Ana/Code/MyApp', 'linux'), '/Users/Ana/Code/MyApp');
    assert.equal(pathKey(`/x/${DECOMPOSED}`, 'linux'), `/x/${DECOMPOSED}`, 'not even normalised');
    assert.notEqual(pathKey(`/x/${DECOMPOSED}`, 'linux'), pathKey(`/x/${COMPOSED}`, 'linux'));
    assert.equal(foldedName(DECOMPOSED), 'caf\u00e9');
  });

  it('takes a path inside its root, or the root itself, and never a sibling that shares a prefix', () => {
    assert.equal(isInside('/a/b', '/a/b', 'linux'), true, 'the root itself');
    assert.equal(isInside('/a/b/c/d', '/a/b', 'linux'), true);
    assert.equal(isInside('/a/bc', '/a/b', 'linux'), false, 'a sibling whose name starts alike');
    assert.equal(isInside('/a/bc/d', '/a/b', 'linux'), false);
    assert.equal(isInside('/a', '/a/b', 'linux'), false, 'the parent is not inside');
    assert.equal(isInside('/anything', '/', 'linux'), true, 'everything is inside /');
  });

  it('reads a root with a trailing separator, either one, as the same folder', () => {
    assert.equal(isInside('/a/b/c', '/a/b/', 'linux'), true);
    assert.equal(isInside('/a/bc', '/a/b/', 'linux'), false);
    assert.equal(isInside('/a/b', '/a/b/', 'linux'), true, 'the root, written without its slash');
    assert.equal(isInside('C:\\a\\b', 'C:\\a\\', 'linux'), true);
    assert.equal(isInside('C:\\a', 'C:\\a\\', 'linux'), true, 'the root, written without its backslash');
    assert.equal(isInside('C:\\ab', 'C:\\a\\', 'linux'), false);
  });

  it('takes backslashes as separators after the root, as Windows paths have them', () => {
    assert.equal(isInside('C:\\work\\app\\src', 'C:\\work\\app', 'win32'), true);
    assert.equal(isInside('C:\\work\\apple', 'C:\\work\\app', 'win32'), false);
    assert.equal(isInside('/work/app\\src', '/work/app', 'linux'), true, 'either separator after the root');
  });

  it('compares through the key on darwin (case, NFD against NFC), and exactly on linux', () => {
    assert.equal(isInside('/Users/ana/Code/MyApp/src', '/Users/ana/code/myapp', 'darwin'), true);
    assert.equal(isInside('/users/ana/code/myapp', '/Users/ana/Code/MyApp', 'darwin'), true);
    assert.equal(isInside(`/p/${DECOMPOSED}/x`, `/p/${COMPOSED}`, 'darwin'), true);
    assert.equal(isInside('/Users/ana/Code/MyAppX', '/users/ana/code/myapp', 'darwin'), false);
    assert.equal(isInside('/Users/ana/Code/MyApp/src', '/Users/ana/code/myapp', 'linux'), false);
    assert.equal(isInside(`/p/${DECOMPOSED}/x`, `/p/${COMPOSED}`, 'linux'), false);
  });

  it('folds a branch name only where its repository ignores case', () => {
    assert.equal(branchKey('Feature/Login', true), 'feature/login');
    assert.equal(branchKey(`feature/${DECOMPOSED}`, true), branchKey(`Feature/${COMPOSED}`, true));
    assert.equal(branchKey('Feature/Login', false), 'Feature/Login');
    assert.equal(branchKey(`feature/${DECOMPOSED}`, false), `feature/${DECOMPOSED}`);
  });
});
