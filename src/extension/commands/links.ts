/**
 * Link This Branch…, Link This Folder…, Unlink, Undo and Use This Repository's Links…. The two Link
 * commands pick the activity with Start's picker, ask where the link goes (only for the user, in
 * the user settings, first; or for everyone in the repository, in the workspace settings a team may
 * commit) and write it first there (the new one wins over a broader one); the message names the
 * file. Unlink removes a link that applies here from the settings file it is in. Undo takes back
 * what a link started, until what runs changes: the activity that ran before starts again, or
 * tracking stops when nothing ran. Each says once why when it cannot act.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../../tracker/ids';
import type { LinkDecision } from '../../tracker/links/links';
import { undoneConfirmation } from '../../tracker/view/confirmations';
import { SECTION } from '../settings';
import { PauseGate } from './pauseGate';
import { clientOrAdvice, run, type CommandServices } from './services';
import { chooseActivity } from './tracking';

/** A link as written to settings.json. */
interface WrittenLink {
  readonly folder?: string;
  readonly branch?: string;
  readonly activity: string;
  readonly group?: string;
  readonly createIfMissing?: true;
}

export async function linkBranch(services: CommandServices): Promise<void> {
  const folder = await folderOrSay(services);
  if (!folder) return;
  const branch = await services.links.branchOf(folder.uri);
  if (branch === undefined) {
    void services.messages.info(vscode.l10n.t('{0} is on no branch (no git repository, or a detached HEAD), so there is no branch to link. Link This Folder… links the folder.', folder.name));
    return;
  }
  const link = await pickLink(services, COMMANDS.linkBranch, vscode.l10n.t('Link branch {0} to…', branch));
  if (!link) return;
  const where = await askWhere(vscode.l10n.t('Link branch {0} to {1}: for whom?', branch, link.activity));
  if (!where) return;
  await writeLink(services, { branch, ...link }, where, (written) => written.branch === branch && written.folder === undefined);
  void services.messages.info(vscode.l10n.t('Branch {branch} is linked to {activity} in {file}: switching to it tracks {activity} without asking.', { branch, activity: link.activity, file: fileOf(where) }));
}

export async function linkFolder(services: CommandServices): Promise<void> {
  const folder = await folderOrSay(services);
  if (!folder) return;
  const link = await pickLink(services, COMMANDS.linkFolder, vscode.l10n.t('Link folder {0} to…', folder.name));
  if (!link) return;
  const where = await askWhere(vscode.l10n.t('Link folder {0} to {1}: for whom?', folder.name, link.activity));
  if (!where) return;
  await writeLink(services, { folder: folder.name, ...link }, where, (written) => written.folder === folder.name && written.branch === undefined);
  void services.messages.info(
    vscode.l10n.t('Folder {folder} is linked to {activity} in {file}: opening it while nothing runs tracks {activity}.', { folder: folder.name, activity: link.activity, file: fileOf(where) }),
  );
}

/** "Use This Repository's Links…": the question about the workspace's links again, whatever was answered. */
export async function useRepositoryLinks(services: CommandServices): Promise<void> {
  if ((vscode.workspace.workspaceFolders ?? []).length === 0) {
    void services.messages.info(vscode.l10n.t('Open a folder first: a repository keeps its links in its workspace settings.'));
    return;
  }
  const answer = await services.links.reviewRepositoryLinks();
  switch (answer) {
    case 'none':
      void services.messages.info(vscode.l10n.t("This workspace's settings hold no timeTracker.links: there is nothing to use or refuse. Your own links (user settings) always apply."));
      return;
    case 'untrusted':
      void services.messages.info(
        vscode.l10n.t("This folder is not trusted (Restricted Mode), so its links are not used and not asked about. Trust it first, then run Use This Repository's Links… again."),
        { label: vscode.l10n.t('Manage Workspace Trust'), run: () => vscode.commands.executeCommand('workbench.trust.manage') },
      );
      return;
    case 'use':
      void services.messages.info(vscode.l10n.t("This repository's links are used in this workspace."));
      return;
    case 'refuse':
      void services.messages.info(vscode.l10n.t("This repository's links are not used in this workspace; your own links (user settings) still apply."));
      return;
    case 'later':
      return;
  }
}

export async function unlink(services: CommandServices): Promise<void> {
  const folder = await folderOrSay(services);
  if (!folder) return;
  const branch = await services.links.branchOf(folder.uri);
  const here = services.links.linksAt(folder, branch);
  if (here.length === 0) {
    void services.messages.info(vscode.l10n.t('No link of timeTracker.links applies to {0} here.', branch === undefined ? folder.name : `${folder.name} (${branch})`));
    return;
  }
  const chosen =
    here.length === 1
      ? here[0]
      : (
          await vscode.window.showQuickPick(
            here.map((item) => ({ label: item.decision.activity, description: describe(item.decision, item.scope), item })),
            { title: vscode.l10n.t('Unlink'), placeHolder: vscode.l10n.t('Which link?') },
          )
        )?.item;
  if (!chosen) return;
  const target = chosen.scope === 'workspace' ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  const config = vscode.workspace.getConfiguration(SECTION);
  const inspected = config.inspect('links');
  const written = chosen.scope === 'workspace' ? inspected?.workspaceValue : inspected?.globalValue;
  const list: unknown[] = Array.isArray(written) ? [...(written as unknown[])] : [];
  list.splice(chosen.decision.link.position - 1, 1);
  await config.update('links', list.length === 0 ? undefined : list, target);
  void services.messages.info(vscode.l10n.t('Unlinked {0}.', chosen.decision.activity));
}

/**
 * Undo of a linked start, until what runs changes: restarts what ran before it, or stops it. In
 * the palette in every state, so with nothing to take back it says why.
 */
export async function undoLink(services: CommandServices): Promise<void> {
  if (!services.links.undo) {
    void services.messages.info(vscode.l10n.t('Nothing to undo: no link started what runs now. Undo takes back a linked start until another activity starts or tracking stops.'));
    return;
  }
  const client = await clientOrAdvice(services);
  if (!client) return;
  if (new PauseGate(services, COMMANDS.undoLink).holdsBack(vscode.l10n.t('The linked start was not undone.'), 'error')) return;
  const undo = services.links.takeUndo();
  if (!undo) return;
  const { previous } = undo;
  const started = undo.started.activityName;
  if (previous === undefined && services.session.firstRelease) {
    void services.messages.warn(vscode.l10n.t('This version of the app cannot be stopped from VS Code: stop {0} in the app.', started));
    return;
  }
  await run(services, COMMANDS.undoLink, async () => {
    if (previous !== undefined) {
      await client.startActivity({ activityID: previous.activityID });
      services.log.info(`Undo: restarted ${previous.activityName} instead of ${started}.`);
      services.messages.status(undoneConfirmation({ previous: previous.activityName, started }, services.settings().privateStatusBar));
    } else {
      await client.stopActivity();
      await services.links.userStopped();
      services.log.info(`Undo: stopped ${started}, which a link had started.`);
      services.messages.status(undoneConfirmation({ previous: undefined, started }, services.settings().privateStatusBar));
    }
  });
}

async function folderOrSay(services: CommandServices): Promise<vscode.WorkspaceFolder | undefined> {
  if ((vscode.workspace.workspaceFolders ?? []).length === 0) {
    void services.messages.info(vscode.l10n.t('Open a folder first: links are kept in the workspace settings.'));
    return undefined;
  }
  return services.links.folderHere();
}

/** The activity through Start's picker, as a link names it; undefined when the user leaves. */
async function pickLink(services: CommandServices, command: typeof COMMANDS.linkBranch | typeof COMMANDS.linkFolder, title: string): Promise<Omit<WrittenLink, 'folder' | 'branch'> | undefined> {
  const client = await clientOrAdvice(services);
  if (!client) return undefined;
  const gate = new PauseGate(services, command);
  const chosen = await chooseActivity(services, client, gate, title);
  if (!chosen) {
    gate.leftAfterLearning();
    return undefined;
  }
  const { request, name, groupName } = chosen;
  return { activity: name, ...(typeof groupName === 'string' ? { group: groupName } : {}), ...(request.createIfMissing === true ? { createIfMissing: true } : {}) };
}

/** Where a new link goes: only for this user (first, the default) or for everyone who opens the repository. */
type LinkTarget = 'user' | 'workspace';

/** Asks where the link goes; undefined when the user leaves. */
async function askWhere(title: string): Promise<LinkTarget | undefined> {
  const items: (vscode.QuickPickItem & { readonly target: LinkTarget })[] = [
    { label: vscode.l10n.t('Only for me'), description: vscode.l10n.t('your user settings'), detail: vscode.l10n.t('In every window of yours; nobody else sees it.'), target: 'user' },
    {
      label: vscode.l10n.t('For everyone in this repository'),
      description: fileOf('workspace'),
      detail: vscode.l10n.t('In the workspace settings, which a team may commit: everyone who opens the repository is asked whether to use its links.'),
      target: 'workspace',
    },
  ];
  return (await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Where does the link go?') }))?.target;
}

/** The settings file a target writes, as the user knows it. */
function fileOf(target: LinkTarget): string {
  if (target === 'user') return vscode.l10n.t('your user settings');
  const file = vscode.workspace.workspaceFile;
  return file === undefined || file.scheme === 'untitled' ? '.vscode/settings.json' : vscode.l10n.t('the workspace file {0}', file.path.slice(file.path.lastIndexOf('/') + 1));
}

/** Writes `link` first in the target's list, in place of an entry for the same folder or branch. */
async function writeLink(services: CommandServices, link: WrittenLink, target: LinkTarget, replaces: (written: Partial<WrittenLink>) => boolean): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const inspected = config.inspect('links');
  const written = target === 'workspace' ? inspected?.workspaceValue : inspected?.globalValue;
  const list: unknown[] = Array.isArray(written) ? (written as unknown[]) : [];
  const kept = list.filter((entry) => !(typeof entry === 'object' && entry !== null && replaces(entry as Partial<WrittenLink>)));
  // The user's own link: used in this workspace without the question a repository's links ask.
  if (target === 'workspace') await services.links.ownWorkspaceLink(link);
  await config.update('links', [link, ...kept], target === 'workspace' ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global);
  const what = link.branch === undefined ? `folder ${link.folder ?? '?'}` : `branch ${link.branch}`;
  services.log.info(`Linked ${what} to ${link.activity} in the ${target === 'workspace' ? 'workspace' : 'user'} settings.`);
}

function describe(decision: LinkDecision, scope: 'workspace' | 'user'): string {
  const where = scope === 'workspace' ? vscode.l10n.t('workspace settings') : vscode.l10n.t('user settings');
  const what = [decision.link.folder, decision.link.branch].filter((glob) => glob !== undefined).join(' · ');
  return `${what} · ${where}`;
}
