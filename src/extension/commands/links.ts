/**
 * Link This Branch…, Link This Folder…, Unlink and Undo (issue 25). The two Link commands pick the
 * activity with Start's picker and write the link first in the workspace settings (a team's links
 * live there; the new one wins over a broader one). Unlink removes a link that applies here from
 * the settings file it is in. Undo takes back what a link just started: the activity that ran
 * before starts again, or tracking stops when nothing ran. Each says once why when it cannot act.
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
  await writeLink(services, { branch, ...link }, (written) => written.branch === branch && written.folder === undefined);
  void services.messages.info(vscode.l10n.t('Branch {branch} is linked to {activity}: switching to it tracks {activity} without asking.', { branch, activity: link.activity }));
}

export async function linkFolder(services: CommandServices): Promise<void> {
  const folder = await folderOrSay(services);
  if (!folder) return;
  const link = await pickLink(services, COMMANDS.linkFolder, vscode.l10n.t('Link folder {0} to…', folder.name));
  if (!link) return;
  await writeLink(services, { folder: folder.name, ...link }, (written) => written.folder === folder.name && written.branch === undefined);
  void services.messages.info(vscode.l10n.t('Folder {folder} is linked to {activity}: opening it while nothing runs tracks {activity}.', { folder: folder.name, activity: link.activity }));
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

/** Undo of the status bar's notice: restarts what ran before the linked start, or stops it. */
export async function undoLink(services: CommandServices): Promise<void> {
  if (!services.links.undo) {
    void services.messages.info(vscode.l10n.t('Nothing to undo: a linked start can be undone while the status bar shows it.'));
    return;
  }
  const client = await clientOrAdvice(services);
  if (!client) return;
  if (new PauseGate(services, COMMANDS.undoLink).holdsBack(vscode.l10n.t('The linked start was not undone.'), 'error')) return;
  const undo = services.links.takeUndo();
  if (!undo) return;
  const { previous } = undo;
  if (previous === undefined && services.session.firstRelease) {
    void services.messages.warn(vscode.l10n.t('This version of the app cannot be stopped from VS Code: stop {0} in the app.', undo.started));
    return;
  }
  await run(services, COMMANDS.undoLink, async () => {
    if (previous !== undefined) {
      await client.startActivity({ activityID: previous.activityID });
      services.log.info(`Undo: restarted ${previous.activityName} instead of ${undo.started}.`);
      services.messages.status(undoneConfirmation({ previous: previous.activityName, started: undo.started }, services.settings().privateStatusBar));
    } else {
      await client.stopActivity();
      services.log.info(`Undo: stopped ${undo.started}, which a link had started.`);
      services.messages.status(undoneConfirmation({ previous: undefined, started: undo.started }, services.settings().privateStatusBar));
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

/** Writes `link` first in the workspace's list, in place of an entry for the same folder or branch. */
async function writeLink(services: CommandServices, link: WrittenLink, replaces: (written: Partial<WrittenLink>) => boolean): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const written = config.inspect('links')?.workspaceValue;
  const list: unknown[] = Array.isArray(written) ? (written as unknown[]) : [];
  const kept = list.filter((entry) => !(typeof entry === 'object' && entry !== null && replaces(entry as Partial<WrittenLink>)));
  await config.update('links', [link, ...kept], vscode.ConfigurationTarget.Workspace);
  services.log.info(`Linked ${link.branch === undefined ? `folder ${link.folder ?? '?'}` : `branch ${link.branch}`} to ${link.activity} in the workspace settings.`);
}

function describe(decision: LinkDecision, scope: 'workspace' | 'user'): string {
  const where = scope === 'workspace' ? vscode.l10n.t('workspace settings') : vscode.l10n.t('user settings');
  const what = [decision.link.folder, decision.link.branch].filter((glob) => glob !== undefined).join(' · ');
  return `${what} · ${where}`;
}
