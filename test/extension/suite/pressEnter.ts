/**
 * Answers the questions a command asks as a user pressing Enter would, and records what was
 * offered: a quick pick made with `createQuickPick` takes its active item (VS Code makes the first
 * item active unless the extension chose one), and a modal warning takes its first button (the one
 * VS Code's dialog focuses; its Cancel always comes last). `choose` picks another item by label
 * instead. The extension shares this `vscode.window`, so the stand-ins see every question; the
 * originals are put back whatever the step does.
 */
import * as vscode from 'vscode';

/** A question as offered: its title (or message), its items (or buttons), and the one Enter took. */
export interface Asked {
  readonly title: string;
  /** A modal warning's detail, under its message. */
  readonly detail?: string;
  readonly items: readonly string[];
  readonly taken: string | undefined;
}

/** Runs `run` answering every question with Enter, or with the item whose label `choose` names. */
export async function answering(
  run: () => Thenable<unknown>,
  choose?: (labels: readonly string[]) => string | undefined,
): Promise<Asked[]> {
  const window = vscode.window as unknown as Record<string, unknown>;
  const originals = { createQuickPick: window.createQuickPick, showWarningMessage: window.showWarningMessage };
  const asked: Asked[] = [];
  window.createQuickPick = () => fakePick(asked, choose);
  window.showWarningMessage = (message: string, ...rest: unknown[]) => {
    const buttons = rest.filter((item): item is string => typeof item === 'string');
    const taken = choose?.(buttons) ?? buttons[0];
    const { detail } = (rest.find((item) => typeof item === 'object' && item !== null) ?? {}) as { detail?: string };
    asked.push({ title: message, items: buttons, taken, ...(detail === undefined ? {} : { detail }) });
    return Promise.resolve(taken);
  };
  try {
    await run();
  } finally {
    Object.assign(window, originals);
  }
  return asked;
}

/** The part of a QuickPick the commands use; `show` records it and accepts at once. */
function fakePick(asked: Asked[], choose: ((labels: readonly string[]) => string | undefined) | undefined): unknown {
  const accepted = new vscode.EventEmitter<void>();
  const hidden = new vscode.EventEmitter<void>();
  const pick = {
    title: '',
    placeholder: '',
    items: [] as readonly vscode.QuickPickItem[],
    activeItems: [] as readonly vscode.QuickPickItem[],
    selectedItems: [] as readonly vscode.QuickPickItem[],
    onDidAccept: accepted.event,
    onDidHide: hidden.event,
    show(): void {
      const labels = pick.items.map((item) => item.label);
      const chosen = choose?.(labels);
      const taken =
        chosen === undefined
          ? (pick.activeItems[0] ?? pick.items[0])
          : pick.items.find((item) => item.label === chosen);
      asked.push({ title: pick.title, items: labels, taken: taken?.label });
      pick.selectedItems = taken === undefined ? [] : [taken];
      queueMicrotask(() => accepted.fire());
    },
    hide: () => hidden.fire(),
    dispose(): void {
      accepted.dispose();
      hidden.dispose();
    },
  };
  return pick;
}
