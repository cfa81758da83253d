/**
 * What both halves of the reload suite share: where the app listens, its token and data file,
 * and the entries logged while it is away. The launcher (test/suites.mjs, `reload: true`) gives
 * the state folder and the port as parameters (../launch.ts) and the token as SERVICE_TOKEN.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import { DataFile } from '../../../src/server/dataFile';
import { createReferenceServer, type ReferenceServer } from '../../../src/server/server';
import { requiredParam } from '../launch';

const extensionId = 'clessira-tools.clessira-time-tracker';

function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '')
    throw new Error(`${name} is not set: run this suite with \`npm test -- --suite reload\``);
  return value;
}

/** A folder that outlives the window: the first half's result and the app's data file. */
export const stateDir = (): string => requiredParam('stateDir', 'reload');
export const firstHalfResultFile = (): string => join(stateDir(), 'before-reload.json');
/** The process id of the extension host that ran the first half. */
export const firstHalfHostPid = (): number =>
  (JSON.parse(readFileSync(firstHalfResultFile(), 'utf8')) as { hostPid: number }).hostPid;
/** What the time-by-branch ledger held before the reload. */
export const branchTimeFile = (): string => join(stateDir(), 'branch-time-before.json');
export const appPort = (): number => Number(requiredParam('port', 'reload'));

/** The entries of the acceptance: logged while the app is away, in this order. */
export const OFFLINE_ENTRIES = [
  ['Reload first', 10],
  ['Reload second', 20],
  ['Reload third', 30],
] as const;

/** An activity a picker's search names before the reload, and lists after it while the app is away. */
export const KNOWN_ACTIVITY = 'Reload review';

/**
 * The app, as the user runs it: the same port and token (SERVICE_TOKEN, which the extension
 * reads too) and the same data file each time it starts, so a restart keeps what it logged.
 */
export async function startApp(): Promise<ReferenceServer> {
  const server = createReferenceServer({
    token: required('SERVICE_TOKEN'),
    dataFile: new DataFile(join(stateDir(), 'app-data.json')),
  });
  await server.listen(appPort());
  return server;
}

export async function extensionApi(): Promise<TimeTrackerApi> {
  return (await vscode.extensions.getExtension(extensionId)!.activate()) as TimeTrackerApi;
}
