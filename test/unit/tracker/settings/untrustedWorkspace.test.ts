import assert from 'node:assert/strict';
import {
  NARROWED_BY_UNTRUSTED_WORKSPACE as NARROWED,
  RESTRICTED_SETTINGS,
  type Reporting,
  touchesRestricted,
} from '../../../../src/tracker/settings/untrustedWorkspace';

// In a workspace VS Code does not trust, a restricted setting's workspace value is read only where
// it makes the extension send, start, create or reveal less than the user's own settings do.

describe('tracker/settings: what an untrusted workspace may set', () => {
  it('lets a workspace turn branch reports down, never up', () => {
    const levels: Reporting[] = [false, true, 'always'];
    const narrow = NARROWED['git.reportBranchChanges'];
    for (const user of levels) {
      assert.equal(narrow(user, undefined), user, 'not set there: the user’s');
      for (const workspace of levels) {
        const expected = levels.indexOf(workspace) < levels.indexOf(user) ? workspace : user;
        assert.equal(narrow(user, workspace), expected, `user ${String(user)}, workspace ${String(workspace)}`);
      }
    }
    assert.equal(narrow(false, 'always'), false);
    assert.equal(narrow(true, 'always'), true);
    assert.equal(narrow('always', false), false);
  });

  it("adds a workspace's ignored branches to the user's, never drops one of the user's", () => {
    const narrow = NARROWED['git.ignoreBranches'];
    assert.deepEqual(narrow(['tmp-*'], ['dependabot/**']), ['tmp-*', 'dependabot/**']);
    assert.deepEqual(narrow(['tmp-*'], []), ['tmp-*']);
    assert.deepEqual(narrow(['tmp-*'], undefined), ['tmp-*']);
    assert.deepEqual(narrow([], ['wip/*']), ['wip/*']);
  });

  it("takes a workspace's folderName, never its remoteUrl (which sends the remote's address)", () => {
    const narrow = NARROWED['git.repoName'];
    assert.equal(narrow('folderName', 'remoteUrl'), 'folderName');
    assert.equal(narrow('remoteUrl', 'folderName'), 'folderName');
    assert.equal(narrow('remoteUrl', undefined), 'remoteUrl');
    assert.equal(narrow('remoteUrl', 'remoteUrl'), 'remoteUrl');
  });

  it('names the restricted settings, links first, and which changes touch them (what granting trust re-reads)', () => {
    assert.deepEqual(RESTRICTED_SETTINGS, ['links', 'git.reportBranchChanges', 'git.ignoreBranches', 'git.repoName']);
    for (const key of ['links', 'git', 'git.repoName', 'git.ignoreBranches'])
      assert.equal(touchesRestricted(key), true, key);
    for (const key of ['linksEnabled', 'branchTime', 'statusBar', 'gi', 'git.repo'])
      assert.equal(touchesRestricted(key), false, key);
  });
});
