/**
 * The command table: every command the extension contributes, by id, registered in one place.
 * Typed by CommandId, so a command added to src/tracker/ids.ts without a handler does not compile
 * (and a unit test keeps ids.ts and package.json's contributes.commands the same).
 */
import * as vscode from 'vscode';
import { COMMANDS, type CommandId } from '../../tracker/ids';
import { KnownActivities } from '../../tracker/view/activityPicks';
import { clearBranchHistory, copyBranchSummary } from './branchTime';
import { checkConnection } from './connection';
import type { CommandParts, CommandServices } from './services';
import { clearToken, setToken } from './token';
import { logTime, start, stop } from './tracking';
import { showLog, showMenu, showQueue } from './views';

export function registerCommands(parts: CommandParts): vscode.Disposable[] {
  const services: CommandServices = { ...parts, known: new KnownActivities() };
  const commands: Record<CommandId, (...args: unknown[]) => unknown> = {
    [COMMANDS.start]: (args) => start(services, args),
    [COMMANDS.stop]: () => stop(services),
    [COMMANDS.log]: (args) => logTime(services, args),
    [COMMANDS.setToken]: (token) => setToken(services, token),
    [COMMANDS.clearToken]: () => clearToken(services),
    [COMMANDS.checkConnection]: () => checkConnection(services),
    [COMMANDS.showLog]: () => showLog(services),
    [COMMANDS.showMenu]: () => showMenu(services),
    [COMMANDS.showQueue]: () => showQueue(services),
    [COMMANDS.copyBranchSummary]: (node) => copyBranchSummary(services, node, 'plain'),
    [COMMANDS.copyBranchSummaryMarkdown]: (node) => copyBranchSummary(services, node, 'markdown'),
    [COMMANDS.clearBranchHistory]: () => clearBranchHistory(services),
  };
  return Object.entries(commands).map(([id, run]) => vscode.commands.registerCommand(id, run));
}
