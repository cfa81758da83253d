/**
 * Unlink: removes a link that applies here from the settings file it is in. A link whose glob is a
 * pattern (`fix/**`) stands for more than this branch, so Unlink says so and asks first: remove it
 * for every branch like this one, or keep it and leave out only this branch (its `except`). The
 * message names the branch, folder or pattern unlinked, and its Undo puts the settings back as
 * they were.
 */
import * as vscode from 'vscode';
import type { LinkScope } from '../../tracker/links/linkConsent';
import { isPattern, withException, withoutLink } from '../../tracker/links/linkEdits';
import type { LinkDecision } from '../../tracker/links/links';
import { SECTION } from '../settings';
import { folderOrSay } from './links';
import type { CommandServices } from './services';

interface Found {
  readonly decision: LinkDecision;
  readonly scope: LinkScope;
}

/** What Unlink does to the link: remove it, or leave this branch out of its pattern. */
type Plan = 'remove' | 'except';

export async function unlink(services: CommandServices): Promise<void> {
  const folder = await folderOrSay(services);
  if (!folder) return;
  const branch = await services.links.branchOf(folder.uri);
  const here = services.links.linksAt(folder, branch);
  if (here.length === 0) {
    void services.messages.info(
      vscode.l10n.t('No link applies to {0} here.', branch === undefined ? folder.name : `${folder.name} (${branch})`),
    );
    return;
  }
  const chosen = here.length === 1 ? here[0] : await whichLink(here);
  if (!chosen) return;
  const plan = await planFor(chosen, branch, folder.name);
  if (!plan) return;
  const target =
    chosen.scope === 'workspace' ? vscode.ConfigurationTarget.Workspace : vscode.ConfigurationTarget.Global;
  const config = vscode.workspace.getConfiguration(SECTION);
  const inspected = config.inspect('links');
  const before = chosen.scope === 'workspace' ? inspected?.workspaceValue : inspected?.globalValue;
  const list: unknown[] = Array.isArray(before) ? (before as unknown[]) : [];
  const { position } = chosen.decision.link;
  const after =
    plan === 'except' && branch !== undefined ? withException(list, position, branch) : withoutLink(list, position);
  await config.update('links', after.length === 0 ? undefined : after, target);
  const what = unlinked(chosen.decision, plan, branch, folder.name);
  services.log.info(
    `Unlink: ${plan === 'except' ? `left ${branch ?? '?'} out of` : 'removed'} link ${position} ` +
      `of timeTracker.links in the ${chosen.scope} settings.`,
  );
  void services.messages.info(what, {
    label: vscode.l10n.t('Undo'),
    run: async () => {
      // The value read before, as it was: the list, its order and every other link come back.
      await vscode.workspace.getConfiguration(SECTION).update('links', before, target);
      services.log.info(`Unlink undone: timeTracker.links in the ${chosen.scope} settings is as before.`);
    },
  });
}

async function whichLink(here: readonly Found[]): Promise<Found | undefined> {
  const items = here.map((item) => ({
    label: item.decision.activity,
    description: describe(item.decision, item.scope),
    item,
  }));
  return (
    await vscode.window.showQuickPick(items, {
      title: vscode.l10n.t('Unlink'),
      placeHolder: vscode.l10n.t('Which link?'),
    })
  )?.item;
}

/**
 * Removes an exact link at once; for a pattern asks whether it goes for every branch (or folder)
 * like this one, or only this branch is left out. Undefined: the user left, nothing changes.
 */
async function planFor(found: Found, branch: string | undefined, folder: string): Promise<Plan | undefined> {
  const { link } = found.decision;
  const glob = found.decision.by === 'branch' ? link.branch : link.folder;
  if (glob === undefined || !isPattern(glob)) return 'remove';
  const where =
    found.scope === 'workspace' ? vscode.l10n.t('the workspace settings') : vscode.l10n.t('your user settings');
  const activity = found.decision.activity;
  if (found.decision.by === 'branch' && branch !== undefined) {
    const title = vscode.l10n.t('{branch} tracks {activity} by a pattern, {glob} in {where}', {
      branch,
      glob,
      activity,
      where,
    });
    const items: (vscode.QuickPickItem & { readonly plan: Plan })[] = [
      {
        label: vscode.l10n.t('Remove {0} for every branch', glob),
        detail: vscode.l10n.t('No branch like {0} tracks an activity by this link any more.', branch),
        plan: 'remove',
      },
      {
        label: vscode.l10n.t('Keep {0}, stop only {1}', glob, branch),
        detail: vscode.l10n.t('The link stays; only {0} is left out (its "except").', branch),
        plan: 'except',
      },
    ];
    return (
      await vscode.window.showQuickPick(items, {
        title,
        placeHolder: vscode.l10n.t('Unlink every branch like this one, or only this one? (Escape changes nothing)'),
      })
    )?.plan;
  }
  const title = vscode.l10n.t('{folder} tracks {activity} by a pattern, {glob} in {where}', {
    folder,
    glob,
    activity,
    where,
  });
  const items = [
    {
      label: vscode.l10n.t('Remove {0} for every folder', glob),
      detail: vscode.l10n.t('No folder like {0} tracks an activity by this link any more.', folder),
      plan: 'remove' as const,
    },
  ];
  return (
    await vscode.window.showQuickPick(items, {
      title,
      placeHolder: vscode.l10n.t('Unlink every folder like this one? (Escape changes nothing)'),
    })
  )?.plan;
}

/** What the message says was unlinked: the branch, the folder or the pattern, never the activity alone. */
function unlinked(decision: LinkDecision, plan: Plan, branch: string | undefined, folder: string): string {
  const { link } = decision;
  if (plan === 'except' && branch !== undefined)
    return vscode.l10n.t('Unlinked {branch}: {glob} still links every other branch like it.', {
      branch,
      glob: link.branch ?? '',
    });
  if (decision.by === 'folder') {
    const glob = link.folder ?? folder;
    return isPattern(glob)
      ? vscode.l10n.t('Unlinked {glob} (every folder like {folder}).', { glob, folder })
      : vscode.l10n.t('Unlinked folder {0}.', glob);
  }
  const glob = link.branch ?? '';
  return isPattern(glob) && branch !== undefined
    ? vscode.l10n.t('Unlinked {glob} (every branch like {branch}).', { glob, branch })
    : vscode.l10n.t('Unlinked branch {0}.', glob);
}

function describe(decision: LinkDecision, scope: LinkScope): string {
  const where = scope === 'workspace' ? vscode.l10n.t('workspace settings') : vscode.l10n.t('user settings');
  const what = [decision.link.folder, decision.link.branch].filter((glob) => glob !== undefined).join(' · ');
  return `${what} · ${where}`;
}
