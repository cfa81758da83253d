/**
 * Whose choice each setting is, held over package.json: every `timeTracker.*` setting stands in
 * exactly one of four lists. The person's settings are `application` (or `machine` where they
 * name something of this computer), so a repository's settings cannot set them; the restricted
 * ones are listed in `restrictedConfigurations`, so a repository may only narrow them until
 * trusted; a repository may turn the switches of the fourth list off for itself, never on; the
 * display-only ones may differ per window, but every number and text has a bound.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_GLOB_LENGTH } from '../../../../src/platform/globs';
import { MAX_PORT, MIN_PORT } from '../../../../src/protocol/constants';
import { MAX_TICKET_PREFIX_LENGTH, MAX_TICKET_PREFIXES } from '../../../../src/tracker/branchTime/ticketKeys';
import { ROUND_TO_MINUTES, SETTING_BOUNDS, type Bounds } from '../../../../src/tracker/settings/settingBounds';
import { RESTRICTED_SETTINGS } from '../../../../src/tracker/settings/untrustedWorkspace';
import { TURNED_OFF_BY_WORKSPACE } from '../../../../src/tracker/settings/workspaceTurnsOff';
import { DEFAULT_FORMAT_SOURCE, MAX_FORMAT_LENGTH } from '../../../../src/tracker/statusBar/statusText';

interface Property {
  readonly type?: string | string[];
  readonly scope?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly maxLength?: number;
  readonly maxItems?: number;
  readonly default?: unknown;
  readonly enum?: readonly unknown[];
  readonly items?: Property & { readonly properties?: Readonly<Record<string, Property>> };
}

interface Manifest {
  readonly capabilities: {
    readonly untrustedWorkspaces: {
      readonly supported: unknown;
      readonly description?: string;
      readonly restrictedConfigurations?: readonly string[];
    };
  };
  readonly contributes: { readonly configuration: { readonly properties: Readonly<Record<string, Property>> } };
}

const root = join(__dirname, '..', '..', '..', '..', '..');
const read = (file: string): unknown => JSON.parse(readFileSync(join(root, file), 'utf8'));
const manifest = read('package.json') as Manifest;
const properties = manifest.contributes.configuration.properties;
const PREFIX = 'timeTracker.';
const THIS_FILE = 'test/unit/tracker/settings/manifest.test.ts';

/**
 * One person decides these for all their windows, or they change what every window shares: the scope each must have.
 */
const THE_PERSONS: Readonly<Record<string, 'application' | 'machine'>> = {
  pollIntervalSeconds: 'application',
  'statusBar.private': 'application',
  'statusBar.longSessionHours': 'application',
  'branchTime.keepDays': 'application',
  'branchTime.roundTo': 'application',
  linksEnabled: 'application',
  ticketPrefixes: 'application',
  port: 'machine',
  capabilityFile: 'machine',
  headerPrefix: 'machine',
  'remote.allowWorkspaceHost': 'application',
};
/** How the item looks in one window: harmless, and bounded. */
const DISPLAY_ONLY = [
  'statusBar.format',
  'statusBar.alignment',
  'statusBar.priority',
  'statusBar.maxNameLength',
  'statusBar.showTodayTotal',
];
const PER_WINDOW = ['window', 'resource'];

describe('package.json: whose choice each setting is', () => {
  const lists: readonly (readonly [string, readonly string[]])[] = [
    ["the person's (application or machine)", Object.keys(THE_PERSONS)],
    ['restricted (a repository narrows, widens only when trusted)', RESTRICTED_SETTINGS],
    ['a workspace may only turn it off', TURNED_OFF_BY_WORKSPACE],
    ['display only', DISPLAY_ONLY],
  ];

  it('puts every timeTracker setting in exactly one of the four lists, and names no setting it lacks', () => {
    const names = Object.keys(properties);
    assert.ok(names.length >= 18, 'the manifest lists the settings');
    for (const name of names) {
      assert.ok(name.startsWith(PREFIX), `${name} is not a ${PREFIX}* setting`);
      const key = name.slice(PREFIX.length);
      const holding = lists.filter(([, keys]) => keys.includes(key)).map(([list]) => list);
      assert.ok(
        holding.length > 0,
        `${name} is in none of the lists of ${THIS_FILE}: add it to the person's (with its scope), the restricted ones (with restrictedConfigurations and src/tracker/settings/untrustedWorkspace.ts), the ones a workspace may only turn off (src/tracker/settings/workspaceTurnsOff.ts) or the display-only ones.`,
      );
      assert.equal(holding.length, 1, `${name} is in more than one list: ${holding.join('; ')}`);
    }
    for (const [list, keys] of lists)
      for (const key of keys)
        assert.ok(`${PREFIX}${key}` in properties, `${list} names ${PREFIX}${key}, which package.json does not have`);
  });

  it("scopes the person's settings to the application, or to the machine where they name something of this computer", () => {
    for (const [key, scope] of Object.entries(THE_PERSONS))
      assert.equal(properties[`${PREFIX}${key}`]?.scope, scope, `${PREFIX}${key}`);
  });

  it('lists every restricted setting, and only those, in restrictedConfigurations with a limited support that says what Restricted Mode leaves out', () => {
    const { supported, description, restrictedConfigurations } = manifest.capabilities.untrustedWorkspaces;
    assert.equal(supported, 'limited');
    assert.deepEqual(
      [...(restrictedConfigurations ?? [])].sort(),
      RESTRICTED_SETTINGS.map((key) => `${PREFIX}${key}`).sort(),
    );
    for (const key of RESTRICTED_SETTINGS)
      assert.ok(
        PER_WINDOW.includes(properties[`${PREFIX}${key}`]?.scope ?? ''),
        `${PREFIX}${key}: a repository may set it, trusted`,
      );
    const nlsKey = /^%(.+)%$/.exec(description ?? '')?.[1];
    assert.ok(nlsKey !== undefined, 'the description is translated (package.nls.json)');
    for (const file of ['package.nls.json', 'package.nls.de.json']) {
      const text = (read(file) as Record<string, string | undefined>)[nlsKey] ?? '';
      for (const key of RESTRICTED_SETTINGS)
        assert.ok(text.includes(`${PREFIX}${key}`), `${file}'s ${nlsKey} names ${PREFIX}${key}`);
    }
  });

  it('lets a workspace turn the switches of the fourth list off for itself: on by default, window scope, and its settings text says a workspace may only turn it off', () => {
    const nls = (file: string): Readonly<Record<string, string | undefined>> =>
      read(file) as Record<string, string | undefined>;
    for (const key of TURNED_OFF_BY_WORKSPACE) {
      const property = properties[`${PREFIX}${key}`];
      assert.deepEqual(
        [property?.type, property?.default, property?.scope],
        ['boolean', true, 'window'],
        `${PREFIX}${key}`,
      );
      const nlsKey =
        /^%(.+)%$/.exec((property as { markdownDescription?: string } | undefined)?.markdownDescription ?? '')?.[1] ??
        '';
      assert.match(
        nls('package.nls.json')[nlsKey] ?? '',
        /workspace's settings may turn it off for that workspace, never on/,
        `${PREFIX}${key}`,
      );
      assert.match(
        nls('package.nls.de.json')[nlsKey] ?? '',
        /Arbeitsbereichs können sie für diesen ausschalten, nie einschalten/,
        `${PREFIX}${key}`,
      );
    }
  });

  it('gives the display-only settings a window scope, and a bound to each number and text', () => {
    for (const key of DISPLAY_ONLY)
      assert.ok(PER_WINDOW.includes(properties[`${PREFIX}${key}`]?.scope ?? ''), `${PREFIX}${key}`);
    const format = properties[`${PREFIX}statusBar.format`];
    assert.equal(format?.maxLength, MAX_FORMAT_LENGTH, 'the format read is as long as the schema says');
    assert.equal(format.default, DEFAULT_FORMAT_SOURCE);
  });

  it('gives the ticket prefixes and every glob the length the code reads, so the settings editor warns before the code refuses', () => {
    assert.deepEqual(properties[`${PREFIX}branchTime.roundTo`]?.enum, ROUND_TO_MINUTES);
    const prefixes = properties[`${PREFIX}ticketPrefixes`];
    assert.deepEqual([prefixes?.items?.maxLength, prefixes?.maxItems], [MAX_TICKET_PREFIX_LENGTH, MAX_TICKET_PREFIXES]);
    assert.equal(properties[`${PREFIX}git.ignoreBranches`]?.items?.maxLength, MAX_GLOB_LENGTH);
    const link = properties[`${PREFIX}links`]?.items?.properties;
    assert.deepEqual([link?.['folder']?.maxLength, link?.['branch']?.maxLength], [MAX_GLOB_LENGTH, MAX_GLOB_LENGTH]);
  });

  it('bounds every numeric setting, and the reader holds it to the very bounds of the schema', () => {
    const numeric = Object.entries(properties).filter(
      ([, property]) => property.type === 'number' || property.type === 'integer',
    );
    assert.ok(numeric.length >= 5);
    for (const [name, property] of numeric) {
      const key = name.slice(PREFIX.length);
      assert.ok(
        property.minimum !== undefined && property.maximum !== undefined,
        `${name} has a minimum and a maximum`,
      );
      const bounds =
        key === 'port'
          ? { min: MIN_PORT, max: MAX_PORT, integer: true }
          : (SETTING_BOUNDS as Readonly<Record<string, Bounds | undefined>>)[key];
      assert.ok(bounds !== undefined, `${name} has no bounds in src/tracker/settings/settingBounds.ts`);
      assert.deepEqual(
        [bounds.min, bounds.max, bounds.integer],
        [property.minimum, property.maximum, property.type === 'integer'],
        name,
      );
    }
  });
});
