/**
 * Start Tracking's picker while nothing can be started (src/tracker/pickers/startBlocked.ts): the
 * reason in its title, what to do in its placeholder, the fixes as its only items, and no item for a
 * typed name. A QuickPick of its own, like the activity picker's, so that typing filters nothing away.
 */
import * as vscode from 'vscode';
import type { BlockedStart } from '../../tracker/pickers/startBlocked';
import { pickOne } from './pickOne';

/** Shows why nothing can be started; runs the fix chosen and resolves once it is done (at once when left). */
export async function offerStartFixes(blocked: BlockedStart): Promise<void> {
  // Whatever is typed, the fixes stay: a name typed here cannot be started.
  const items = blocked.fixes.map((fix) => ({ label: fix.label, value: fix, alwaysShow: true }));
  const chosen = await pickOne(items, { title: blocked.title, placeholder: blocked.placeholder });
  if (chosen) await vscode.commands.executeCommand(chosen.command);
}
