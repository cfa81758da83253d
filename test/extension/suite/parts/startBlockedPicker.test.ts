/**
 * Start Tracking's picker while nothing can be started (src/extension/pickers/startBlockedPicker.ts),
 * with the window's quick pick answered as a user would (../pressEnter.ts) and a command of the
 * test's own as the fix: the fixes are its only items, the chosen one runs before it resolves,
 * and leaving it runs nothing.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { offerStartFixes } from '../../../../src/extension/pickers/startBlockedPicker';
import type { BlockedStart } from '../../../../src/tracker/pickers/startBlocked';
import { answering } from '../pressEnter';

const FIX_COMMAND = 'parts.startBlocked.fix';

describe('parts: startBlockedPicker', () => {
  let ran: number;
  let registration: vscode.Disposable;

  // A command of the test's own stands in for Set Token, which would open an input box in the window.
  const blocked = {
    title: 'Nothing can be started: the app rejected the token',
    placeholder: 'Set the token the app shows',
    fixes: [
      { label: 'Set Token', command: FIX_COMMAND },
      { label: 'Show Log', command: `${FIX_COMMAND}.other` },
    ],
  } as unknown as BlockedStart;

  before(() => {
    registration = vscode.commands.registerCommand(FIX_COMMAND, async () => {
      await Promise.resolve();
      ran++;
    });
  });

  after(() => {
    registration.dispose();
  });

  beforeEach(() => {
    ran = 0;
  });

  it('lists the fixes as its only items under the title, and runs the one chosen before it resolves', async () => {
    const asked = await answering(() => offerStartFixes(blocked));

    assert.deepEqual(asked, [
      {
        title: 'Nothing can be started: the app rejected the token',
        items: ['Set Token', 'Show Log'],
        taken: 'Set Token',
      },
    ]);
    assert.equal(ran, 1);
  });

  it('runs nothing when left without a choice', async () => {
    const asked = await answering(
      () => offerStartFixes(blocked),
      () => 'no such item',
    );

    assert.equal(asked[0]?.taken, undefined);
    assert.equal(ran, 0);
  });
});
