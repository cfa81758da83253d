/**
 * What every command works with, and the steps they share: ask the session for the client (or say
 * why there is none), run a call and turn its failure into one sentence, refresh the status bar
 * after. Each group of commands has a file of its own next to this one.
 */
import type * as vscode from 'vscode';
import type { ServiceClient } from '../../client';
import { DEFAULT_PORT } from '../../protocol/constants';
import { adviceForError, diagnose } from '../../tracker/view/advice';
import type { Messages } from '../messages';
import type { OfflineQueue } from '../offlineQueue';
import type { Session } from '../session';
import type { StatusBarController } from '../statusBar';

export interface CommandServices {
  /** The owner of the connection: the client, the state, the token. */
  readonly session: Session;
  readonly statusBar: StatusBarController;
  readonly log: vscode.LogOutputChannel;
  /** Where the recent activities are kept (globalState). */
  readonly memento: vscode.Memento;
  readonly queue: OfflineQueue;
  readonly messages: Messages;
}

/** The client once every change is applied; without one, the user is told why. */
export async function clientOrAdvice(services: CommandServices): Promise<ServiceClient | undefined> {
  const { session } = services;
  const client = await session.ready();
  if (!client) void services.messages.advise(diagnose({ channel: session.channel, capability: session.capability, defaultPort: DEFAULT_PORT }));
  return client;
}

/** Runs a call, reports its failure in one sentence, and refreshes the status bar either way. */
export async function run<T>(services: CommandServices, call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    report(services, error);
    return undefined;
  } finally {
    void services.session.refreshUnlessPaused();
  }
}

/** Logs and shows the failure; the command does not wait for the notification to be closed. */
export function report(services: CommandServices, error: unknown): void {
  const advice = adviceForError(error, services.session.channel.route);
  services.log.error(advice.message);
  void services.messages.advise(advice);
}
