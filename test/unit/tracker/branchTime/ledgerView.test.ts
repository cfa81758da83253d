import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTEXT_KEYS, VIEWS } from '../../../../src/tracker/ids';
import { ledgerViewContent } from '../../../../src/tracker/branchTime/ledgerView';

describe('tracker/branchTime/ledgerView: what the Time by Branch view holds', () => {
  it('shows the three periods while on, not private and with time', () => {
    assert.deepEqual(ledgerViewContent({ enabled: true, isPrivate: false, hasTime: true }), {
      kind: 'periods',
      periods: ['today', 'thisWeek', 'lastWeek'],
    });
  });

  it('holds nothing while the status bar is private, with or without time, and says it is hidden', () => {
    assert.deepEqual(ledgerViewContent({ enabled: true, isPrivate: true, hasTime: true }), {
      kind: 'hiddenWhilePrivate',
    });
    assert.deepEqual(ledgerViewContent({ enabled: true, isPrivate: true, hasTime: false }), {
      kind: 'hiddenWhilePrivate',
    });
  });

  it('says it is off when it is off, private or not, and empty when no time was recorded', () => {
    assert.deepEqual(ledgerViewContent({ enabled: false, isPrivate: true, hasTime: true }), { kind: 'off' });
    assert.deepEqual(ledgerViewContent({ enabled: false, isPrivate: false, hasTime: true }), { kind: 'off' });
    assert.deepEqual(ledgerViewContent({ enabled: true, isPrivate: false, hasTime: false }), { kind: 'empty' });
  });
});

describe("package.json's welcome texts of the Time by Branch view", () => {
  interface Welcome {
    readonly view: string;
    readonly contents: string;
    readonly when: string;
  }
  const root = join(__dirname, '..', '..', '..', '..', '..');
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    contributes: { viewsWelcome: Welcome[] };
  };
  const texts = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
  const welcomes = manifest.contributes.viewsWelcome.filter((welcome) => welcome.view === VIEWS.branchTime);
  /** VS Code's `when` for the clauses used here: terms joined by `&&`, each maybe negated by `!`. */
  const holds = (when: string, context: Record<string, boolean>): boolean =>
    when.split('&&').every((term) => {
      const name = term.trim().replace(/^!/, '');
      assert.ok(name in context, `${when}: ${name} is not known here`);
      return term.trim().startsWith('!') ? !context[name] : context[name];
    });

  it('shows exactly one text for each empty view, the one that says it is hidden while private, with the toggle', () => {
    for (const enabled of [false, true]) {
      for (const isPrivate of [false, true]) {
        const content = ledgerViewContent({ enabled, isPrivate, hasTime: false });
        // While something is tracked: the empty view's Start Tracking (tracker/branchTime/branchTimeMenus.test.ts) is
        // not added.
        const context = {
          [CONTEXT_KEYS.branchTimeOff]: !enabled,
          [CONTEXT_KEYS.branchTimeHidden]: content.kind === 'hiddenWhilePrivate',
          [CONTEXT_KEYS.tracking]: true,
        };
        const shown = welcomes
          .filter((welcome) => holds(welcome.when, context))
          .map((welcome) => texts[welcome.contents.slice(1, -1)] ?? welcome.contents);
        assert.equal(shown.length, 1, `${content.kind}: ${shown.join(' | ')}`);
        const [text = ''] = shown;
        if (content.kind === 'hiddenWhilePrivate') {
          assert.match(text, /hidden while the status bar is private/);
          assert.match(text, /\(command:timeTracker\.togglePrivateStatusBar\)/);
        } else {
          assert.doesNotMatch(text, /private/);
        }
      }
    }
  });
});
