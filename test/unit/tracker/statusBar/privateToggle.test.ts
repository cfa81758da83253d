import assert from 'node:assert/strict';
import { privateToggle } from '../../../../src/tracker/statusBar/privateToggle';

describe("tracker/statusBar/privateToggle: Toggle Private Status Bar acts on the user's value", () => {
  it("switches the user's value, from the default when the user never set it, and says nothing more", () => {
    assert.deepEqual(privateToggle({ defaultValue: false }), { value: true, message: undefined });
    assert.deepEqual(privateToggle({ defaultValue: false, globalValue: true }), { value: false, message: undefined });
    assert.deepEqual(privateToggle(undefined), { value: true, message: undefined });
  });

  it("switches the user's value whatever a repository's settings say, and says the repository's value is not used", () => {
    const on = privateToggle({ defaultValue: false, globalValue: false, workspaceValue: true });
    assert.equal(
      on.value,
      true,
      'the repository says private; the user said not: the user is asked about their own value',
    );
    assert.equal(
      on.message,
      "The status bar is private now (your user settings). This repository's settings also set timeTracker.statusBar.private; their value is not used.",
    );
    const off = privateToggle({ defaultValue: false, globalValue: true, workspaceFolderValue: false });
    assert.equal(off.value, false);
    assert.match(
      off.message ?? '',
      /^The status bar shows activity and time again \(your user settings\)\. .*not used\.$/,
    );
  });
});
