/**
 * The rest of the window, after the first status bar text: the offline queue, the branch reporter,
 * links, time by branch, the app's own extension beside this one, onboarding and the command table,
 * each handed only parts made before it, with what one does when another changes. This is
 * dist/rest.js, a bundle of its own: the core (core.ts) loads it once the status bar has shown the
 * session's first state, or at once when a command or the API needs it, so that the path to the
 * first text loads none of it. Its parts go on the core's disposal stack, after the core's own, so
 * they are disposed before them (the log last).
 */
import * as l10n from '@vscode/l10n';
import * as vscode from 'vscode';
import type { DisposalStack } from '../platform/disposalStack';
import { errorMessage } from '../platform/errors';
import { joinedLate } from '../platform/joinedLate';
import type { TrackerState } from '../tracker/model/trackerState';
import type { PeriodKind } from '../tracker/branchTime/summary';
import type { TicketKeys } from '../tracker/branchTime/ticketKeys';
import { longSessionFacts } from '../tracker/statusBar/longSessionFacts';
import { BranchReporter, type HeadRead } from './branchReporter';
import { BranchTime } from './branchTime/branchTime';
import { BranchTimeView } from './branchTime/branchTimeView';
import { Coexistence } from './coexistence/coexistence';
import { commandTable, type CommandTable } from './commands';
import type { Connection, Live, Rest } from './parts';
import { LinkController } from './links/linkController';
import { OfflineQueue } from './offlineQueue';
import { startOnboarding } from './onboarding/onboardingController';
import type { Session } from './session';
import type { Settings } from './settings';
import type { StatusBarController } from './statusBar';

/** What the core hands the rest: what it built for the first text. */
export interface RestInputs extends Connection {
  readonly context: vscode.ExtensionContext;
  readonly stack: DisposalStack;
  readonly live: Live;
  readonly statusBar: StatusBarController;
}

/** Every part of the rest, each built whole. */
interface Parts extends RestInputs, Omit<Rest, 'commands' | 'tools' | 'longSession' | 'settingsChanged'> {
  readonly commandTable: CommandTable;
}

export function startRest(inputs: RestInputs): Rest {
  // This bundle has its own copy of @vscode/l10n: hand it the same translations as the core's.
  l10n.config({ contents: vscode.l10n.bundle ?? {} });
  const { session, stack } = inputs;
  const joined = stack.use(joinedLate(session, new vscode.EventEmitter<TrackerState>()));
  const parts = buildParts(inputs, joined.late);
  wireParts(parts);
  startParts(parts);
  // The state the status bar already shows, to the parts that were not there when it came.
  if (session.state.kind !== 'starting') joined.replay();
  return {
    ...parts,
    commands: parts.commandTable.handlers,
    tools: parts.commandTable.tools,
    longSession: longSessionFacts,
    settingsChanged: (affects) => settingsChanged(parts, affects),
  };
}

/** `session`: the session as a part built late sees it (platform/joinedLate.ts); `inputs.session`: itself. */
function buildParts(inputs: RestInputs, session: Session): Parts {
  const { context, stack, live, log, messages, recent, statusBar } = inputs;
  const settings = (): Settings => live.settings;
  const { globalState, workspaceState } = context;
  const storageFolder = context.globalStorageUri.fsPath;
  const privateStatusBar = (): boolean => live.settings.privateStatusBar;
  const queue = stack.use(new OfflineQueue(storageFolder, log, messages, privateStatusBar));
  const branches = stack.use(new BranchReporter({ session, log, settings, messages }));
  const branchTime = stack.use(
    new BranchTime({ storageFolder, workspaceState, session, branches, log, messages, settings }),
  );
  const branchTimeView = stack.use(new BranchTimeView(branchTime, privateStatusBar));
  const tickets = (): TicketKeys => branchTime.ticketKeys();
  const links = stack.use(
    new LinkController({ session, branches, log, messages, settings, tickets, recent, workspaceState, storageFolder }),
  );
  const extensions = { extensions: () => vscode.extensions.all, onDidChangeExtensions: vscode.extensions.onDidChange };
  const ownId = context.extension.id;
  const coexistence = stack.use(
    new Coexistence({ ownId, memento: globalState, log, settings, messages, ...extensions }),
  );
  // Onboarding reads the session's current state itself when it is built: the session as it is.
  const onboarding = stack.use(startOnboarding(context, { session: inputs.session, log, messages, settings }));
  const branchTimeSelection = (): PeriodKind | undefined => branchTimeView.selectedPeriod();
  const commands = commandTable({
    ...inputs,
    session,
    statusBar,
    workspaceState,
    queue,
    branchTime,
    branchTimeSelection,
    links,
    settings,
  });
  stack.use(commands.disposable);
  return {
    ...inputs,
    session,
    queue,
    branches,
    links,
    branchTime,
    branchTimeView,
    coexistence,
    onboarding,
    commandTable: commands,
  };
}

/** What a part does when another changes: the status bar shows it, the queue sends when the app answers. */
function wireParts(parts: Parts): void {
  const { stack, links, statusBar, branchTime, queue, session, branches, coexistence } = parts;
  const changes = [
    links.onDidChangeUndo,
    links.onDidChangeNotice,
    links.onDidChangeWaiting,
    branchTime.onDidChangeBranchToday,
    coexistence.onDidChange,
  ];
  for (const changed of [...changes, queue.onDidChangeCount]) stack.use(changed(() => statusBar.rerender()));
  // The app answers again (or still does): send what waits. A first release has no
  // POST /entries: what waits, waits for the app's update.
  stack.use(
    session.onDidChangeState((state) =>
      queue.stateChanged((state.kind === 'idle' || state.kind === 'tracking') && !session.firstRelease, session.client),
    ),
  );
  stack.use(branches.onDidReadHead((read) => headRead(parts, read)));
}

/**
 * Every read of a repository's HEAD, and what a branch switch does, in order: a link that names
 * the branch's activity acts on it (or asks first); the app hears of the switch unless a link
 * decided it or the app's own extension reports it; the ledger puts the time from now on on the
 * branch HEAD names (a read that is no switch, a detached HEAD or a rebase's, is the ledger's alone).
 */
function headRead({ links, branches, coexistence, branchTime }: Parts, read: HeadRead): void {
  const { switched } = read;
  if (switched !== undefined) {
    const linked = links.decides(switched);
    void branches.report(switched, read.fileSystem, { linked, appExtension: coexistence.reportingPeer() });
  }
  void branchTime.headRead(read);
}

/** What the rest's parts do when the core has read the settings again. */
function settingsChanged(parts: Parts, affects: (key: string) => boolean): void {
  const { live, links, branches, branchTime, branchTimeView } = parts;
  links.settingsChanged();
  if (['git', 'branchTime', 'links', 'linksEnabled'].some(affects)) live.branchWatch = branches.apply(links.watching());
  if (affects('branchTime')) void branchTime.settingsChanged(live.branchWatch);
  if (affects('statusBar.private') || affects('branchTime')) branchTimeView.settingsChanged();
}

/** What reads the disk or asks the app: started here, finished later. */
function startParts(parts: Parts): void {
  const { log, live, queue, statusBar, branches, branchTime, links, coexistence } = parts;
  void queue.start().then(() => statusBar.rerender());
  // The app's own extension beside this one: what its being here changes is said once.
  void coexistence.check();
  // Finding repositories reads the disk: started here, finished later.
  live.branchWatch = branches.apply(links.watching());
  void branchTime.start(live.branchWatch);
  // A window opening on a linked folder or branch while nothing runs: once the repositories are found.
  void live.branchWatch
    .then(() => links.windowOpened())
    .catch((error: unknown) => log.warn(`Following timeTracker.links at start failed: ${errorMessage(error)}`));
}
