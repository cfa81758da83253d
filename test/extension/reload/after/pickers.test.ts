/**
 * After the reload: nothing in memory, the app away again; the pickers still list the activity
 * the app named before the reload (read back from the workspace's state) and offer no Create for it:
 * Log Time, whose entry queues, offers to log to it.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { kind, until } from '../../suite/states';
import { withWizardAnswers, type PickerSeen } from '../../suite/wizardAnswers';
import { extensionApi, KNOWN_ACTIVITY } from '../setup';

describe('after the reload: the pickers still know what the app named', function () {
  this.timeout(30_000);

  it('lists the activity named before the reload while the app is away, and offers no Create for its name', async () => {
    const api = await extensionApi();
    await until(api, kind('offline'), 'offline: the app is away again');
    const seen: PickerSeen[] = [];
    await withWizardAnswers(
      {
        pick: 'no such item: dismiss',
        typed: [],
        seen,
        pickerTyping: { text: ` ${KNOWN_ACTIVITY.toUpperCase()}`, keystrokeMs: 20 },
      },
      () => vscode.commands.executeCommand('timeTracker.log'),
    );
    const picker = seen[0];
    assert.ok(picker, 'the picker was shown');
    const labels = picker.chosenFrom.items.filter((item) => !item.separator).map((item) => item.label);
    // The entry queues, so the known name typed says where it lands: on the activity the app has.
    assert.deepEqual(labels, [`Log to “${KNOWN_ACTIVITY}”`], 'listed from the workspace state, no Create');
    assert.equal(picker.opened.title, 'Log Time (1/3): activity · The app is not answering');
    assert.match(picker.opened.placeholder ?? '', /^Activities as of \d{1,2}[:.]\d\d/);
    assert.deepEqual(picker.notificationsWhileOpen, []);
  });
});
