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
  readonly title?: string | undefined;
  readonly placeholder: string | undefined;
  readonly items: readonly {
    readonly label: string;
    readonly description: string | undefined;
    readonly detail?: string | undefined;
    readonly separator: boolean;
  }[];
}

/** One picker, as the user met it. */
export interface PickerSeen {
  /** When it opened: what the extension set before showing it. */
  readonly opened: PickerView;
  /** When the item to accept was looked for (after the typing, once a search on the wire answered). */
  readonly chosenFrom: PickerView;
  /** The notifications shown while it was open (one behind a picker goes unseen). */
  readonly notificationsWhileOpen: readonly Shown[];
  /** With `dismissIfOpen`: whether the picker was still open after the item was accepted. */
  readonly stayedOpen?: boolean;
}

export interface WizardAnswers {
  /** The label of the picker's item to accept, once the picker shows its list. */
  readonly pick: string;
  /**
   * What is typed into the input boxes, in order, each value followed by Enter. As in VS Code, a
   * value the box's validateInput refuses (an error) leaves the box open, and the next value is
   * typed into the same box; a box beyond them is closed (undefined).
   */
  readonly typed: readonly Typed[];
  /** Where each input box opened is recorded, with what it offered. */
  readonly boxes?: Box[];
  /** Where each value typed into a box with validateInput is recorded with what the box said about it. */
  readonly validations?: Validation[];
  /**
   * Typed into the picker first, one letter every `keystrokeMs`, as a user types a name; the item
   * to accept is then looked for among what the picker lists after the last letter, once a search
   * still on the wire has answered.
   */
  readonly pickerTyping?: { readonly text: string; readonly keystrokeMs: number };
  /** Each picker shown is added here once it closes. */
  readonly seen?: PickerSeen[];
  /** A picker that stays open once the item is accepted (it refused it) is then dismissed, as the user would. */
  readonly dismissIfOpen?: true;
}

/** A value typed into a box: as given, or made from what the box offered (its `value`), as a user edits it. */
export type Typed = string | ((offered: string) => string);

/** An input box as it opened. */
export interface Box {
  readonly title: string | undefined;
  readonly prompt: string | undefined;
  readonly value: string | undefined;
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
  window.createQuickPick = () =>
    answeringQuickPick(answers.pick, answers.pickerTyping, answers.seen, answers.dismissIfOpen === true);
  window.showInputBox = (options?: vscode.InputBoxOptions) => {
    answers.boxes?.push({ title: options?.title, prompt: options?.prompt, value: options?.value });
    return answerInputBox(typed, options, answers.validations);
  };
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
async function answerInputBox(
  typed: Typed[],
  options: vscode.InputBoxOptions | undefined,
  validations: Validation[] | undefined,
): Promise<string | undefined> {
  for (let next = typed.shift(); next !== undefined; next = typed.shift()) {
    const value = typeof next === 'string' ? next : next(options?.value ?? '');
    const said = await options?.validateInput?.(value);
    const message = typeof said === 'string' ? said : (said?.message ?? undefined);
    const severity =
      message === undefined || message === ''
        ? undefined
        : typeof said === 'string'
          ? 'error'
          : severityName(said?.severity);
    const accepted = severity !== 'error';
    if (options?.validateInput)
      validations?.push({ value, message: message === '' ? undefined : message, severity, accepted });
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
function answeringQuickPick(
  label: string,
  typing?: WizardAnswers['pickerTyping'],
  seen?: PickerSeen[],
  dismissIfOpen = false,
): vscode.QuickPick<vscode.QuickPickItem> {
  const accepted = new vscode.EventEmitter<void>();
  const hidden = new vscode.EventEmitter<void>();
  const valueChanged = new vscode.EventEmitter<string>();
  let busy = false;
  let notBusy: (() => void) | undefined;
  let spy: NotificationSpy | undefined;
  let opened: PickerView | undefined;
  let chosenFrom: PickerView | undefined;
  let stayedOpen: boolean | undefined;
  const view = (): PickerView => ({
    title: quickPick.title,
    placeholder: quickPick.placeholder,
    items: quickPick.items.map((item) => ({
      label: item.label,
      description: item.description,
      detail: item.detail,
      separator: item.kind === vscode.QuickPickItemKind.Separator,
    })),
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
      const find = (): vscode.QuickPickItem | undefined =>
        quickPick.items.find((candidate) => candidate.label === label);
      const choose = (item: vscode.QuickPickItem | undefined, from: PickerView): void => {
        chosenFrom = from;
        if (item) {
          quickPick.selectedItems = [item];
          accepted.fire();
          // The extension hides a picker whose item it takes at once, in its accept handler.
          if (dismissIfOpen) stayedOpen = spy !== undefined;
          if (stayedOpen === true) quickPick.hide();
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
      seen?.push({
        opened: opened ?? view(),
        chosenFrom: chosenFrom ?? view(),
        notificationsWhileOpen: [...spy.shown],
        ...(stayedOpen === undefined ? {} : { stayedOpen }),
      });
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
