/**
 * The "Time by Branch" view's menus and welcome text, as package.json contributes them: a row's
 * context menu copies what is under the pointer and never clears, Clear History and Export sit in
 * the title's overflow menu, and the empty view says what fills it and offers Start Tracking.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS, CONTEXT_KEYS, VIEWS } from '../../../../src/tracker/ids';

interface MenuItem {
  readonly command: string;
  readonly when?: string;
  readonly group?: string;
}

interface Manifest {
  contributes: {
    menus: Record<string, MenuItem[]>;
    viewsWelcome: { view: string; contents: string; when?: string }[];
  };
}

const root = join(__dirname, '..', '..', '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
const texts = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const ROW_KINDS = ['branchTimePeriod', 'branchTimeRepository', 'branchTimeBranch'];

/** The `when` clauses of this manifest's view menus: `a == b`, `a =~ /re/` and `!key`, joined by `&&`. */
function holds(clause: string | undefined, context: Readonly<Record<string, string | boolean>>): boolean {
  if (clause === undefined) return true;
  return clause.split('&&').every((term) => {
    const text = term.trim();
    const equals = /^([\w.]+) == ([\w.]+)$/.exec(text);
    if (equals) return context[equals[1]!] === equals[2];
    const matches = /^([\w.]+) =~ \/(.+)\/$/.exec(text);
    if (matches) return new RegExp(matches[2]!).test(String(context[matches[1]!] ?? ''));
    assert.match(text, /^!?[\w.]+$/, `a clause this test cannot read: ${clause}`);
    return text.startsWith('!') ? context[text.slice(1)] !== true : context[text] === true;
  });
}

const shown = (menu: string, context: Readonly<Record<string, string | boolean>>): MenuItem[] =>
  manifest.contributes.menus[menu]!.filter((item) => holds(item.when, context));

describe('tracker/branchTime: the Time by Branch view in package.json', () => {
  it("offers Copy Summary, plain and Markdown, on a period's, a repository's and a branch's row, and never Clear History there", () => {
    for (const viewItem of ROW_KINDS) {
      const commands = shown('view/item/context', { view: VIEWS.branchTime, viewItem })
        .filter((item) => item.group !== undefined && !item.group.startsWith('inline'))
        .map((item) => item.command);
      assert.deepEqual(commands, [COMMANDS.copyBranchSummary, COMMANDS.copyBranchSummaryMarkdown], viewItem);
    }
    assert.equal(
      manifest.contributes.menus['view/item/context']!.some((item) => item.command === COMMANDS.clearBranchHistory),
      false,
    );
  });

  it("puts Copy Week by Ticket, Export and Clear History in the title's overflow menu, Clear History last", () => {
    const title = shown('view/title', { view: VIEWS.branchTime });
    const overflow = title.filter((item) => !item.group?.startsWith('navigation')).map((item) => item.command);
    assert.deepEqual(overflow, [
      COMMANDS.copyWeekByTicket,
      COMMANDS.copyWeekByTicketMarkdown,
      COMMANDS.exportBranchTimeCsv,
      COMMANDS.clearBranchHistory,
    ]);
  });

  it('says in the empty view what fills it, and offers Start Tracking only while nothing is tracked, not the settings', () => {
    const welcome = (tracking: boolean): string =>
      manifest.contributes.viewsWelcome
        .filter(
          (item) =>
            item.view === VIEWS.branchTime &&
            holds(item.when, { [CONTEXT_KEYS.branchTimeOff]: false, [CONTEXT_KEYS.tracking]: tracking }),
        )
        .map((item) => texts[item.contents.slice(1, -1)] ?? '')
        .join('\n');
    assert.match(welcome(false), /tracks an activity and this editor is open on a repository's branch/);
    assert.match(welcome(false), /\(command:timeTracker\.start\)/);
    assert.doesNotMatch(welcome(true), /command:timeTracker\.start/);
    assert.doesNotMatch(welcome(false), /openSettings/);
  });
});
