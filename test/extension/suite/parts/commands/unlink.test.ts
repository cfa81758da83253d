/**
 * Unlink and Use This Repository's Links… (src/extension/commands/unlink.ts, links.ts) through
 * their services: the links as a small part that names the link applying here, the real user
 * settings of the test window (put back after each test), a recording message sink whose buttons
 * the test clicks. What Unlink writes, what it says, and that its Undo puts the list back as it was.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { useRepositoryLinks } from '../../../../../src/extension/commands/links';
import { unlink } from '../../../../../src/extension/commands/unlink';
import type { LinkController } from '../../../../../src/extension/links/linkController';
import type { Link, LinkDecision } from '../../../../../src/tracker/links/links';
import { commandFakes, useReferenceApp, type CommandFakes } from '../sessionFakes';

type LinksPart = Pick<LinkController, 'branchOf' | 'linksAt' | 'reviewRepositoryLinks'>;

const BRANCH = 'feature/unlink-part';
const links = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('timeTracker');

describe('parts: commands/unlink (Unlink, Use This Repository’s Links…)', function () {
  this.timeout(20_000);
  const app = useReferenceApp({ token: 'unlink-part-token-3d9e' });
  let fakes: CommandFakes | undefined;
  let saved: unknown;

  before(() => {
    saved = links().inspect('links')?.globalValue;
  });
  afterEach(async () => {
    fakes?.dispose();
    fakes = undefined;
    await links().update('links', saved, vscode.ConfigurationTarget.Global);
  });

  /** The links part: this window's one folder on BRANCH, where `here` applies (all in the user settings). */
  function started(here: readonly Link[], review: 'none' | { readonly untrusted: number } = 'none'): CommandFakes {
    assert.equal(vscode.workspace.workspaceFolders?.length, 1, 'the extension suite opens one folder');
    const part: LinksPart = {
      branchOf: () => Promise.resolve(BRANCH),
      linksAt: () => here.map((link) => ({ decision: decisionOf(link), scope: 'user' as const })),
      reviewRepositoryLinks: () => Promise.resolve(review),
    };
    fakes = commandFakes(app, undefined, () => ({ links: part as LinkController }));
    return fakes;
  }

  it('says that no link applies here, and writes nothing', async () => {
    const before = [{ branch: 'other', activity: 'Other work' }];
    await links().update('links', before, vscode.ConfigurationTarget.Global);
    const { services, messages } = started([]);

    await unlink(services);

    assert.deepEqual(
      messages.said.map((said) => said.message),
      [`No link applies to ${vscode.workspace.workspaceFolders![0]!.name} (${BRANCH}) here.`],
    );
    assert.deepEqual(links().inspect('links')?.globalValue, before);
  });

  it('removes the one link that applies from the user settings, names its branch, and Undo puts the list back', async () => {
    const before = [
      { branch: 'release/*', activity: 'Releases' },
      { branch: BRANCH, activity: 'Unlink part work' },
      { folder: 'docs', activity: 'Docs' },
    ];
    await links().update('links', before, vscode.ConfigurationTarget.Global);
    const { services, messages, log } = started([
      { position: 2, branch: BRANCH, activity: 'Unlink part work', createIfMissing: false },
    ]);

    await unlink(services);

    assert.deepEqual(links().inspect('links')?.globalValue, [before[0], before[2]]);
    const said = messages.said.at(-1);
    assert.ok(said?.kind === 'info', JSON.stringify(messages.said));
    assert.equal(said.message, `Unlinked branch ${BRANCH}.`);
    assert.deepEqual(said.actions, ['Undo']);
    assert.ok(
      log.at('info').some((line) => line.includes('removed link 2 of timeTracker.links in the user settings')),
      log.toString(),
    );

    await messages.click(said, 'Undo');
    assert.deepEqual(links().inspect('links')?.globalValue, before, 'the list, its order and every other link');
  });

  it("Use This Repository's Links… in a folder that is not trusted says why, with the way to trust it", async () => {
    const { services, messages } = started([], { untrusted: 2 });

    await useRepositoryLinks(services);

    const said = messages.said.at(-1);
    assert.ok(said?.kind === 'info', JSON.stringify(messages.said));
    assert.match(said.message, /^This folder is in Restricted Mode, so its 2 links are not read\./);
    assert.deepEqual(said.actions, ['Manage Workspace Trust']);
  });
});

function decisionOf(link: Link): LinkDecision {
  return {
    link,
    activity: link.activity,
    createIfMissing: link.createIfMissing,
    by: link.branch === undefined ? 'folder' : 'branch',
  };
}
