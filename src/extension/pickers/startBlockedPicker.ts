/**
 * Start Tracking's picker while nothing can be started (src/tracker/pickers/startBlocked.ts): the
 * reason in its placeholder, the fixes as its only items, and no item for a typed name. A QuickPick
 * of its own, like the activity picker's, so that typing filters nothing away and the same title
 * tells the user which command they are in.
 */
import * as vscode from 'vscode';
import type { BlockedStart, StartFix } from '../../tracker/pickers/startBlocked';

interface FixItem extends vscode.QuickPickItem {
  readonly fix: StartFix;
}

/** Shows why nothing can be started; runs the fix chosen and resolves once it is done (at once when left). */
export async function offerStartFixes(title: string, blocked: BlockedStart): Promise<void> {
  const quickPick = vscode.window.createQuickPick<FixItem>();
  quickPick.title = title;
  quickPick.placeholder = blocked.placeholder;
  // Whatever is typed, the fixes stay: a name typed here cannot be started.
  quickPick.items = blocked.fixes.map((fix) => ({ label: fix.label, fix, alwaysShow: true }));
  const chosen = await new Promise<StartFix | undefined>((resolve) => {
    let fix: StartFix | undefined;
    quickPick.onDidAccept(() => {
      fix = quickPick.selectedItems[0]?.fix;
      quickPick.hide();
    });
    quickPick.onDidHide(() => {
      quickPick.dispose();
      resolve(fix);
    });
    quickPick.show();
  });
  if (chosen) await vscode.commands.executeCommand(chosen.command);
}
