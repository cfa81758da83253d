/**
 * The layers of docs/ARCHITECTURE.md are rules, not wishes: eslint.config.mjs gives every folder a
 * `no-restricted-imports` block, and this lints a one-line import placed at a path in each folder
 * through ESLint's own API with the real config. Only that rule runs (the type-aware rules need
 * the file in the TypeScript project, which a file that is not on disk is not), so each case
 * costs milliseconds.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
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
  ['src/tracker/model/importer.ts', '../view/onboardingProgress'],
  ['src/tracker/model/importer.ts', '../statusBar/presentation'],
  ['src/tracker/model/importer.ts', '../advice/advice'],
  ['src/tracker/model/importer.ts', '../pickers/menu'],
  ['src/tracker/model/importer.ts', '../duration'],
  ['src/tracker/model/importer.ts', '../queue/entryQueue'],
  ['src/tracker/model/importer.ts', '../ids'],
  ['src/tracker/model/importer.ts', 'vscode'],
  ['src/tracker/queue/importer.ts', '../pickers/menu'],
  ['src/tracker/queue/importer.ts', '../statusBar/statusFacts'],
  ['src/tracker/queue/importer.ts', '../../server/state'],
  ['src/tracker/view/importer.ts', '../queue/entryQueue'],
  ['src/tracker/view/importer.ts', '../../server/server'],
  ['src/tracker/view/importer.ts', 'vscode'],
  ['src/tracker/statusBar/importer.ts', '../queue/entryQueue'],
  ['src/tracker/statusBar/importer.ts', 'vscode'],
  ['src/tracker/advice/importer.ts', '../queue/entryQueue'],
  ['src/tracker/pickers/importer.ts', '../queue/entryQueue'],
  ['src/tracker/pickers/importer.ts', '../../extension/session'],
  ['src/tracker/duration.ts', './queue/entryQueue'],
  ['src/tracker/ledger/importer.ts', '../../git/headState'],
  ['src/tracker/ledger/importer.ts', 'vscode'],
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
  ['src/tracker/view/importer.ts', '../model/trackerState'],
  ['src/tracker/view/importer.ts', '../ids'],
  ['src/tracker/view/importer.ts', '../../client/reachability'],
  ['src/tracker/statusBar/importer.ts', '../model/trackerState'],
  ['src/tracker/advice/importer.ts', '../statusBar/warningFacts'],
  ['src/tracker/pickers/importer.ts', '../ids'],
  ['src/tracker/queue/importer.ts', '../model/classify'],
  ['src/tracker/ledger/importer.ts', '../../platform/fileLock'],
  ['src/extension/importer.ts', 'vscode'],
  ['src/extension/importer.ts', '../tracker/pickers/menu'],
  ['src/extension/importer.ts', '../client/client'],
  ['src/extension/importer.ts', '../git/branchWatcher'],
  ['src/extension/commands/importer.ts', '../../tracker/ids'],
  ['test/extension/suite/importer.ts', 'vscode'],
  ['test/extension/suite/importer.ts', '../../../src/server/server'],
  ['test/unit/server/importer.ts', '../../../src/server/server'],
];

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
