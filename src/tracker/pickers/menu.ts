/**
 * The status bar menu: what works in the current state, first what helps most there. A click on
 * the item opens it in every state, so no state hides a way out behind a single action: offline,
 * or while the app rejects the token or locks us out, Log Time still works (the entry queues).
 */
import * as l10n from '@vscode/l10n';
import { clockTime } from '../duration';
import { COMMANDS, type CommandId } from '../ids';
import type { Route } from '../model/channel';
import type { SessionStart } from '../model/longSession';
import type { TrackerState } from '../model/trackerState';

export interface MenuEntry {
  readonly label: string;
  readonly detail?: string;
  readonly command: CommandId;
  /** The command's arguments, where the entry names what it acts on. */
  readonly args?: readonly unknown[];
}

const entry = (label: string, command: CommandId, detail?: string): MenuEntry =>
  detail === undefined ? { label, command } : { label, command, detail };

/** The entries a state may offer, by what they do; each state lists the ones that work there, in its order. */
interface Entries {
  readonly logTime: MenuEntry;
  /** Log Time where the app may not take it now: it says that the entry queues. */
  readonly queuedLogTime: MenuEntry;
  /** Show Queued Entries while entries wait; none otherwise. */
  readonly queue: readonly MenuEntry[];
  /** Show Queued Entries even while none waits: offline the queue is what a user looks for. */
  readonly queueAlways: MenuEntry;
  readonly check: MenuEntry;
  readonly log: MenuEntry;
  /** Set Token, and Clear Token when one is stored. */
  readonly token: readonly MenuEntry[];
}

function entries(hasToken: boolean, queued: number): Entries {
  const setToken = `$(key) ${l10n.t('Set Token…')}`;
  const showQueue = entry(
    `$(inbox) ${queued > 0 ? l10n.t('Show Queued Entries ({0})', queued) : l10n.t('Show Queued Entries')}`,
    COMMANDS.showQueue,
  );
  return {
    logTime: entry(`$(history) ${l10n.t('Log Time…')}`, COMMANDS.log),
    queuedLogTime: entry(
      `$(history) ${l10n.t('Log Time…')}`,
      COMMANDS.log,
      l10n.t('The entry waits in the queue and is sent once the app takes it'),
    ),
    queue: queued > 0 ? [showQueue] : [],
    queueAlways: showQueue,
    check: entry(`$(plug) ${l10n.t('Check Connection')}`, COMMANDS.checkConnection),
    log: entry(`$(output) ${l10n.t('Show Log')}`, COMMANDS.showLog),
    token: hasToken
      ? [
          entry(setToken, COMMANDS.setToken, l10n.t('Replace the stored token')),
          entry(`$(trash) ${l10n.t('Clear Token')}`, COMMANDS.clearToken),
        ]
      : [entry(setToken, COMMANDS.setToken, l10n.t("Paste the token from the app's settings"))],
  };
}

/** A linked start Undo still takes back: what it started, and what ran before (undefined: nothing). */
export interface MenuUndo {
  readonly started: string;
  readonly previous: string | undefined;
}

/** `route`: the way to the app; over its VS Code integration the token is the app's own, fixed in the app. */
export function menuFor(
  state: TrackerState,
  hasToken: boolean,
  queued = 0,
  undo?: MenuUndo,
  route: Route['kind'] = 'http',
): MenuEntry[] {
  const e = entries(hasToken, queued);
  const tail = [...e.queue, e.check, e.log];
  switch (state.kind) {
    case 'tracking':
    case 'idle':
      return [...undoEntry(state, undo), ...answeringMenu(state, e.logTime, tail)];
    case 'offline':
      return [e.queuedLogTime, e.queueAlways, e.check, e.log, ...e.token];
    case 'tokenRejected':
      // A clock that is off is set right in the system, and the integration's own token in the app: not with another
      // token.
      return state.clockSkewSeconds === undefined && route === 'http'
        ? [...e.token, e.check, e.queuedLogTime, ...e.queue, e.log]
        : [e.check, e.queuedLogTime, ...e.queue, e.log, ...e.token];
    case 'lockedOut':
      // The lockout ends by itself and the token may be fine: what works meanwhile first, a new token last.
      return [e.queuedLogTime, e.check, ...e.queue, e.log, ...e.token];
    case 'licenseLocked':
      // The token works (the app answered), so no token entry; the license is renewed in the app, then
      // checked here. No Log Time: the app refuses an entry (423) and nothing queues it.
      return [
        entry(
          `$(plug) ${l10n.t('Check Connection')}`,
          COMMANDS.checkConnection,
          l10n.t('Once the license is activated or renewed in the app'),
        ),
        ...e.queue,
        e.log,
      ];
    case 'noToken':
      return [...e.token, ...tail];
    case 'remoteHost':
      // Nothing is sent from here: Check Connection says how to run the extension on the user's side.
      return [e.check, e.log, ...e.queue, ...e.token];
    case 'failed':
      // Its one sentence is in the tooltip; the log says the rest.
      return [e.log, ...e.queue, e.check, ...e.token];
    case 'starting':
    case 'unavailable':
      // Not yet known, or the app would refuse an entry (503) that nothing queues: no Log Time.
      return [...tail, ...e.token];
  }
}

/** Undo Automatic Start, first: a link chose what runs, and the user opened the menu right after. */
function undoEntry(
  state: Extract<TrackerState, { kind: 'idle' | 'tracking' }>,
  undo: MenuUndo | undefined,
): MenuEntry[] {
  if (undo === undefined || state.kind !== 'tracking') return [];
  const detail =
    undo.previous === undefined
      ? l10n.t('Stops {0}, which a link started', undo.started)
      : l10n.t('Restarts {previous} instead of {started}', { previous: undo.previous, started: undo.started });
  return [entry(`$(discard) ${l10n.t('Undo Automatic Start')}`, COMMANDS.undoLink, detail)];
}

/**
 * While the app answers: Stop and Log Time only where it has them (a first release has neither).
 * On break a start ends the break (the tooltip says so) and Stop ends the paused activity.
 */
function answeringMenu(
  state: Extract<TrackerState, { kind: 'idle' | 'tracking' }>,
  logTime: MenuEntry,
  tail: readonly MenuEntry[],
): MenuEntry[] {
  const full = state.firstRelease !== true;
  const logTimes = full ? [logTime] : [];
  const startTracking = entry(`$(play) ${l10n.t('Start Tracking…')}`, COMMANDS.start);
  if (state.kind === 'idle') return [startTracking, ...logTimes, ...tail];
  const stops = full
    ? [entry(`$(debug-stop) ${l10n.t('Stop Tracking')}`, COMMANDS.stop, state.activity.activityName)]
    : [];
  if (state.onBreak) {
    // What a user on a break most likely wants next: the paused activity again (a start of it ends the break).
    const { activityID, activityName } = state.activity;
    const resume = entry(`$(debug-continue) ${l10n.t('Continue “{0}”', activityName)}`, COMMANDS.start);
    return [{ ...resume, args: [{ activityID }] }, startTracking, ...stops, ...logTimes, ...tail];
  }
  return [...stops, entry(`$(play) ${l10n.t('Switch Activity…')}`, COMMANDS.start), ...logTimes, ...tail];
}

/**
 * A session that has run for hours (model/longSession.ts) leads with Stop, before Undo and the
 * question about a repository's links: most likely its timer was forgotten. Stop says since when.
 */
export function leadWithStop(entries: readonly MenuEntry[], start: SessionStart, nowMs: number): MenuEntry[] {
  const stop = entries.find((candidate) => candidate.command === COMMANDS.stop);
  if (stop === undefined) return [...entries];
  const time = clockTime(start.sinceMs, nowMs);
  const since = start.fromApp ? l10n.t('running since {0}', time) : l10n.t('running at least since {0}', time);
  const detail = stop.detail === undefined ? since : `${stop.detail} · ${since}`;
  return [{ ...stop, detail }, ...entries.filter((candidate) => candidate !== stop)];
}

/** The menu's placeholder: what it is for, and the state in a few words where that helps choose. */
export function menuPlaceholder(state: TrackerState): string {
  switch (state.kind) {
    case 'starting':
      return l10n.t('Choose what to do while the extension connects to the app');
    case 'noToken':
      return l10n.t('Choose how to connect to the app');
    case 'remoteHost':
      return l10n.t(
        'Time Tracker runs on the remote machine and sends nothing: Check Connection says how to run it on your computer',
      );
    case 'offline':
      return l10n.t('Choose what to do while the app is not answering (logged time waits in the queue)');
    case 'tokenRejected':
      return state.clockSkewSeconds === undefined
        ? l10n.t('Choose what to do about the rejected token (logged time waits in the queue)')
        : l10n.t("Choose what to do about this computer's clock (logged time waits in the queue)");
    case 'lockedOut':
      return l10n.t('Choose what to do during the lockout (logged time waits in the queue)');
    case 'licenseLocked':
      return l10n.t("Choose what to do while the app's license is locked");
    case 'unavailable':
      return l10n.t('Choose what to do while the app does not offer its status');
    case 'failed':
      return l10n.t('Choose what to do about the error');
    case 'idle':
      return state.onBreak ? l10n.t('Choose what to do (on break)') : l10n.t('Choose what to do (not tracking)');
    case 'tracking':
      return state.onBreak
        ? l10n.t('Choose what to do (on break)')
        : l10n.t('Choose what to do (tracking {0})', state.activity.activityName);
  }
}

/** The question about a repository's links waits unanswered: it leads the menu in every state, answered from there. */
export function linkQuestionEntry(): MenuEntry {
  return entry(
    `$(link) ${l10n.t("Use This Repository's Links…")}`,
    COMMANDS.useRepositoryLinks,
    l10n.t('Its question waits for your answer'),
  );
}
