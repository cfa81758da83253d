/**
 * Answers the extension's activity picker and input boxes as a user would, so a test can walk a
 * command's steps (Log Time: activity, duration, note) without a keybinding's arguments. The
 * extension shares this `vscode.window` with the tests (see ../soak/spy.ts), so replacing its
 * createQuickPick and showInputBox for one command is what the extension's steps call.
 */
import * as vscode from 'vscode';

export interface WizardAnswers {
  /** The label of the picker's item to accept, once the picker shows its list. */
  readonly pick: string;
  /** What is typed into each input box, in order; a box beyond them is closed (undefined). */
  readonly typed: readonly string[];
}

type Window = Record<'createQuickPick' | 'showInputBox', unknown>;

/** Runs `command` with the picker and the input boxes answering `answers`; restores them after. */
export async function withWizardAnswers<T>(answers: WizardAnswers, command: () => Thenable<T>): Promise<T> {
  const window = vscode.window as unknown as Window;
  const { createQuickPick, showInputBox } = window;
  const typed = [...answers.typed];
  window.createQuickPick = () => answeringQuickPick(answers.pick);
  window.showInputBox = () => Promise.resolve(typed.shift());
  try {
    return await command();
  } finally {
    window.createQuickPick = createQuickPick;
    window.showInputBox = showInputBox;
  }
}

/**
 * A QuickPick that, once shown, accepts the item labelled `label` among those the extension put
 * in its list before showing it (hides without a choice when there is none), as a user picking
 * from the list at once, before a search answers.
 */
function answeringQuickPick(label: string): vscode.QuickPick<vscode.QuickPickItem> {
  const accepted = new vscode.EventEmitter<void>();
  const hidden = new vscode.EventEmitter<void>();
  const valueChanged = new vscode.EventEmitter<string>();
  const quickPick = {
    title: undefined as string | undefined,
    placeholder: undefined as string | undefined,
    matchOnDescription: false,
    busy: false,
    items: [] as readonly vscode.QuickPickItem[],
    selectedItems: [] as readonly vscode.QuickPickItem[],
    onDidAccept: accepted.event,
    onDidHide: hidden.event,
    onDidChangeValue: valueChanged.event,
    show: () => {
      const item = quickPick.items.find((candidate) => candidate.label === label);
      setTimeout(() => {
        if (item) {
          quickPick.selectedItems = [item];
          accepted.fire();
        } else hidden.fire();
      }, 0);
    },
    hide: () => hidden.fire(),
    dispose: () => {
      accepted.dispose();
      hidden.dispose();
      valueChanged.dispose();
    },
  };
  return quickPick as unknown as vscode.QuickPick<vscode.QuickPickItem>;
}
