/**
 * What most host tests start with: a reference server of their own on a free port, the extension
 * pointed at it with the test's token, and the first idle state seen, so a test begins connected.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import { createReferenceServer, type ReferenceServer, type ReferenceServerOptions } from '../../../src/server/server';
import { kind, until } from './states';

export const EXTENSION_ID = 'clessira-tools.clessira-time-tracker';

export interface Connected {
  readonly api: TimeTrackerApi;
  readonly server: ReferenceServer;
  readonly port: number;
}

/** Starts the server, points the extension at it (`pollIntervalSeconds`, port, token) and waits for idle. */
export async function connectToNewServer(
  token: string,
  options: Omit<ReferenceServerOptions, 'token'> = {},
  pollIntervalSeconds = 2,
): Promise<Connected> {
  const server = createReferenceServer({ ...options, token });
  const port = await server.listen(0);
  const api = (await vscode.extensions.getExtension(EXTENSION_ID)!.activate()) as TimeTrackerApi;
  const config = vscode.workspace.getConfiguration('timeTracker');
  await config.update('pollIntervalSeconds', pollIntervalSeconds, vscode.ConfigurationTarget.Global);
  await config.update('port', port, vscode.ConfigurationTarget.Global);
  await vscode.commands.executeCommand('timeTracker.setToken', token);
  await until(api, kind('idle'), 'the extension connected to the new server');
  return { api, server, port };
}

/** The name of the activity `server` runs now, as its own state says (undefined: nothing runs). */
export function runningOn(server: ReferenceServer): string | undefined {
  const session = server.controls.state.snapshot().running;
  return session === null
    ? undefined
    : server.controls.state
        .listActivities()
        .find((activity) => activity.id.toLowerCase() === session.activityID.toLowerCase())?.name;
}

/** The extension's global storage, where its ledger is: beside the log, under the same user-data folder. */
export function storageFolder(api: TimeTrackerApi): string {
  for (let folder = api.logUri.fsPath; folder !== dirname(folder); folder = dirname(folder)) {
    const storage = join(folder, 'User', 'globalStorage');
    if (existsSync(storage)) return join(storage, EXTENSION_ID.toLowerCase());
  }
  throw new Error(`no User/globalStorage above the log folder ${api.logUri.fsPath}`);
}
