import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

type Parsed = { kind: 'run'; options: Record<string, unknown> } | { kind: 'help' } | { kind: 'error'; message: string };
interface Plan {
  parseStartArgs: (argv: readonly string[], languages?: readonly string[]) => Parsed;
  startLanguages: (names: { root: readonly string[]; l10n: readonly string[] }) => string[];
  desktopArgs: (options: { repoRoot: string; userDataDir: string; extensionsDir: string; locale?: string }) => string[];
}

const repoRoot = join(__dirname, '..', '..', '..', '..');
// scripts/ is plain ESM that tsc does not compile; imported as npm start imports it.
const plan = async (): Promise<Plan> =>
  (await import(pathToFileURL(join(repoRoot, 'scripts', 'start', 'plan.mjs')).href)) as Plan;

describe('start/plan: npm start -- --lang', () => {
  it('is English unless --lang names one of the languages given', async () => {
    const { parseStartArgs } = await plan();
    assert.deepEqual(parseStartArgs([], ['en', 'de']), {
      kind: 'run',
      options: { desktop: false, lang: 'en', build: true, restricted: false, verbose: false },
    });
    const restricted = parseStartArgs(['--restricted'], ['en', 'de']);
    assert.equal(restricted.kind === 'run' && restricted.options['restricted'], true);
    for (const argv of [['--lang', 'de'], ['--lang=de']]) {
      const parsed = parseStartArgs(argv, ['en', 'de']);
      assert.equal(parsed.kind === 'run' && parsed.options['lang'], 'de', argv.join(' '));
    }
  });

  it('refuses a language the extension has not, naming those it has; and --lang without a value', async () => {
    const { parseStartArgs } = await plan();
    assert.deepEqual(parseStartArgs(['--lang', 'fr'], ['en', 'de']), {
      kind: 'error',
      message: '--lang "fr" is not a language of the extension; it has en, de.',
    });
    assert.deepEqual(parseStartArgs(['--lang', 'DE'], ['en', 'de']).kind, 'error');
    const missing = parseStartArgs(['--lang'], ['en', 'de']);
    assert.ok(missing.kind === 'error', JSON.stringify(missing));
    assert.match(missing.message, /--lang.*; run `npm start -- --help` for the options\.$/);
  });

  it('offers English and each language with both a manifest and a runtime translation', async () => {
    const { startLanguages } = await plan();
    const root = ['package.json', 'package.nls.json', 'package.nls.de.json', 'package.nls.fr.json'];
    const l10n = ['bundle.l10n.json', 'bundle.l10n.de.json', 'bundle.l10n.pt-br.json', 'export.mjs'];
    assert.deepEqual(startLanguages({ root, l10n }), ['en', 'de']);
    assert.deepEqual(startLanguages({ root: ['package.nls.json'], l10n: ['bundle.l10n.json'] }), ['en']);
  });

  it('gives a desktop VS Code --locale for a language but English, and nothing more for English', async () => {
    const { desktopArgs } = await plan();
    const dirs = { repoRoot: '/r', userDataDir: '/u', extensionsDir: '/e' };
    assert.deepEqual(desktopArgs({ ...dirs, locale: 'de' }), ['--locale', 'de', ...desktopArgs(dirs)]);
    assert.ok(!desktopArgs({ ...dirs, locale: 'en' }).includes('--locale'));
  });
});
