/** A quick pick of a few fixed items that resolves to the one chosen, for the questions commands ask. */
import * as vscode from 'vscode';

export interface Choice<T> extends vscode.QuickPickItem {
  readonly value: T;
}

/** The one item chosen (Enter takes the active one), or undefined when the pick was closed. */
export function pickOne<T>(
  items: readonly Choice<T>[],
  options: { readonly title: string; readonly placeholder: string; readonly active?: T },
): Promise<T | undefined> {
  const pick = vscode.window.createQuickPick<Choice<T>>();
  pick.title = options.title;
  pick.placeholder = options.placeholder;
  pick.items = items;
  const active = items.find((item) => item.value === options.active);
  if (active) pick.activeItems = [active];
  return new Promise((resolve) => {
    let chosen: T | undefined;
    pick.onDidAccept(() => {
      chosen = (pick.selectedItems[0] ?? pick.activeItems[0])?.value;
      pick.hide();
    });
    pick.onDidHide(() => {
      pick.dispose();
      resolve(chosen);
    });
    pick.show();
  });
}
