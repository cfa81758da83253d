/**
 * The ids of src/tracker/ids.ts against package.json: every contributed command has an id (and so
 * a handler in the command table, which is typed by them) and every id is contributed, and so for
 * the agent's tools; every context key a `when` or `enablement` clause reads is one the extension
 * sets. The extension-host suite checks the same commands against what VS Code has registered.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  COMMANDS,
  CONTEXT_KEYS,
  STATUS_BAR_ITEM_ID,
  STORAGE_KEYS,
  TOOLS,
  VIEWS,
  WALKTHROUGH_ID,
} from '../../../src/tracker/ids';

interface Manifest {
  contributes: {
    commands: { command: string; enablement?: string }[];
    languageModelTools: { name: string; toolReferenceName: string; inputSchema: { type: string } }[];
    menus: Record<string, { command?: string; when?: string }[]>;
    walkthroughs: { id: string }[];
    views: Record<string, { id: string }[]>;
    viewsWelcome: { when?: string }[];
  };
}

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as Manifest;

describe('tracker: ids and package.json', () => {
  it('contributes exactly the commands of COMMANDS', () => {
    const contributed = manifest.contributes.commands.map((command) => command.command).sort();
    assert.deepEqual(contributed, Object.values(COMMANDS).sort());
  });

  it("contributes exactly the agent's tools of TOOLS, each with a name to use in a prompt and an object schema", () => {
    const tools = manifest.contributes.languageModelTools;
    assert.deepEqual(tools.map((tool) => tool.name).sort(), Object.values(TOOLS).sort());
    for (const tool of tools) {
      assert.match(tool.toolReferenceName, /^[a-zA-Z]+$/, tool.name);
      assert.equal(tool.inputSchema.type, 'object', tool.name);
    }
    assert.equal(new Set(tools.map((tool) => tool.toolReferenceName)).size, tools.length, 'one reference name each');
  });

  it('names in its menus only commands of COMMANDS', () => {
    const ids = new Set<string>(Object.values(COMMANDS));
    for (const [menu, items] of Object.entries(manifest.contributes.menus)) {
      for (const item of items)
        if (item.command !== undefined) assert.ok(ids.has(item.command), `${menu}: ${item.command}`);
    }
  });

  // A `config.timeTracker.*` clause would read the setting as VS Code merges it, not the value the
  // extension uses (a workspace may turn the ledger off, never on): clauses read the extension's keys.
  it('reads in its clauses only context keys the extension sets, and views of VIEWS', () => {
    const keys = new Set<string>([...Object.values(CONTEXT_KEYS), ...Object.values(VIEWS)]);
    const clauses = [
      ...manifest.contributes.commands.map((command) => command.enablement),
      ...Object.values(manifest.contributes.menus).flatMap((items) => items.map((item) => item.when)),
      ...manifest.contributes.viewsWelcome.map((welcome) => welcome.when),
    ].filter((clause): clause is string => clause !== undefined);
    assert.ok(clauses.length > 0);
    for (const clause of clauses) {
      for (const [name] of clause.matchAll(/timeTracker\.[\w.]+/g)) assert.ok(keys.has(name), `${clause}: ${name}`);
    }
  });

  it('contributes exactly the views of VIEWS', () => {
    assert.deepEqual(
      Object.values(manifest.contributes.views)
        .flat()
        .map((view) => view.id)
        .sort(),
      Object.values(VIEWS).sort(),
    );
  });

  it('names the walkthrough by WALKTHROUGH_ID', () => {
    assert.deepEqual(
      manifest.contributes.walkthroughs.map((walkthrough) => walkthrough.id),
      [WALKTHROUGH_ID],
    );
  });

  it('gives every id and key a name of its own, under timeTracker.', () => {
    const all = [
      ...Object.values(COMMANDS),
      ...Object.values(CONTEXT_KEYS),
      ...Object.values(STORAGE_KEYS),
      ...Object.values(VIEWS),
      WALKTHROUGH_ID,
      STATUS_BAR_ITEM_ID,
    ];
    assert.equal(new Set(all).size, all.length);
    for (const id of all) assert.match(id, /^timeTracker\.\w+/);
  });
});
