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
  ['src/protocol/probe.ts', '../client/client'],
  ['src/protocol/probe.ts', '../server/server'],
  ['src/protocol/probe.ts', '../git/branchWatcher'],
  ['src/protocol/probe.ts', '../tracker/model/channel'],
  ['src/protocol/probe.ts', '../extension/session'],
  ['src/protocol/probe.ts', './../../test/support/http'],
  ['src/protocol/probe.ts', 'vscode'],
  ['src/client/probe.ts', '../server/server'],
  ['src/client/probe.ts', '../tracker/model/classify'],
  ['src/client/probe.ts', '../git/repoName'],
  ['src/client/probe.ts', '../extension/session'],
  ['src/client/probe.ts', 'vscode'],
  ['src/server/probe.ts', '../client/client'],
  ['src/server/probe.ts', '../tracker/model/trackerState'],
  ['src/server/auth/probe.ts', '../../client/errors'],
  ['src/server/probe.ts', 'vscode'],
  ['src/git/probe.ts', '../protocol/constants'],
  ['src/git/probe.ts', '../client/client'],
  ['src/git/probe.ts', 'vscode'],
  ['src/tracker/model/probe.ts', '../../server/server'],
  ['src/tracker/model/probe.ts', '../../extension/session'],
  ['src/tracker/model/probe.ts', '../../git/repoName'],
  ['src/tracker/model/probe.ts', '../view/presentation'],
  ['src/tracker/model/probe.ts', '../queue/entryQueue'],
  ['src/tracker/model/probe.ts', '../ids'],
  ['src/tracker/model/probe.ts', 'vscode'],
  ['src/tracker/queue/probe.ts', '../view/menu'],
  ['src/tracker/queue/probe.ts', '../../server/state'],
  ['src/tracker/view/probe.ts', '../queue/entryQueue'],
  ['src/tracker/view/probe.ts', '../../server/server'],
  ['src/tracker/view/probe.ts', 'vscode'],
  ['src/tracker/ids.ts', '../protocol/constants'],
  ['src/extension/probe.ts', '../server/server'],
  ['src/extension/commands/probe.ts', '../../server/state'],
  ['test/unit/probe.ts', 'vscode'],
];

const ALLOWED: readonly (readonly [string, string])[] = [
  ['src/protocol/probe.ts', './signing'],
  ['src/client/probe.ts', '../protocol/signing'],
  ['src/server/probe.ts', '../protocol/signing'],
  ['src/server/auth/probe.ts', '../../protocol/signing'],
  ['src/git/probe.ts', './headState'],
  ['src/tracker/model/probe.ts', '../../client/errors'],
  ['src/tracker/model/probe.ts', '../../protocol/constants'],
  ['src/tracker/model/probe.ts', './poller'],
  ['src/tracker/view/probe.ts', '../model/trackerState'],
  ['src/tracker/view/probe.ts', '../ids'],
  ['src/tracker/view/probe.ts', '../../client/reachability'],
  ['src/tracker/queue/probe.ts', '../model/classify'],
  ['src/extension/probe.ts', 'vscode'],
  ['src/extension/probe.ts', '../tracker/view/menu'],
  ['src/extension/probe.ts', '../client/client'],
  ['src/extension/probe.ts', '../git/branchWatcher'],
  ['src/extension/commands/probe.ts', '../../tracker/ids'],
  ['test/extension/suite/probe.ts', 'vscode'],
  ['test/extension/suite/probe.ts', '../../../src/server/server'],
  ['test/unit/server/probe.ts', '../../../src/server/server'],
];

describe('lint/layers: eslint.config.mjs forbids every import across a layer', function () {
  this.timeout(60_000);
  const eslint = new ESLint({
    cwd: repoRoot,
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
  });

  async function restrictions(file: string, specifier: string): Promise<string[]> {
    const [result] = await eslint.lintText(`import * as imported from '${specifier}';\nexport const used = imported;\n`, { filePath: join(repoRoot, file) });
    assert.ok(result, 'ESLint gave no result');
    const fatal = result.messages.filter((message) => message.fatal === true);
    assert.deepEqual(fatal, [], 'the file parsed');
    return result.messages.filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message);
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
    const config = (await import(pathToFileURL(join(repoRoot, 'eslint.config.mjs')).href)) as { LAYERS: readonly { files: readonly string[] }[] };
    const covered = new Set(config.LAYERS.flatMap((layer) => layer.files));
    const folders = readdirSync(join(repoRoot, 'src'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
    assert.ok(folders.length >= 6);
    for (const folder of folders) assert.ok(covered.has(`src/${folder.name}/**/*.ts`), `src/${folder.name} has no block in eslint.config.mjs's LAYERS`);
  });
});
