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
  /**
   * What is typed into the input boxes, in order, each value followed by Enter. As in VS Code, a
   * value the box's validateInput refuses (an error) leaves the box open, and the next value is
   * typed into the same box; a box beyond them is closed (undefined).
   */
  readonly typed: readonly string[];
  /** Where each value typed into a box with validateInput is recorded with what the box said about it. */
  readonly validations?: Validation[];
  /**
   * Typed into the picker first, one letter every `keystrokeMs`, as a user types a name; the item
   * to accept is then looked for among what the picker lists after the last letter, once a search
   * still on the wire has answered.
   */
  readonly pickerTyping?: { readonly text: string; readonly keystrokeMs: number };
}

/** What an input box's validateInput said about a typed value, and whether Enter took the value. */
export interface Validation {
  readonly value: string;
  /** The message shown under the box; undefined when none. */
  readonly message: string | undefined;
  readonly severity: 'info' | 'warning' | 'error' | undefined;
  readonly accepted: boolean;
}

type Window = Record<'createQuickPick' | 'showInputBox', unknown>;

/** Runs `command` with the picker and the input boxes answering `answers`; restores them after. */
export async function withWizardAnswers<T>(answers: WizardAnswers, command: () => Thenable<T>): Promise<T> {
  const window = vscode.window as unknown as Window;
  const { createQuickPick, showInputBox } = window;
  const typed = [...answers.typed];
  window.createQuickPick = () => answeringQuickPick(answers.pick, answers.pickerTyping);
  window.showInputBox = (options?: vscode.InputBoxOptions) => answerInputBox(typed, options, answers.validations);
  try {
    return await command();
  } finally {
    window.createQuickPick = createQuickPick;
    window.showInputBox = showInputBox;
  }
}

/**
 * One input box: types the next values into it, each followed by Enter, until one is taken. Enter
 * is refused, as VS Code refuses it, while validateInput answers an error (a plain string is one).
 */
async function answerInputBox(typed: string[], options: vscode.InputBoxOptions | undefined, validations: Validation[] | undefined): Promise<string | undefined> {
  for (let value = typed.shift(); value !== undefined; value = typed.shift()) {
    const said = await options?.validateInput?.(value);
    const message = typeof said === 'string' ? said : (said?.message ?? undefined);
    const severity = message === undefined || message === '' ? undefined : typeof said === 'string' ? 'error' : severityName(said?.severity);
    const accepted = severity !== 'error';
    if (options?.validateInput) validations?.push({ value, message: message === '' ? undefined : message, severity, accepted });
    if (accepted) return value;
  }
  return undefined;
}

function severityName(severity: vscode.InputBoxValidationSeverity | undefined): Validation['severity'] {
  switch (severity) {
    case vscode.InputBoxValidationSeverity.Info:
      return 'info';
    case vscode.InputBoxValidationSeverity.Warning:
      return 'warning';
    default:
      return 'error';
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
