import assert from 'node:assert/strict';
import { onUnlessWorkspaceTurnsOff } from '../../../../src/tracker/settings/workspaceTurnsOff';

describe('tracker/settings: what a workspace may only turn off', () => {
  it("turns the user's on off where a workspace or folder says false, and never turns the user's off on", () => {
    assert.equal(onUnlessWorkspaceTurnsOff(true, [undefined, undefined]), true, 'not set there: the user’s');
    assert.equal(onUnlessWorkspaceTurnsOff(true, [false, undefined]), false, 'the workspace turns it off');
    assert.equal(onUnlessWorkspaceTurnsOff(true, [undefined, false]), false, 'the folder turns it off');
    assert.equal(onUnlessWorkspaceTurnsOff(true, [true, false]), false);
    assert.equal(onUnlessWorkspaceTurnsOff(false, [true, true]), false, 'a workspace never turns it on');
    assert.equal(onUnlessWorkspaceTurnsOff(false, [undefined, undefined]), false);
  });

  it('reads nothing but false as turning off', () => {
    for (const value of ['false', 0, null, '', [], {}])
      assert.equal(onUnlessWorkspaceTurnsOff(true, [value]), true, JSON.stringify(value));
  });
});
