/**
 * The command table: every command the extension contributes, by id, in one place. The activation
 * bundle (extension.ts) registers the ids before the core is loaded and calls these handlers.
 * Typed by CommandId, so a command added to src/tracker/ids.ts without a handler does not compile
 * (and a unit test keeps ids.ts and package.json's contributes.commands the same). It also builds
 * what the commands share: the activities the app named, read back from the workspace's state, and
 * the recent list that learns what the app runs.
 */
import type * as vscode from 'vscode';
import { errorMessage } from '../../platform/errors';
import { COMMANDS, STORAGE_KEYS, type CommandId } from '../../tracker/ids';
import { KnownActivities } from '../../tracker/pickers/activityPicks';
import { clearBranchHistory, copyBranchSummary, copyWeekByTicket, exportBranchTimeCsv } from './branchTime';
import { checkConnection } from './connection';
import { linkBranch, linkFolder, undoLink, useRepositoryLinks } from './links';
import { unlink } from './unlink';
import type { CommandParts, CommandServices } from './services';
import { clearToken, setToken } from './token';
import { logTime } from './logTime';
import { agentTools } from './tools';
import { rememberRunning, start, stop } from './tracking';
import { showMenu, showQueue, togglePrivateStatusBar } from './views';

/** Every command's handler by id, the agent's tools by name, and what the handlers keep running (disposed as one). */
export interface CommandTable {
  readonly handlers: Readonly<Record<CommandId, (...args: unknown[]) => unknown>>;
  readonly tools: ReturnType<typeof agentTools>;
  readonly disposable: vscode.Disposable;
}

export function commandTable(parts: CommandParts): CommandTable {
  const { workspaceState, log } = parts;
  // Read back here, at activation: a picker opened while the app is away lists what it named before.
  const known = new KnownActivities({
    stored: workspaceState.get(STORAGE_KEYS.knownActivities),
    save: (record) =>
      void Promise.resolve(workspaceState.update(STORAGE_KEYS.knownActivities, record)).catch((error: unknown) =>
        log.warn(`Could not keep the known activities: ${errorMessage(error)}`),
      ),
  });
  const services: CommandServices = { ...parts, known };
  const commands: Record<CommandId, (...args: unknown[]) => unknown> = {
    [COMMANDS.start]: (args) => start(services, args),
    [COMMANDS.stop]: () => stop(services),
    [COMMANDS.log]: (args) => logTime(services, args),
    [COMMANDS.setToken]: (token) => setToken(services, token),
    [COMMANDS.clearToken]: () => clearToken(services),
    [COMMANDS.checkConnection]: () => checkConnection(services),
    [COMMANDS.showLog]: () => services.log.show(),
    [COMMANDS.showMenu]: () => showMenu(services),
    [COMMANDS.showQueue]: () => showQueue(services),
    [COMMANDS.copyBranchSummary]: (node) => copyBranchSummary(services, node, 'plain'),
    [COMMANDS.copyBranchSummaryMarkdown]: (node) => copyBranchSummary(services, node, 'markdown'),
    [COMMANDS.copyWeekByTicket]: (args) => copyWeekByTicket(services, args, 'plain'),
    [COMMANDS.copyWeekByTicketMarkdown]: (args) => copyWeekByTicket(services, args, 'markdown'),
    [COMMANDS.exportBranchTimeCsv]: (args) => exportBranchTimeCsv(services, args),
    [COMMANDS.clearBranchHistory]: () => clearBranchHistory(services),
    [COMMANDS.linkBranch]: () => linkBranch(services),
    [COMMANDS.linkFolder]: () => linkFolder(services),
    [COMMANDS.unlink]: () => unlink(services),
    [COMMANDS.undoLink]: () => undoLink(services),
    [COMMANDS.useRepositoryLinks]: () => useRepositoryLinks(services),
    [COMMANDS.togglePrivateStatusBar]: () => togglePrivateStatusBar(services),
  };
  return { handlers: commands, tools: agentTools(services), disposable: rememberRunning(services) };
}
