/**
 * The activation bundle (`main`, dist/extension.js): what VS Code reads and runs before `activate`
 * returns, kept at the floor. It registers every command's id and returns the API; the core,
 * dist/core.js (core.ts: the session and its client, the status bar), is loaded right after
 * `activate` has returned, or at once when a command or the API is used before that, and the core
 * loads the rest (rest.ts: the queue, the ledger, links, git, onboarding, the command handlers)
 * after the first status bar text. Every import here lands in this bundle, so it imports ids, the
 * platform's loader and the one sentence for a failed start, and the core only as a type
 * (test/unit/client/activationBundle.test.ts holds it under 60 KB and checks that the core stays out).
 */
import * as vscode from 'vscode';
import { loadBeside } from '../platform/besideModule';
import { forwardOnRead, LoadOnce } from '../platform/loadOnce';
import { COMMANDS, type CommandId } from '../tracker/ids';
import type { TimeTrackerApi } from './api';
import type { Core } from './core';
import { sayCouldNotStart } from './startFailure';

export type { TimeTrackerApi } from './api';

type CoreModule = typeof import('./core');

/** Beside this file: dist/core.js in a bundle, out/src/extension/core.js in the tests. */
const CORE_MODULE = './core';

export function activate(context: vscode.ExtensionContext): TimeTrackerApi {
  const started = performance.now();
  const core = new CoreLoader(context);
  // Registered here, not by the core: a command run while the core loads must find its id.
  for (const id of Object.values(COMMANDS))
    context.subscriptions.push(vscode.commands.registerCommand(id, (...args: unknown[]) => core.run(id, args)));
  const soon = setImmediate(() => core.loadOrSay());
  context.subscriptions.push({ dispose: () => clearImmediate(soon) });
  core.activationMs = performance.now() - started;
  return core.api;
}

/** The core, loaded and started once (LoadOnce keeps a failure rather than start a second half-built core). */
class CoreLoader {
  /** Set when `activate` is about to return: the core's log and the API report it. */
  activationMs = 0;
  readonly #core: LoadOnce<Core>;

  constructor(context: vscode.ExtensionContext) {
    this.#core = new LoadOnce(() => {
      const loadStarted = performance.now();
      const module = loadBeside(__filename, CORE_MODULE, "Time Tracker's core") as CoreModule;
      return module.startCore(context, { activationMs: this.activationMs, loadStarted });
    });
  }

  /** Right after activation: a core that cannot start says why, once, where the user looks. */
  loadOrSay(): void {
    try {
      this.#core.get();
    } catch (error) {
      sayCouldNotStart(error);
    }
  }

  /** A command: its handler in the core, or, without a core, why it cannot act. */
  run(id: CommandId, args: unknown[]): unknown {
    let handler: Core['commands'][CommandId];
    try {
      handler = this.#core.get().commands[id];
    } catch (error) {
      sayCouldNotStart(error);
      return undefined;
    }
    return handler(...args);
  }

  /** The API, forwarded to the core's, which a read loads if it is not yet. */
  readonly api: TimeTrackerApi = forwardOnRead(() => this.#core.get().api);
}
