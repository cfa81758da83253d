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
    commands: { command: string; title: string; category?: string; enablement?: string }[];
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

const SEPARATOR = /[\s\-_/\\:.,;()[\]{}'"`<>|&!?…]/;

/**
 * Whether the palette's word filter lists `title` for `typed`: each typed character either follows
 * the one before in the title or starts a later word, from any word's start ("Un" + "link" finds
 * "Undo Linked Start"). A command the user ran lately is listed first ("recently used"), so another
 * command's whole title typed + Enter runs it instead when this holds.
 */
function wordsMatch(typed: string, title: string): boolean {
  const query = typed.toLowerCase();
  const target = title.toLowerCase();
  const starts = Array.from({ length: target.length }, (_, index) => index).filter(
    (index) => index === 0 || SEPARATOR.test(target[index - 1] ?? ''),
  );
  const failed = new Set<string>();
  const from = (i: number, j: number): boolean => {
    if (i === query.length) return true;
    if (j >= target.length || query[i] !== target[j] || failed.has(`${i},${j}`)) return false;
    const next = [j + 1, ...starts.filter((start) => start > j + 1)];
    if (next.some((k) => from(i + 1, k))) return true;
    failed.add(`${i},${j}`);
    return false;
  };
  return starts.some((start) => from(0, start));
}

/** Every command's title as the palette shows it in `language` ('' for English). */
function paletteTitles(language: string): { readonly command: string; readonly title: string }[] {
  const nls = JSON.parse(
    readFileSync(join(__dirname, '..', '..', '..', '..', `package.nls${language}.json`), 'utf8'),
  ) as Record<string, string>;
  const words = (value: string | undefined): string =>
    value === undefined ? '' : (nls[value.replace(/^%|%$/g, '')] ?? value);
  return manifest.contributes.commands.map(({ command, title, category }) => ({
    command,
    title: category === undefined ? words(title) : `${words(category)}: ${words(title)}`,
  }));
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
    const hidden = manifest.contributes.menus.commandPalette
      .filter((item) => item.when !== undefined && !hiddenOnPurpose.has(item.command))
      .map((item) => `${item.command}: ${item.when ?? ''}`);
    assert.deepEqual(hidden, []);
  });

  it('lists Log Time in every state: offline, with the integration gone, the entry queues', () => {
    const gone = { ...idle, [CONTEXT_KEYS.hasToken]: false, [CONTEXT_KEYS.tokenStored]: false };
    assert.equal(offered(COMMANDS.log, idle), true);
    assert.equal(offered(COMMANDS.log, gone), true);
  });

  it('lists the time-by-branch commands in every state: each says itself when the ledger is off or empty', () => {
    const gone = { ...idle, [CONTEXT_KEYS.hasToken]: false, [CONTEXT_KEYS.tokenStored]: false };
    for (const command of [
      COMMANDS.copyBranchSummary,
      COMMANDS.copyBranchSummaryMarkdown,
      COMMANDS.exportBranchTimeCsv,
      COMMANDS.clearBranchHistory,
    ]) {
      assert.ok(
        manifest.contributes.commands.some((item) => item.command === command),
        `${command} is contributed`,
      );
      for (const context of [idle, gone, { ...idle, [CONTEXT_KEYS.tracking]: true }])
        assert.equal(offered(command, context), true, command);
    }
  });

  it('disables no command, so that a keybinding always runs and says itself why it cannot act', () => {
    const disabled = manifest.contributes.commands
      .filter((item) => item.enablement !== undefined)
      .map((item) => item.command);
    assert.deepEqual(disabled, []);
  });

  it("lists no command for another command's whole title, in English and German: a recently used one would be first", () => {
    assert.equal(
      wordsMatch('Time Tracker: Unlink', 'Time Tracker: Undo Linked Start'),
      true,
      'the matcher finds what the palette found',
    );
    for (const language of ['', '.de']) {
      const titles = paletteTitles(language);
      const answered = titles.flatMap((typed) =>
        titles
          .filter((other) => other.command !== typed.command && wordsMatch(typed.title, other.title))
          .map((other) => `"${typed.title}" lists "${other.title}"`),
      );
      assert.deepEqual(answered, [], language || 'English');
    }
  });
});
