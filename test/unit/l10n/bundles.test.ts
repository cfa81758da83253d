import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as l10n from '@vscode/l10n';
import { parseDuration } from '../../../src/tracker/duration';
import { menuFor } from '../../../src/tracker/pickers/menu';
import { statusBarItem } from '../../../src/tracker/statusBar/statusBarItem';
import type { TrackerState } from '../../../src/tracker/model/trackerState';
import { manifestKeys, manifestStrings } from '../../support/manifest';

const root = join(__dirname, '..', '..', '..', '..');
const readJson = (path: string): unknown => JSON.parse(readFileSync(join(root, path), 'utf8'));
const readMessages = (path: string): Record<string, string> => readJson(path) as Record<string, string>;
/** The translations there are, by language: `de` for package.nls.de.json and l10n/bundle.l10n.de.json. */
const languages = (folder: string, prefix: string): string[] =>
  readdirSync(join(root, folder))
    .map((name) => new RegExp(`^${prefix.replace(/\./g, '\\.')}\\.([\\w-]+)\\.json$`).exec(name)?.[1])
    .filter((language): language is string => language !== undefined)
    .sort();

/** The `{0}` and `{name}` placeholders of a message, sorted. */
const placeholders = (text: string): string[] =>
  [...new Set([...text.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? ''))].sort();
/** What a translation must keep as it is: command links, code spans, bold markers. */
const markup = (text: string): string[] => [
  ...[...text.matchAll(/\(command:[^)]+\)/g)].map((match) => match[0]),
  ...[...text.matchAll(/`[^`]+`/g)].map((match) => match[0]),
  `** × ${text.split('**').length - 1}`,
];

describe('l10n: the manifest (package.nls*.json)', () => {
  const manifest = readJson('package.json');
  const english = readMessages('package.nls.json');
  const used = manifestKeys(manifest).map(({ path, key }) => ({ path: path.join('.'), key }));

  it('names every user-visible text of the manifest by a %key% of package.nls.json, and every key is used', () => {
    for (const { path, key } of used) assert.ok(key in english, `${path}: %${key}% is not in package.nls.json`);
    assert.deepEqual(
      Object.keys(english).filter((key) => !used.some((use) => use.key === key)),
      [],
      'keys no manifest field uses',
    );
    const visible =
      /^(displayName|description|contributes\.(languageModelTools\.\d+\.(displayName|userDescription)|commands\.\d+\.(title|category)|configuration\.(title|properties\.[^.]+(\.[^.]+)*\.(markdownDescription|description|enumDescriptions\.\d+))|walkthroughs\.\d+\.(title|description|steps\.\d+\.(title|description))))$/;
    const literal = manifestStrings(manifest)
      .map(({ path, value }): [string, string] => [path.join('.'), value])
      .filter(([path, value]) => visible.test(path) && !/^%.+%$/.test(value));
    assert.deepEqual(literal, [], 'user-visible manifest texts not taken from package.nls.json');
  });

  it('has German, and every translation has the same keys as English, none empty, with links and code kept', () => {
    assert.ok(languages('.', 'package.nls').includes('de'));
    for (const language of languages('.', 'package.nls')) {
      const translated = readMessages(`package.nls.${language}.json`);
      assert.deepEqual(Object.keys(translated).sort(), Object.keys(english).sort(), language);
      for (const [key, text] of Object.entries(english)) {
        const translation = translated[key] ?? '';
        assert.ok(text.trim() !== '' && translation.trim() !== '', `${language}: ${key} is empty`);
        assert.deepEqual(markup(translation), markup(text), `${language}: ${key}`);
      }
    }
  });
});

describe('l10n: the runtime bundles (l10n/bundle.l10n*.json)', () => {
  it('has every l10n.t and vscode.l10n.t message of src/ in l10n/bundle.l10n.json, and nothing else', () => {
    // The script scans src/ and fails when the bundle differs, or a message is not a string literal.
    const output = execFileSync(process.execPath, [join(root, 'l10n', 'export.mjs'), '--check'], { encoding: 'utf8' });
    assert.match(output, /is current: \d+ messages/);
  });

  it('translates every message, into German and any other language, with the same placeholders and Markdown', () => {
    const english = readMessages('l10n/bundle.l10n.json');
    assert.ok(Object.keys(english).length > 100);
    assert.ok(languages('l10n', 'bundle.l10n').includes('de'));
    assert.deepEqual(
      languages('l10n', 'bundle.l10n'),
      languages('.', 'package.nls'),
      'the same languages at run time as in the manifest',
    );
    for (const language of languages('l10n', 'bundle.l10n')) {
      const translated = readMessages(`l10n/bundle.l10n.${language}.json`);
      assert.deepEqual(
        Object.keys(translated).filter((key) => !(key in english)),
        [],
        `${language}: messages no source uses`,
      );
      for (const message of Object.keys(english)) {
        const translation = translated[message];
        assert.ok(
          translation !== undefined && translation.trim() !== '',
          `${language}: no translation of ${JSON.stringify(message)}`,
        );
        assert.deepEqual(placeholders(translation), placeholders(message), `${language}: ${message}`);
        assert.deepEqual(markup(translation), markup(message), `${language}: ${message}`);
      }
    }
  });
});

describe('l10n: src/tracker in the configured language', () => {
  const settings = { nowMs: 0, showTodayTotal: true, maxNameLength: 40, route: { kind: 'http', port: 40001 } } as const;
  const activity = { activityID: 'a1', activityName: 'Write docs' };
  const idle: TrackerState = { kind: 'idle', onBreak: false, todaySeconds: 12_000, observedAtMs: 0 };
  const onBreak: TrackerState = {
    kind: 'tracking',
    activity,
    onBreak: true,
    startedAtMs: -5000,
    appClockOffsetMs: 0,
    todaySeconds: 0,
    observedAtMs: 0,
  };

  afterEach(() => {
    // Back to English for every other test of this process.
    l10n.config({ contents: {} });
  });

  it('is English, byte for byte, without a bundle', () => {
    assert.equal(statusBarItem(idle, settings).text, '$(clock) Not tracking · today 3h 20m');
    assert.equal(
      statusBarItem(onBreak, { ...settings, queued: 3 }).text,
      '$(coffee) On break (Write docs) · today 0m · $(inbox) 3 queued',
    );
    assert.equal(
      statusBarItem({ kind: 'noToken' }, settings).accessibilityLabel,
      "Time Tracker: not connected. Turn on the app's VS Code integration, or set a token for its HTTP API. Activate for the menu.",
    );
  });

  it('is German with the German bundle: status bar text, tooltip, accessibility label, menu and messages', () => {
    l10n.config({ contents: readMessages('l10n/bundle.l10n.de.json') });
    assert.equal(statusBarItem(idle, settings).text, '$(clock) Keine Erfassung · heute 3h 20m');
    assert.equal(
      statusBarItem(onBreak, { ...settings, queued: 3 }).text,
      '$(coffee) Pause (Write docs) · heute 0m · $(inbox) 3 wartend',
    );
    const noToken = statusBarItem({ kind: 'noToken' }, settings);
    assert.equal(noToken.text, '$(key) Time Tracker: Token festlegen');
    assert.equal(
      noToken.accessibilityLabel,
      'Time Tracker: nicht verbunden. Schalten Sie die VS-Code-Integration der App ein oder legen Sie ein Token für ihre HTTP-API fest. Aktivieren, um das Menü zu öffnen.',
    );
    assert.match(
      noToken.tooltip,
      /^\*\*Nicht verbunden\.\*\* .*\*\*Einstellungen → Integrationen → VSCode\*\*.* \[legen Sie ihr Token hier fest\]\(command:timeTracker\.setToken\)\.$/,
    );
    const tracking = statusBarItem({ ...onBreak, onBreak: false, startedAtMs: -725000, appClockOffsetMs: 0 }, settings);
    assert.equal(tracking.text, '$(record) Write docs 12m · heute 0m');
    assert.equal(
      tracking.accessibilityLabel,
      'Time Tracker: Write docs wird erfasst, Dauer 12m, heute 0m. Aktivieren, um das Menü zu öffnen.',
    );
    assert.deepEqual(
      menuFor(idle, true).map((entry) => entry.label),
      [
        '$(play) Zeiterfassung starten…',
        '$(history) Zeit nachtragen…',
        '$(plug) Verbindung prüfen',
        '$(output) Protokoll anzeigen',
      ],
    );
    const parsed = parseDuration('soon');
    assert.equal(
      parsed.ok ? '' : parsed.message,
      '„soon“ ist keine Dauer; schreiben Sie sie als 90, 90m, 1h30m, 1,5h oder 1:30.',
    );
    // Turned back to English, the same calls say it in English again.
    l10n.config({ contents: {} });
    assert.equal(statusBarItem(idle, settings).text, '$(clock) Not tracking · today 3h 20m');
  });
});
