import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..', '..');

/**
 * What l10n/README.md's glossary rules out, each with the word to use: one word for an activity
 * and one for the app, so that "Zeiterfassung" is only ever the act of tracking time. The
 * phrases are where the app was once called "Zeiterfassung" (it answers, refuses, has a license,
 * one connects to it); "Zeiterfassung starten" and "Zeiterfassungs-App" stay.
 */
const FORBIDDEN: readonly (readonly [RegExp, string])[] = [
  [/Tätigkeit/, 'an activity is "Aktivität"'],
  [/\bAnwendung/, 'the application is "die App"'],
  [/Desktop-Zeiterfassung|Zeiterfassungs-Anwendung/, 'the application is "die App" or "die Zeiterfassungs-App"'],
  [/\b[Dd]ie Zeiterfassung (antwortet|hat|lehnt|ist|wird gefragt)\b/, 'what answers, refuses or is asked is "die App"'],
  [/\b(mit|bei|von|an|in|Lizenz) der Zeiterfassung\b/i, 'what one connects to, or whose license it is, is "der App"'],
];

/** Every German text a user reads: the manifest's, the runtime bundle's and the walkthrough's. */
function germanTexts(): { where: string; text: string }[] {
  const messages = (path: string): { where: string; text: string }[] =>
    Object.entries(JSON.parse(readFileSync(join(root, path), 'utf8')) as Record<string, string>).map(([key, text]) => ({
      where: `${path}: ${key}`,
      text,
    }));
  const walkthrough = join('media', 'walkthrough', 'de');
  const pages = readdirSync(join(root, walkthrough))
    .filter((name) => name.endsWith('.md'))
    .map((name) => ({ where: join(walkthrough, name), text: readFileSync(join(root, walkthrough, name), 'utf8') }));
  return [...messages('package.nls.de.json'), ...messages(join('l10n', 'bundle.l10n.de.json')), ...pages];
}

describe('l10n: the German glossary (l10n/README.md)', () => {
  it('reads German texts, the manifest, the bundle and the walkthrough', () => {
    const texts = germanTexts();
    assert.ok(texts.some(({ where }) => where.startsWith('package.nls.de.json')));
    assert.ok(texts.some(({ where }) => where.includes('bundle.l10n.de.json')));
    assert.ok(texts.some(({ where }) => where.endsWith('.md')));
  });

  it('says "Aktivität" for an activity and "die App" for the app; "Zeiterfassung" is only the act of tracking', () => {
    const found = germanTexts().flatMap(({ where, text }) =>
      FORBIDDEN.flatMap(([pattern, rule]) => {
        const match = pattern.exec(text);
        return match === null ? [] : [`${where}: "${match[0]}" (${rule})`];
      }),
    );
    assert.deepEqual(found, []);
  });
});
