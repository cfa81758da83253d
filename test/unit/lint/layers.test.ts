/**
 * The layers of docs/ARCHITECTURE.md are rules, not wishes: eslint.config.mjs gives every folder a
 * `no-restricted-imports` block, and this lints a one-line import placed at a path in each folder
 * through ESLint's own API with the real config. Only that rule runs (the type-aware rules need
 * the file in the TypeScript project, which a file that is not on disk is not), so each case
 * costs milliseconds.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';

const repoRoot = join(__dirname, '..', '..', '..', '..');

/** [where the importing file is, what it imports] */
const FORBIDDEN: readonly (readonly [string, string])[] = [
  ['src/platform/importer.ts', '../protocol/constants'],
  ['src/platform/importer.ts', '../client/errors'],
  ['src/platform/importer.ts', '../server/errors'],
  ['src/platform/importer.ts', '../git/repoName'],
  ['src/platform/importer.ts', '../tracker/model/classify'],
  ['src/platform/importer.ts', '../extension/session'],
  ['src/platform/importer.ts', './../../test/support/http'],
  ['src/platform/importer.ts', 'vscode'],
  ['src/protocol/importer.ts', '../platform/errors'],
  ['src/protocol/importer.ts', '../client/client'],
  ['src/protocol/importer.ts', '../server/server'],
  ['src/protocol/importer.ts', '../git/branchWatcher'],
  ['src/protocol/importer.ts', '../tracker/model/channel'],
  ['src/protocol/importer.ts', '../extension/session'],
  ['src/protocol/importer.ts', './../../test/support/http'],
  ['src/protocol/importer.ts', 'vscode'],
  ['src/client/importer.ts', '../server/server'],
  ['src/client/importer.ts', '../tracker/model/classify'],
  ['src/client/importer.ts', '../git/repoName'],
  ['src/client/importer.ts', '../extension/session'],
  ['src/client/importer.ts', 'vscode'],
  ['src/server/importer.ts', '../client/client'],
  ['src/server/importer.ts', '../tracker/model/trackerState'],
  ['src/server/auth/importer.ts', '../../client/errors'],
  ['src/server/importer.ts', 'vscode'],
  ['src/git/importer.ts', '../protocol/constants'],
  ['src/git/importer.ts', '../client/client'],
  ['src/git/importer.ts', 'vscode'],
  ['src/tracker/model/importer.ts', '../../server/server'],
  ['src/tracker/model/importer.ts', '../../extension/session'],
  ['src/tracker/model/importer.ts', '../../git/repoName'],
  ['src/tracker/model/importer.ts', '../onboarding/onboardingProgress'],
  ['src/tracker/model/importer.ts', '../statusBar/statusBarItem'],
  ['src/tracker/model/importer.ts', '../advice/advice'],
  ['src/tracker/model/importer.ts', '../pickers/menu'],
  ['src/tracker/model/importer.ts', '../duration'],
  ['src/tracker/model/importer.ts', '../queue/entryQueue'],
  ['src/tracker/model/importer.ts', '../ids'],
  ['src/tracker/model/importer.ts', 'vscode'],
  ['src/tracker/queue/importer.ts', '../pickers/menu'],
  ['src/tracker/queue/importer.ts', '../statusBar/statusBarItem'],
  ['src/tracker/queue/importer.ts', '../../server/state'],
  ['src/tracker/onboarding/importer.ts', '../queue/entryQueue'],
  ['src/tracker/onboarding/importer.ts', '../../server/server'],
  ['src/tracker/onboarding/importer.ts', 'vscode'],
  ['src/tracker/links/importer.ts', '../statusBar/statusBarItem'],
  ['src/tracker/links/importer.ts', '../../extension/session'],
  ['src/tracker/markup.ts', './statusBar/statusBarItem'],
  ['src/tracker/statusBar/importer.ts', '../queue/entryQueue'],
  ['src/tracker/statusBar/importer.ts', 'vscode'],
  ['src/tracker/advice/importer.ts', '../queue/entryQueue'],
  ['src/tracker/pickers/importer.ts', '../queue/entryQueue'],
  ['src/tracker/pickers/importer.ts', '../../extension/session'],
  ['src/tracker/duration.ts', './queue/entryQueue'],
  ['src/tracker/branchTime/importer.ts', '../../git/headState'],
  ['src/tracker/branchTime/importer.ts', 'vscode'],
  ['src/tracker/ids.ts', '../protocol/constants'],
  ['src/extension/importer.ts', '../server/server'],
  ['src/extension/commands/importer.ts', '../../server/state'],
  ['test/unit/importer.ts', 'vscode'],
];

const ALLOWED: readonly (readonly [string, string])[] = [
  ['src/platform/importer.ts', './errors'],
  ['src/client/importer.ts', '../platform/boundedRead'],
  ['src/server/importer.ts', '../platform/fileLock'],
  ['src/git/importer.ts', '../platform/fileSystemPort'],
  ['src/tracker/queue/importer.ts', '../../platform/atomicWrite'],
  ['src/tracker/model/importer.ts', '../../platform/fileSystemPort'],
  ['src/extension/importer.ts', '../platform/latestWins'],
  ['src/protocol/importer.ts', './signing'],
  ['src/client/importer.ts', '../protocol/signing'],
  ['src/server/importer.ts', '../protocol/signing'],
  ['src/server/auth/importer.ts', '../../protocol/signing'],
  ['src/git/importer.ts', './headState'],
  ['src/tracker/model/importer.ts', '../../client/errors'],
  ['src/tracker/model/importer.ts', '../../protocol/constants'],
  ['src/tracker/model/importer.ts', './poller'],
  ['src/tracker/onboarding/importer.ts', '../model/trackerState'],
  ['src/tracker/onboarding/importer.ts', '../ids'],
  ['src/tracker/onboarding/importer.ts', '../../client/reachability'],
  ['src/tracker/links/importer.ts', '../markup'],
  ['src/tracker/markup.ts', './ids'],
  ['src/tracker/statusBar/importer.ts', '../model/trackerState'],
  ['src/tracker/advice/importer.ts', '../statusBar/warningFacts'],
  ['src/tracker/pickers/importer.ts', '../ids'],
  ['src/tracker/queue/importer.ts', '../model/classify'],
  ['src/tracker/branchTime/importer.ts', '../../platform/fileLock'],
  ['src/extension/importer.ts', 'vscode'],
  ['src/extension/importer.ts', '../tracker/pickers/menu'],
  ['src/extension/importer.ts', '../client/client'],
  ['src/extension/importer.ts', '../git/branchWatcher'],
  ['src/extension/commands/importer.ts', '../../tracker/ids'],
  ['test/extension/suite/importer.ts', 'vscode'],
  ['test/extension/suite/importer.ts', '../../../src/server/server'],
  ['test/unit/server/importer.ts', '../../../src/server/server'],
];

/** The tracker's rows, read from the real config (an ES module; mocha's describe cannot await it, a child can). */
function trackerParts(): Record<string, readonly string[]> {
  const script = `import(${JSON.stringify(pathToFileURL(join(repoRoot, 'eslint.config.mjs')).href)}).then((config) => process.stdout.write(JSON.stringify(config.TRACKER_PARTS)))`;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  return JSON.parse(output) as Record<string, readonly string[]>;
}

describe('lint/layers: eslint.config.mjs forbids every import across a layer', function () {
  this.timeout(60_000);
  const eslint = new ESLint({
    cwd: repoRoot,
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
  });

  async function restrictions(file: string, specifier: string): Promise<string[]> {
    const [result] = await eslint.lintText(
      `import * as imported from '${specifier}';\nexport const used = imported;\n`,
      { filePath: join(repoRoot, file) },
    );
    assert.ok(result, 'ESLint gave no result');
    const fatal = result.messages.filter((message) => message.fatal === true);
    assert.deepEqual(fatal, [], 'the file parsed');
    return result.messages
      .filter((message) => message.ruleId === 'no-restricted-imports')
      .map((message) => message.message);
  }

  for (const [file, specifier] of FORBIDDEN) {
    it(`refuses ${specifier} in ${file}`, async () => {
      const messages = await restrictions(file, specifier);
      assert.equal(messages.length, 1, `expected one restriction, got ${JSON.stringify(messages)}`);
    });
  }

  for (const [file, specifier] of ALLOWED) {
    it(`allows ${specifier} in ${file}`, async () => {
      assert.deepEqual(await restrictions(file, specifier), []);
    });
  }

  // Every row of TRACKER_PARTS, both ways: what it does not list is refused, what it lists is let through.
  const parts = trackerParts();
  const names = ['ids', ...Object.keys(parts)];
  const isFile = (name: string): boolean => existsSync(join(repoRoot, 'src', 'tracker', `${name}.ts`));
  const importerIn = (part: string): string =>
    isFile(part) ? `src/tracker/${part}.ts` : `src/tracker/${part}/importer.ts`;
  const specifierOf = (from: string, name: string): string =>
    `${isFile(from) ? './' : '../'}${name}${isFile(name) ? '' : '/anything'}`;
  for (const [part, allowed] of Object.entries(parts)) {
    const refused = names.filter((name) => name !== part && !allowed.includes(name));
    it(`holds src/tracker/${part} to its row of TRACKER_PARTS: refuses ${refused.join(', ') || 'nothing'}; allows ${allowed.join(', ') || 'nothing'}`, async () => {
      for (const name of refused)
        assert.equal((await restrictions(importerIn(part), specifierOf(part, name))).length, 1, `${part} → ${name}`);
      for (const name of allowed)
        assert.deepEqual(await restrictions(importerIn(part), specifierOf(part, name)), [], `${part} → ${name}`);
    });
  }

  it('has a row in TRACKER_PARTS for every folder and shared file of src/tracker/', () => {
    const entries = readdirSync(join(repoRoot, 'src', 'tracker'), { withFileTypes: true });
    const found = entries
      .filter((entry) => entry.isDirectory() || (entry.name.endsWith('.ts') && entry.name !== 'ids.ts'))
      .map((entry) => entry.name.replace(/\.ts$/, ''));
    assert.ok(found.length >= 8);
    for (const name of found) assert.ok(name in parts, `src/tracker/${name} has no row in TRACKER_PARTS`);
    for (const name of Object.keys(parts))
      assert.ok(found.includes(name), `TRACKER_PARTS names ${name}, which src/tracker/ does not hold`);
  });

  it('has a block for every folder of src/, so a new folder cannot slip past the rules', async () => {
    const config = (await import(pathToFileURL(join(repoRoot, 'eslint.config.mjs')).href)) as {
      LAYERS: readonly { files: readonly string[] }[];
    };
    const covered = new Set(config.LAYERS.flatMap((layer) => layer.files));
    const folders = readdirSync(join(repoRoot, 'src'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
    assert.ok(folders.length >= 6);
    for (const folder of folders)
      assert.ok(
        covered.has(`src/${folder.name}/**/*.ts`),
        `src/${folder.name} has no block in eslint.config.mjs's LAYERS`,
      );
  });
});
