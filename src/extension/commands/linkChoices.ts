/**
 * The questions Link This Branch… asks around the link it writes: on a branch that names a ticket,
 * what to link (this branch only, to an activity picked next, or every branch like it to its ticket,
 * src/tracker/links/linkChoices.ts); and, once the branch the user is on is linked, the offer to
 * start its activity now, through Start Tracking's own path, since a link acts only on the next
 * switch. Where that activity runs already, the message says so instead of offering it.
 */
import * as vscode from 'vscode';
import type { ActivitySelector } from '../../protocol/types';
import { runsAlready, type LinkedActivity, type TicketLinkChoice } from '../../tracker/links/linkChoices';
import type { CommandServices } from './services';
import { start } from './tracking';

/** What Link This Branch… links on a branch that names a ticket. */
export type BranchLinkKind = 'branch' | 'ticket';

/** Asks what to link; undefined when the user leaves. */
export async function askWhatToLink(branch: string, choice: TicketLinkChoice): Promise<BranchLinkKind | undefined> {
  const { pattern, ticket } = choice;
  const everyBranch =
    pattern === '**'
      ? vscode.l10n.t(
          'Each branch whose name holds a ticket key tracks that ticket; the app creates an activity of that name where it has none.',
        )
      : [
          vscode.l10n.t('Each branch under {prefix} whose name holds a ticket key tracks that ticket;', {
            prefix: pattern.slice(0, -'**'.length),
          }),
          vscode.l10n.t('the app creates an activity of that name where it has none.'),
        ].join(' ');
  const items: (vscode.QuickPickItem & { readonly what: BranchLinkKind })[] = [
    {
      label: vscode.l10n.t('This branch only'),
      description: vscode.l10n.t('{branch} → pick an activity', { branch }),
      detail: vscode.l10n.t('Only {0} tracks the activity you pick next.', branch),
      what: 'branch',
    },
    {
      label: vscode.l10n.t('Every branch like this one'),
      description: vscode.l10n.t('{pattern} → its ticket ({ticket} here)', { pattern, ticket }),
      detail: everyBranch,
      what: 'ticket',
    },
  ];
  const chosen = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t('Link This Branch: what to link?'),
    placeHolder: vscode.l10n.t('{branch} names the ticket {ticket}', { branch, ticket }),
  });
  return chosen?.what;
}

/**
 * Says that the branch is linked (`linked`: the sentence) with a Start Now button for its activity,
 * or, where it runs already, says that instead. A click starts it as Start Tracking does, unless it
 * runs by then.
 */
export function offerStart(
  services: CommandServices,
  linked: string,
  activity: LinkedActivity,
  request: ActivitySelector,
): void {
  const running = (): boolean => {
    const { state } = services.session;
    return runsAlready(state.kind === 'tracking' ? state.activity : undefined, activity);
  };
  const runsMessage = (): string => vscode.l10n.t('{0} runs already.', activity.name);
  if (running()) {
    void services.messages.info(`${linked} ${runsMessage()}`);
    return;
  }
  const startNow = async (): Promise<void> => {
    if (running()) return void services.messages.info(runsMessage());
    services.log.info(`Starting ${activity.name} now, as linked to the branch this window is on.`);
    await start(services, request);
  };
  void services.messages.info(linked, { label: vscode.l10n.t('Start Now'), run: startNow });
}
