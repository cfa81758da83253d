/** Before the reload: a picker's search names an activity, which the workspace's state keeps. */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { kind, until } from '../../suite/states';
import { withWizardAnswers, type PickerSeen } from '../../suite/wizardAnswers';
import { extensionApi, KNOWN_ACTIVITY, startApp } from '../setup';

describe('before the reload: the pickers learn what the app names', function () {
  this.timeout(30_000);

  it('lists the activity a search named', async () => {
    const server = await startApp();
    try {
      server.controls.state.seedActivity(KNOWN_ACTIVITY);
      const api = await extensionApi();
      await until(api, kind('idle'), 'idle');
      const seen: PickerSeen[] = [];
      // Typed slowly enough that the search the picker sends as it opens has answered.
      await withWizardAnswers(
        { pick: 'no such item: dismiss', typed: [], seen, pickerTyping: { text: 'reload', keystrokeMs: 100 } },
        () => vscode.commands.executeCommand('timeTracker.start'),
      );
      assert.ok(
        seen[0]?.chosenFrom.items.some((item) => item.label === KNOWN_ACTIVITY),
        `the search named it: ${JSON.stringify(seen)}`,
      );
    } finally {
      await server.close();
    }
  });
});
