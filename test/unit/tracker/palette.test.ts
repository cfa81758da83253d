/**
 * What the Command Palette offers in each state, read from package.json's `when` and `enablement`
 * clauses: a hidden command's title typed + Enter runs the closest command VS Code still lists
 * (a hidden Stop Tracking ran Start Tracking; a hidden Start, with the app away, Log Time). So no
 * command is hidden in any state: each says itself why it cannot act (Stop when nothing runs, Start
 * when the app is not running, Clear Token when none is stored, the link commands without a
 * folder). And none is disabled: a disabled command's keybinding does nothing, without a word.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS, CONTEXT_KEYS } from '../../../src/tracker/ids';

interface Manifest {
  contributes: {
    commands: { command: string; enablement?: string }[];
    menus: { commandPalette: { command: string; when?: string }[] };
  };
}

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as Manifest;

/** A clause of `key`, `!key` and `&&` (all the manifest uses), for the context keys set to `context`. */
function holds(clause: string | undefined, context: Readonly<Record<string, boolean>>): boolean {
  if (clause === undefined) return true;
  return clause.split('&&').every((term) => {
    const text = term.trim();
    assert.match(text, /^!?[\w.]+$/, `a clause this test cannot read: ${clause}`);
    return text.startsWith('!') ? !context[text.slice(1)] : context[text] === true;
  });
}

/** Listed in the palette and enabled there. */
function offered(command: string, context: Readonly<Record<string, boolean>>): boolean {
  const when = manifest.contributes.menus.commandPalette.find((item) => item.command === command)?.when;
  const enablement = manifest.contributes.commands.find((item) => item.command === command)?.enablement;
  return holds(when, context) && holds(enablement, context);
}

describe('tracker: the Command Palette', () => {
  const idle = { [CONTEXT_KEYS.hasToken]: true, [CONTEXT_KEYS.tokenStored]: true, [CONTEXT_KEYS.tracking]: false };

  it('offers Stop Tracking while nothing runs, as well as while something does', () => {
    assert.equal(offered(COMMANDS.stop, idle), true);
    assert.equal(offered(COMMANDS.stop, { ...idle, [CONTEXT_KEYS.tracking]: true }), true);
  });

  it('lists Start and Stop in every state, also without a way to the app: each says itself why it cannot act', () => {
    const gone = { ...idle, [CONTEXT_KEYS.hasToken]: false, [CONTEXT_KEYS.tokenStored]: false };
    for (const command of [COMMANDS.start, COMMANDS.stop]) {
      assert.equal(offered(command, idle), true, command);
      assert.equal(offered(command, gone), true, command);
    }
  });

  it('hides no command in any state, so that a title typed + Enter never runs a similar one instead', () => {
    // Undo Linked Start only has something to take back right after a linked start; the notice, the
    // menu and the tooltip offer it then.
    const hiddenOnPurpose = new Set<string>([COMMANDS.undoLink]);
    const hidden = manifest.contributes.menus.commandPalette.filter((item) => item.when !== undefined && !hiddenOnPurpose.has(item.command)).map((item) => `${item.command}: ${item.when ?? ''}`);
    assert.deepEqual(hidden, []);
  });

  it('lists Log Time in every state: offline, with the integration gone, the entry queues', () => {
    const gone = { ...idle, [CONTEXT_KEYS.hasToken]: false, [CONTEXT_KEYS.tokenStored]: false };
    assert.equal(offered(COMMANDS.log, idle), true);
    assert.equal(offered(COMMANDS.log, gone), true);
  });

  it('lists the time-by-branch commands in every state: each says itself when the ledger is off or empty', () => {
    const gone = { ...idle, [CONTEXT_KEYS.hasToken]: false, [CONTEXT_KEYS.tokenStored]: false };
    for (const command of [COMMANDS.copyBranchSummary, COMMANDS.copyBranchSummaryMarkdown, COMMANDS.exportBranchTimeCsv, COMMANDS.clearBranchHistory]) {
      assert.ok(manifest.contributes.commands.some((item) => item.command === command), `${command} is contributed`);
      for (const context of [idle, gone, { ...idle, [CONTEXT_KEYS.tracking]: true }]) assert.equal(offered(command, context), true, command);
    }
  });

  it('disables no command, so that a keybinding always runs and says itself why it cannot act', () => {
    const disabled = manifest.contributes.commands.filter((item) => item.enablement !== undefined).map((item) => item.command);
    assert.deepEqual(disabled, []);
  });
});
