/**
 * Answers the status bar menu (Show Menu, the item's click) as a user would: the extension shares
 * this `vscode.window` with the tests (see ../soak/spy.ts), so replacing its showQuickPick for
 * one command sees what the menu offered and picks the entry that runs `command`, the way
 * ./wizardAnswers.ts answers the activity picker. No test-only API in the extension.
 */
import * as vscode from 'vscode';

export interface OfferedMenu {
  /** The entries' labels, details and commands, in the order shown. */
  readonly entries: readonly {
    readonly label: string;
    readonly detail?: string | undefined;
    readonly command: string;
  }[];
  readonly placeholder: string | undefined;
}

type Window = Record<'showQuickPick', unknown>;

/**
 * Runs `run` with the next quick pick shown answered by the entry that runs `command` (none
 * when no entry does, or `command` is undefined: the menu is closed); what it offered is returned.
 */
export async function withMenuChoice(command: string | undefined, run: () => Thenable<unknown>): Promise<OfferedMenu> {
  const window = vscode.window as unknown as Window;
  const { showQuickPick } = window;
  let offered: OfferedMenu | undefined;
  window.showQuickPick = async (
    items: Thenable<readonly vscode.QuickPickItem[]> | readonly vscode.QuickPickItem[],
    options?: vscode.QuickPickOptions,
  ) => {
    // One menu only: a picker the chosen command opens is its own.
    window.showQuickPick = showQuickPick;
    const shown = (await items) as readonly (vscode.QuickPickItem & { readonly command?: string })[];
    offered = {
      entries: shown.map(({ label, detail, command }) => ({ label, detail, command: command ?? '' })),
      placeholder: options?.placeHolder,
    };
    return shown.find((item) => item.command === command);
  };
  try {
    await run();
  } finally {
    window.showQuickPick = showQuickPick;
  }
  if (offered === undefined) throw new Error('no menu was shown');
  return offered;
}

/** The commands of the menu's entries, without the `timeTracker.` prefix, in order. */
export const commandsOf = (menu: OfferedMenu): string[] =>
  menu.entries.map(({ command }) => command.replace(/^timeTracker\./, ''));
