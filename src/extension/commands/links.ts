/**
 * Link This Branch…, Link This Folder…, Unlink, Undo and Use This Repository's Links…. The two Link
 * commands pick the activity with Start's picker, ask where the link goes (only for the user, in
 * the user settings, first; or for everyone in the repository, in the workspace settings a team may
 * commit) and write it where it shadows no link there (src/tracker/links/linkEdits.ts); the message
 * names the file. On a branch that names a ticket, Link This Branch… first asks whether to link this
 * branch only or every branch like it to its ticket, and once the branch is linked it offers to
 * start its activity now (./linkChoices.ts); the picker takes no new name with a placeholder.
 * Unlink is ./unlink.ts. Undo takes back what a link started, until what runs changes: the activity
 * that ran before starts again, or tracking stops when nothing ran. Each says once why when it cannot act.
 */
import * as vscode from 'vscode';
import type { ActivitySelector } from '../../protocol/types';
import { literalGlob } from '../../platform/globs';
import { COMMANDS } from '../../tracker/ids';
import { placeholderRefusal, ticketLinkFor, type TicketLinkChoice } from '../../tracker/links/linkChoices';
import { placeLink, type WrittenLink } from '../../tracker/links/linkEdits';
import { MANAGE_TRUST_COMMAND, restrictedSentence } from '../../tracker/links/linksWaiting';
import { createdStays } from '../../tracker/links/linkUndo';
import { undoneConfirmation } from '../../tracker/statusBar/confirmations';
import { folderHere } from '../links/linkPlaces';
import { SECTION } from '../settings';
import { PauseGate } from './pauseGate';
import { askWhatToLink, offerStart } from './linkChoices';
import { clientOrAdvice, run, type CommandServices } from './services';
import { chooseActivity } from './tracking';

export async function linkBranch(services: CommandServices): Promise<void> {
  const folder = await folderOrSay(services);
  if (!folder) return;
  const { branch, ignoresCase = false } = await services.links.placeOf(folder.uri);
  if (branch === undefined) {
    void services.messages.info(
      vscode.l10n.t(
        '{0} is on no branch (no git repository, or a detached HEAD), so there is no branch to link. Link This Folder… links the folder.',
        folder.name,
      ),
    );
    return;
  }
  const ticketChoice = ticketLinkFor(branch, services.branchTime.ticketKeys(), ignoresCase);
  const kind = ticketChoice === undefined ? 'branch' : await askWhatToLink(branch, ticketChoice);
  if (kind === undefined) return;
  if (kind === 'ticket' && ticketChoice !== undefined) return linkTicketPattern(services, ticketChoice);
  const picked = await pickLink(services, COMMANDS.linkBranch, vscode.l10n.t('Link branch {0} to…', branch));
  if (!picked) return;
  const { link, request } = picked;
  const where = await askWhere(vscode.l10n.t('Link branch {0} to {1}: for whom?', branch, link.activity));
  if (!where) return;
  await writeLink(
    services,
    { branch, ...link },
    where,
    (written) => written.branch === branch && written.folder === undefined,
  );
  const linked = vscode.l10n.t(
    'Branch {branch} is linked to {activity} in {file}: switching to it tracks {activity} without asking.',
    { branch, activity: link.activity, file: fileOf(where) },
  );
  offerStart(services, linked, { name: link.activity, activityID: request.activityID }, request);
}

/**
 * "Every branch like this one → its ticket": the pattern link, written where the user says; then the offer to start
 * this branch's ticket.
 */
async function linkTicketPattern(services: CommandServices, choice: TicketLinkChoice): Promise<void> {
  const { pattern, ticket } = choice;
  const where = await askWhere(vscode.l10n.t('Link every branch like {0} to its ticket: for whom?', pattern));
  if (!where) return;
  await writeLink(
    services,
    choice.link,
    where,
    (written) => written.branch === pattern && written.folder === undefined,
  );
  const linked = [
    vscode.l10n.t('Every branch like {pattern} is linked to its ticket in {file}:', { pattern, file: fileOf(where) }),
    vscode.l10n.t('switching to one tracks the ticket its name holds ({ticket} on this one) without asking.', {
      ticket,
    }),
  ].join(' ');
  offerStart(services, linked, { name: ticket }, { name: ticket, createIfMissing: true });
}

export async function linkFolder(services: CommandServices): Promise<void> {
  const folder = await folderOrSay(services);
  if (!folder) return;
  const link = (await pickLink(services, COMMANDS.linkFolder, vscode.l10n.t('Link folder {0} to…', folder.name)))?.link;
  if (!link) return;
  const where = await askWhere(vscode.l10n.t('Link folder {0} to {1}: for whom?', folder.name, link.activity));
  if (!where) return;
  // The folder's name as a literal: a folder named `client?` or `**` must not link every folder like it.
  const glob = literalGlob(folder.name);
  await writeLink(
    services,
    { folder: glob, ...link },
    where,
    (written) => written.folder === glob && written.branch === undefined,
  );
  void services.messages.info(
    vscode.l10n.t(
      'Folder {folder} is linked to {activity} in {file}: opening it while nothing runs tracks {activity}.',
      { folder: folder.name, activity: link.activity, file: fileOf(where) },
    ),
  );
}

/** "Use This Repository's Links…": the question about the workspace's links again, whatever was answered. */
export async function useRepositoryLinks(services: CommandServices): Promise<void> {
  if ((vscode.workspace.workspaceFolders ?? []).length === 0) {
    void services.messages.info(
      vscode.l10n.t('Open a folder first: a repository keeps its links in its workspace settings.'),
    );
    return;
  }
  const answer = await services.links.reviewRepositoryLinks();
  if (typeof answer === 'object') {
    void services.messages.info(
      [
        restrictedSentence(answer.untrusted),
        vscode.l10n.t("Trust the folder, then run Use This Repository's Links… to be asked whether to use them."),
      ].join(' '),
      {
        label: vscode.l10n.t('Manage Workspace Trust'),
        run: () => vscode.commands.executeCommand(MANAGE_TRUST_COMMAND),
      },
    );
    return;
  }
  switch (answer) {
    case 'none':
      void services.messages.info(
        vscode.l10n.t(
          "This workspace's settings hold no links: there is nothing to use or refuse. Your own links (user settings) always apply.",
        ),
      );
      return;
    case 'refuse':
      void services.messages.info(
        vscode.l10n.t(
          "This repository's links are not used in this workspace; your own links (user settings) still apply.",
        ),
      );
      return;
    // After Use, the links said in one line what they did here.
    case 'use':
    case 'later':
      return;
  }
}

/**
 * Undo of a linked start, until what runs changes: restarts what ran before it, or stops it. In
 * the palette in every state, so with nothing to take back it says why.
 */
export async function undoLink(services: CommandServices): Promise<void> {
  if (!services.links.undo) {
    void services.messages.info(
      vscode.l10n.t(
        'Nothing to undo: no link started what runs now. Undo takes back a linked start until another activity starts or tracking stops.',
      ),
    );
    return;
  }
  const client = await clientOrAdvice(services);
  if (!client) return;
  if (new PauseGate(services, COMMANDS.undoLink).holdsBack(vscode.l10n.t('The linked start was not undone.'), 'error'))
    return;
  const undo = services.links.takeUndo();
  if (!undo) return;
  const { previous } = undo;
  const started = undo.started.activityName;
  if (previous === undefined && services.session.firstRelease) {
    void services.messages.warn(
      vscode.l10n.t('This version of the app cannot be stopped from VS Code: stop {0} in the app.', started),
    );
    return;
  }
  await run(services, COMMANDS.undoLink, async () => {
    if (previous !== undefined) {
      await client.startActivity({ activityID: previous.activityID });
      services.log.info(`Undo: restarted ${previous.activityName} instead of ${started}.`);
    } else {
      await client.stopActivity();
      await services.links.userStopped();
      services.log.info(`Undo: stopped ${started}, which a link had started.`);
    }
    const isPrivate = services.settings().privateStatusBar;
    services.messages.status(undoneConfirmation({ previous: previous?.activityName, started }, isPrivate));
    const stays = createdStays(undo.started, isPrivate);
    if (stays !== undefined) void services.messages.info(stays);
  });
}

export async function folderOrSay(services: CommandServices): Promise<vscode.WorkspaceFolder | undefined> {
  if ((vscode.workspace.workspaceFolders ?? []).length === 0) {
    void services.messages.info(vscode.l10n.t('Open a folder first: links are kept in the workspace settings.'));
    return undefined;
  }
  return folderHere();
}

/**
 * The activity through Start's picker (never a new name with a placeholder), as a link names it and as a start asks for
 * it; undefined when the user leaves.
 */
async function pickLink(
  services: CommandServices,
  command: typeof COMMANDS.linkBranch | typeof COMMANDS.linkFolder,
  title: string,
): Promise<{ readonly link: Omit<WrittenLink, 'folder' | 'branch'>; readonly request: ActivitySelector } | undefined> {
  const client = await clientOrAdvice(services);
  if (!client) return undefined;
  const gate = new PauseGate(services, command);
  const chosen = await chooseActivity(services, client, gate, title, placeholderRefusal);
  if (!chosen) {
    gate.leftAfterLearning();
    return undefined;
  }
  const { request, name, groupName } = chosen;
  const link = {
    activity: name,
    ...(typeof groupName === 'string' ? { group: groupName } : {}),
    ...(request.createIfMissing === true ? { createIfMissing: true as const } : {}),
  };
  return { link, request };
}

/** Where a new link goes: only for this user (first, the default) or for everyone who opens the repository. */
type LinkTarget = 'user' | 'workspace';

/** Asks where the link goes; undefined when the user leaves. */
async function askWhere(title: string): Promise<LinkTarget | undefined> {
  const items: (vscode.QuickPickItem & { readonly target: LinkTarget })[] = [
    {
      label: vscode.l10n.t('Only for me'),
      description: vscode.l10n.t('your user settings'),
      detail: vscode.l10n.t('In every window of yours; nobody else sees it.'),
      target: 'user',
    },
    {
      label: vscode.l10n.t('For everyone in this repository'),
      description: fileOf('workspace'),
      detail: vscode.l10n.t(
        'In the workspace settings, which a team may commit: everyone who opens the repository is asked whether to use its links.',
      ),
      target: 'workspace',
    },
  ];
  return (await vscode.window.showQuickPick(items, { title, placeHolder: vscode.l10n.t('Where does the link go?') }))
    ?.target;
}

/** The settings file a target writes, as the user knows it. */
function fileOf(target: LinkTarget): string {
  if (target === 'user') return vscode.l10n.t('your user settings');
  const file = vscode.workspace.workspaceFile;
  return file === undefined || file.scheme === 'untitled'
    ? '.vscode/settings.json'
    : vscode.l10n.t('the workspace file {0}', file.path.slice(file.path.lastIndexOf('/') + 1));
}

/**
 * Writes `link` into the target's list where it shadows no link there (placeLink), in place of an entry for the same
 * folder or branch.
 */
async function writeLink(
  services: CommandServices,
  link: WrittenLink,
  target: LinkTarget,
  replaces: (written: Partial<WrittenLink>) => boolean,
): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const inspected = config.inspect('links');
  const written = target === 'workspace' ? inspected?.workspaceValue : inspected?.globalValue;
  const list: unknown[] = Array.isArray(written) ? (written as unknown[]) : [];
  const placed = placeLink(list, link, replaces);
  // The user's own link: used in this workspace without the question a repository's links ask.
  if (target === 'workspace') await services.links.ownWorkspaceLink(list, placed, link);
  await config.update(
    'links',
    placed,
    target === 'workspace' ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global,
  );
  const what = link.branch === undefined ? `folder ${link.folder ?? '?'}` : `branch ${link.branch}`;
  services.log.info(
    `Linked ${what} to ${link.activity} in the ${target === 'workspace' ? 'workspace' : 'user'} settings.`,
  );
}
