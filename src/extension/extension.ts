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
import { COMMANDS, TOOLS, type CommandId, type ToolName } from '../tracker/ids';
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
  registerTools(context, core);
  const soon = setImmediate(() => core.loadOrSay());
  context.subscriptions.push({ dispose: () => clearImmediate(soon) });
  core.activationMs = performance.now() - started;
  return core.api;
}

/**
 * The agent's tools, registered here as the commands are: VS Code activates the extension for a tool it calls
 * (`onLanguageModelTool:`) and looks for its implementation at once.
 */
function registerTools(context: vscode.ExtensionContext, core: CoreLoader): void {
  for (const name of Object.values(TOOLS)) {
    const tool: vscode.LanguageModelTool<unknown> = {
      // Free of side effects, as VS Code asks: only the question, from the input and what the window knows.
      prepareInvocation: ({ input }) => {
        const asked = core.tool(name).prepare?.(input);
        if (asked === undefined || typeof asked === 'string') return undefined;
        return { confirmationMessages: { title: asked.title, message: new vscode.MarkdownString(asked.message) } };
      },
      invoke: async ({ input, toolInvocationToken }) => {
        // Opaque to extensions (typed `never`): only its presence tells a chat's call from another extension's.
        const token: unknown = toolInvocationToken;
        const said = await core.tool(name).invoke(input, { inChat: token !== undefined });
        return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(said)]);
      },
    };
    context.subscriptions.push(vscode.lm.registerTool(name, tool));
  }
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

  /** A tool's work in the core; without a core, the tool fails with why (the agent says it in the chat). */
  tool(name: ToolName): Core['tools'][ToolName] {
    return this.#core.get().tools[name];
  }

  /** The API, forwarded to the core's, which a read loads if it is not yet. */
  readonly api: TimeTrackerApi = forwardOnRead(() => this.#core.get().api);
}
