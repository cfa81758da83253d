/**
 * What every command works with, and the steps they share: ask the session for the client (or say
 * why there is none), run a call and turn its failure into one sentence (or leave it to the
 * command that knows it better), refresh the status bar after. Each group of commands has a file
 * of its own next to this one.
 */
import type * as vscode from 'vscode';
import type { ServiceClient } from '../../client';
import { DEFAULT_PORT } from '../../protocol/constants';
import type { CommandId } from '../../tracker/ids';
import type { PeriodKind } from '../../tracker/branchTime/summary';
import type { KnownActivities } from '../../tracker/pickers/activityPicks';
import { adviceForError, diagnose, type Advice } from '../../tracker/advice/advice';
import type { RecentActivities } from '../../tracker/pickers/recentActivities';
import type { BranchTime } from '../branchTime/branchTime';
import type { LinkController } from '../links/linkController';
import type { Messages } from '../messages';
import type { OfflineQueue } from '../offlineQueue';
import type { Session } from '../session';
import type { Settings } from '../settings';
import type { StatusBarController } from '../statusBar';
import type { Log } from '../oneLineLog';

export interface CommandServices {
  /** The owner of the connection: the client, the state, the token. */
  readonly session: Session;
  readonly statusBar: StatusBarController;
  readonly log: Log;
  /** The recent activities, shared by every window (globalState). */
  readonly recent: RecentActivities;
  /** This workspace's state: where the activities the app named are kept for the pickers. */
  readonly workspaceState: vscode.Memento;
  readonly queue: OfflineQueue;
  readonly messages: Messages;
  /** The time-by-branch ledger of this window. */
  readonly branchTime: BranchTime;
  /** The period of the row selected in the "Time by Branch" view, if one is: what its title's commands offer first. */
  readonly branchTimeSelection: () => PeriodKind | undefined;
  /** timeTracker.links: what is linked here, and the Undo of a linked start. */
  readonly links: LinkController;
  /** The activities the pickers' searches named (kept in workspaceState): what a picker offers when it cannot ask. */
  readonly known: KnownActivities;
  /** The settings as last read: what a private status bar keeps off the screen. */
  readonly settings: () => Settings;
}

/** What the composition root hands the command table; the table adds what only the commands share. */
export type CommandParts = Omit<CommandServices, 'known'>;

/** The client once every change is applied; without one, the user is told why. */
export async function clientOrAdvice(services: CommandServices): Promise<ServiceClient | undefined> {
  const client = await services.session.ready();
  if (!client) adviseWithoutClient(services);
  return client;
}

/** Says why there is no client and what to do: start the app, turn on its integration, set a token. */
export function adviseWithoutClient(services: CommandServices): void {
  const { session } = services;
  void services.messages.advise(
    diagnose({ channel: session.channel, capability: session.capability, defaultPort: DEFAULT_PORT }),
  );
}

/**
 * A command's call in one shape (GitLens `copyCurrentBranch.ts`): try it; a failure the command
 * knows better is left to its `onError` (which returns true when it handled it), any other is
 * logged with the command's name and said in one sentence. The status bar is refreshed either way.
 */
export async function run<T>(
  services: CommandServices,
  command: CommandId,
  call: () => Promise<T>,
  onError?: (error: unknown) => boolean | Promise<boolean>,
): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    if (!(await onError?.(error))) tell(services, command, adviceForError(error, services.session.channel.route));
    return undefined;
  } finally {
    void services.session.refreshUnlessPaused();
  }
}

/** Logs the advice with the command's name and shows it, with the button that fixes it; the command does not wait. */
export function tell(services: CommandServices, command: CommandId, advice: Advice): void {
  services.log.error(`${command}: ${advice.message}`);
  void services.messages.advise(advice);
}
