/**
 * Composition root of the path to the first status bar text: the log, the session that owns the
 * connection, the recent list and the status bar, each handed only parts made before it; it follows
 * the settings and owns the disposables, which go in the reverse order of their creation (the log
 * last). Everything else (the queue, the branch reporter, links, time by branch, the app's own
 * extension beside this one, onboarding, the command table) is the rest, rest.ts, loaded from beside
 * this once the status bar has shown the session's first state, or at once when a command or the
 * API needs it. The API it returns is built in api.ts. This is dist/core.js, a bundle of its own:
 * the activation bundle (extension.ts) loads it once `activate` has returned, or sooner when a
 * command or the API is used first; dist/rest.js is a third (test/unit/client/activationBundle.test.ts
 * holds what runs before the first text under its budget).
 */
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import { loadBeside } from '../platform/besideModule';
import { DisposalStack } from '../platform/disposalStack';
import { errorMessage } from '../platform/errors';
import { forwardOnRead, LoadOnce } from '../platform/loadOnce';
import { later } from '../platform/timers';
import { rememberedGroup } from '../tracker/pickers/activityPicks';
import { RecentActivities } from '../tracker/pickers/recentActivities';
import { STORAGE_KEYS } from '../tracker/ids';
import { touchesRestricted } from '../tracker/settings/untrustedWorkspace';
import { buildApi, type TimeTrackerApi } from './api';
import { Messages } from './messages';
import { OneLineLogChannel } from './oneLineLog';
import { readSettings, SECTION, type Settings } from './settings';
import { hostDecider, logHostDecision, sayWhenRemoteHost } from './remoteHost';
import type { Connection, Live, Rest } from './parts';
import { Session } from './session';
import { sayCouldNotStart } from './startFailure';
import { StatusBarController } from './statusBar';

/** What the activation bundle holds of the core once it is loaded. */
export interface Core {
  readonly api: TimeTrackerApi;
  /** Every command's handler, by id: the activation bundle registers the ids and calls these; a read loads the rest. */
  readonly commands: Rest['commands'];
  /** The agent's tools, by name, registered by the activation bundle as the commands are; a read loads the rest. */
  readonly tools: Rest['tools'];
}

/** Times the activation bundle measured, for the API and the log. */
export interface ActivationTimes {
  /** How long `activate` itself took. */
  readonly activationMs: number;
  /** When the core began loading (performance.now()), to tell how long loading and building it took. */
  readonly loadStarted: number;
}

type RestModule = typeof import('./rest');

/** Beside this file: dist/rest.js in a bundle, out/src/extension/rest.js in the tests. */
const REST_MODULE = './rest';

/** An app that has not answered by then still gets its commands and its queue: the rest loads anyway. */
const REST_AT_THE_LATEST_MS = 2_000;

export function startCore(context: vscode.ExtensionContext, times: ActivationTimes): Core {
  // src/tracker translates with @vscode/l10n (it cannot import vscode): hand it the bundle VS Code
  // loaded for the display language (l10n/bundle.l10n.<language>.json; none for English). Log
  // lines stay English, for support; they quote what the user was shown as it was shown.
  l10n.config({ contents: vscode.l10n.bundle ?? {} });
  const stack = new DisposalStack();
  const live: Live = { settings: readSettings(), branchWatch: Promise.resolve() };
  const connection = connect(context, stack, live);
  // The rest, once: a failure is kept and said, never a second half-built rest.
  const rest: LoadOnce<Rest> = new LoadOnce(() =>
    (loadBeside(__filename, REST_MODULE, 'The rest of Time Tracker') as RestModule).startRest({
      ...connection,
      context,
      stack,
      live,
      statusBar,
    }),
  );
  const statusBar = stack.use(statusBarOf(connection, live, () => rest.loaded));
  followSettings(stack, { ...connection, statusBar }, live, () => rest.loaded);
  // One entry: VS Code disposes context.subscriptions in order, the stack its parts in reverse.
  context.subscriptions.push(stack);
  loadRestAfterFirstText(stack, connection, rest);
  const { version } = context.extension.packageJSON as { version?: string };
  connection.log.info(
    `Time Tracker ${version ?? ''} activated; looking for the app's VS Code integration, ` +
      `else its HTTP API on 127.0.0.1:${live.settings.port}.`,
  );

  const coreMs = performance.now() - times.loadStarted;
  connection.log.debug(
    `Activation took ${times.activationMs.toFixed(1)} ms; loading and starting the core, after it, ${coreMs.toFixed(1)} ms.`,
  );
  const api = buildApi({
    ...connection,
    statusBar,
    rest: () => rest.get(),
    logUri: context.logUri,
    activationMs: times.activationMs,
    coreMs,
    branchWatch: () => live.branchWatch,
  });
  return { api, commands: forwardOnRead(() => rest.get().commands), tools: forwardOnRead(() => rest.get().tools) };
}

/** The log, the session that owns the connection, the message sink, the recent list: what the rest read. */
function connect(context: vscode.ExtensionContext, stack: DisposalStack, live: Live): Connection {
  const settings = (): Settings => live.settings;
  const { globalState } = context;
  // Every part logs through it: each entry stays one line, whatever outside text it quotes.
  const log = stack.use(new OneLineLogChannel(vscode.window.createOutputChannel('Time Tracker', { log: true })));
  const host = hostDecider(context.extension, () => live.settings.allowWorkspaceHost);
  logHostDecision(log, host());
  const session = stack.use(new Session({ secrets: context.secrets, memento: globalState, log, settings, host }));
  const messages = stack.use(new Messages(log));
  stack.use(sayWhenRemoteHost(session, messages));
  // Started before the other parts, so that whoever asks `session.ready()` waits for the first decision.
  void session.reconnect();
  // One owner of the recent list in this window: a stale read of globalState never hides its own latest use.
  const recent = new RecentActivities({
    get: () => globalState.get(STORAGE_KEYS.recentActivities),
    update: (value) => globalState.update(STORAGE_KEYS.recentActivities, value),
  });
  return { log, host, session, messages, recent };
}

/** The status bar: what the rest knows (the queue, time by branch, links, the app's own extension) once it is there. */
function statusBarOf(connection: Connection, live: Live, rest: () => Rest | undefined): StatusBarController {
  const { session, log, messages, recent } = connection;
  return new StatusBarController({
    session,
    settings: () => live.settings,
    queued: () => rest()?.queue.waiting,
    log,
    messages,
    branchToday: () => rest()?.branchTime.branchToday(),
    linkedStart: () => rest()?.links.undo,
    notice: () => rest()?.links.notice,
    linksWaiting: () => rest()?.links.waiting,
    branchesReportedBy: () => rest()?.coexistence.reportingPeer()?.id,
    longSession: () => rest()?.longSession,
    groupOf: (activityID) => rememberedGroup(recent.list(), activityID),
  });
}

/**
 * The rest loads once the status bar has shown the session's first state: on a timer, so that it
 * runs after the one VS Code sets to send the item's new text to the window. At the latest after
 * REST_AT_THE_LATEST_MS; sooner when a command or the API needs it.
 */
function loadRestAfterFirstText(stack: DisposalStack, { session, log }: Connection, rest: LoadOnce<Rest>): void {
  let timer: NodeJS.Timeout | undefined;
  const load = (): void => {
    clearTimeout(timer);
    first.dispose();
    try {
      rest.get();
    } catch (error) {
      log.error(errorMessage(error));
      sayCouldNotStart(error);
    }
  };
  const first = session.onDidChangeState(() => {
    clearTimeout(timer);
    timer = later(load, 0);
  });
  timer = later(load, REST_AT_THE_LATEST_MS);
  stack.use({
    dispose: () => {
      clearTimeout(timer);
      first.dispose();
    },
  });
}

/** Re-reads the settings on a change, and on trust granted: each part applies what concerns it. */
function followSettings(
  stack: DisposalStack,
  parts: Connection & { readonly statusBar: StatusBarController },
  live: Live,
  rest: () => Rest | undefined,
): void {
  const { log, host, statusBar, session } = parts;
  /** `affects(key)` says whether a setting (its name after `timeTracker.`) may have changed. */
  const settingsChanged = (affects: (key: string) => boolean): void => {
    live.settings = readSettings();
    if (affects('remote')) logHostDecision(log, host());
    rest()?.settingsChanged(affects);
    statusBar.rerender();
    void session.settingsChanged();
  };
  stack.use(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration(SECTION))
        settingsChanged((key) => event.affectsConfiguration(`${SECTION}.${key}`));
    }),
  );
  // Trust lets the workspace's values of the restricted settings apply: as if each of them changed.
  stack.use(vscode.workspace.onDidGrantWorkspaceTrust(() => settingsChanged(touchesRestricted)));
}
