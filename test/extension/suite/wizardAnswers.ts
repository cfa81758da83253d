/**
 * Answers the extension's activity picker and input boxes as a user would, so a test can walk a
 * command's steps (Log Time: activity, duration, note) without a keybinding's arguments. The
 * extension shares this `vscode.window` with the tests (see ../soak/spy.ts), so replacing its
 * createQuickPick and showInputBox for one command is what the extension's steps call. What each
 * picker showed (its placeholder and items, when it opened and when the item was looked for) and
 * every notification shown while it was open are recorded, for tests of what the user read.
 */
import * as vscode from 'vscode';
import { NotificationSpy, type Shown } from '../soak/spy';

/** What a picker showed at one moment. */
export interface PickerView {
  readonly placeholder: string | undefined;
  readonly items: readonly { readonly label: string; readonly description: string | undefined; readonly separator: boolean }[];
}

/** One picker, as the user met it. */
export interface PickerSeen {
  /** When it opened: what the extension set before showing it. */
  readonly opened: PickerView;
  /** When the item to accept was looked for (after the typing, once a search on the wire answered). */
  readonly chosenFrom: PickerView;
  /** The notifications shown while it was open (one behind a picker goes unseen). */
  readonly notificationsWhileOpen: readonly Shown[];
}

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
  /** Each picker shown is added here once it closes. */
  readonly seen?: PickerSeen[];
}

type Window = Record<'createQuickPick' | 'showInputBox', unknown>;

/** Runs `command` with the picker and the input boxes answering `answers`; restores them after. */
export async function withWizardAnswers<T>(answers: WizardAnswers, command: () => Thenable<T>): Promise<T> {
  const window = vscode.window as unknown as Window;
  const { createQuickPick, showInputBox } = window;
  const typed = [...answers.typed];
  window.createQuickPick = () => answeringQuickPick(answers.pick, answers.pickerTyping, answers.seen);
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
function answeringQuickPick(label: string, typing?: WizardAnswers['pickerTyping'], seen?: PickerSeen[]): vscode.QuickPick<vscode.QuickPickItem> {
  const accepted = new vscode.EventEmitter<void>();
  const hidden = new vscode.EventEmitter<void>();
  const valueChanged = new vscode.EventEmitter<string>();
  let busy = false;
  let notBusy: (() => void) | undefined;
  let spy: NotificationSpy | undefined;
  let opened: PickerView | undefined;
  let chosenFrom: PickerView | undefined;
  const view = (): PickerView => ({
    placeholder: quickPick.placeholder,
    items: quickPick.items.map((item) => ({ label: item.label, description: item.description, separator: item.kind === vscode.QuickPickItemKind.Separator })),
  });
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
      opened = view();
      spy = new NotificationSpy();
      const find = (): vscode.QuickPickItem | undefined => quickPick.items.find((candidate) => candidate.label === label);
      const choose = (item: vscode.QuickPickItem | undefined, from: PickerView): void => {
        chosenFrom = from;
        if (item) {
          quickPick.selectedItems = [item];
          accepted.fire();
        } else quickPick.hide();
      };
      if (!typing) {
        const [item, from] = [find(), view()];
        setTimeout(() => choose(item, from), 0);
        return;
      }
      void (async () => {
        for (const letter of typing.text) {
          await new Promise((resolve) => setTimeout(resolve, typing.keystrokeMs));
          quickPick.value += letter;
          valueChanged.fire(quickPick.value);
        }
        if (busy) await new Promise<void>((resolve) => (notBusy = resolve));
        choose(find(), view());
      })();
    },
    hide: () => {
      if (spy === undefined) return;
      seen?.push({ opened: opened ?? view(), chosenFrom: chosenFrom ?? view(), notificationsWhileOpen: [...spy.shown] });
      spy.dispose();
      spy = undefined;
      hidden.fire();
    },
    dispose: () => {
      accepted.dispose();
      hidden.dispose();
      valueChanged.dispose();
    },
  };
  return quickPick as unknown as vscode.QuickPick<vscode.QuickPickItem>;
}
