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
  /**
   * Typed into the picker first, one letter every `keystrokeMs`, as a user types a name; the item
   * to accept is then looked for among what the picker lists after the last letter, once a search
   * still on the wire has answered.
   */
  readonly pickerTyping?: { readonly text: string; readonly keystrokeMs: number };
}

type Window = Record<'createQuickPick' | 'showInputBox', unknown>;

/** Runs `command` with the picker and the input boxes answering `answers`; restores them after. */
export async function withWizardAnswers<T>(answers: WizardAnswers, command: () => Thenable<T>): Promise<T> {
  const window = vscode.window as unknown as Window;
  const { createQuickPick, showInputBox } = window;
  const typed = [...answers.typed];
  window.createQuickPick = () => answeringQuickPick(answers.pick, answers.pickerTyping);
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
 * from the list at once, before a search answers; with `typing`, after typing it letter by letter.
 */
function answeringQuickPick(label: string, typing?: WizardAnswers['pickerTyping']): vscode.QuickPick<vscode.QuickPickItem> {
  const accepted = new vscode.EventEmitter<void>();
  const hidden = new vscode.EventEmitter<void>();
  const valueChanged = new vscode.EventEmitter<string>();
  let busy = false;
  let notBusy: (() => void) | undefined;
  const quickPick = {
    title: undefined as string | undefined,
    placeholder: undefined as string | undefined,
    matchOnDescription: false,
    get busy(): boolean {
      return busy;
    },
    set busy(value: boolean) {
      busy = value;
      if (!value) notBusy?.();
    },
    value: '',
    items: [] as readonly vscode.QuickPickItem[],
    selectedItems: [] as readonly vscode.QuickPickItem[],
    onDidAccept: accepted.event,
    onDidHide: hidden.event,
    onDidChangeValue: valueChanged.event,
    show: () => {
      const find = (): vscode.QuickPickItem | undefined => quickPick.items.find((candidate) => candidate.label === label);
      const choose = (item: vscode.QuickPickItem | undefined): void => {
        if (item) {
          quickPick.selectedItems = [item];
          accepted.fire();
        } else hidden.fire();
      };
      if (!typing) {
        const item = find();
        setTimeout(() => choose(item), 0);
        return;
      }
      void (async () => {
        for (const letter of typing.text) {
          await new Promise((resolve) => setTimeout(resolve, typing.keystrokeMs));
          quickPick.value += letter;
          valueChanged.fire(quickPick.value);
        }
        if (busy) await new Promise<void>((resolve) => (notBusy = resolve));
        choose(find());
      })();
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
