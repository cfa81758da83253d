/**
 * What the status bar says when a link acts: "Tracking PROJ-123 (linked to this
 * branch)" with Undo, or once why it did not act. A link never queues a start: while the app may
 * not be asked (no token, offline, the token rejected, locked out, the license locked) or the user
 * is on a break, nothing starts, and this says why. With a private status bar each notice says
 * what happened without the activity's name. Pure; the words are here, the item is
 * src/extension/statusBar.ts, the timing TransientNotice below with injected timers.
 */
import * as l10n from '@vscode/l10n';
import { COMMANDS, type CommandId } from '../ids';
import { realTimers, type Timers } from '../../platform/timers';
import { signingPause } from '../model/signingPause';
import type { TrackerState } from '../model/trackerState';
import { escapeIcons, escapeMarkdown, link } from '../markup';
import type { ActivityReference, ActivitySelector } from '../../protocol/types';
import type { LinkScope } from './linkConsent';
import { runsAlready } from './linkChoices';
import type { LinkDecision } from './links';

/** How long a notice stays in the status bar: long enough to read it and click Undo. */
export const LINK_NOTICE_MS = 8_000;

/**
 * Why a link did not start its activity. `unknown`: no fresh answer said what runs (before the
 * first one, after a failed poll, or an old one), so a start could replace what the app runs.
 */
export type LinkHold =
  'noToken' | 'remoteHost' | 'offline' | 'tokenRejected' | 'lockedOut' | 'licenseLocked' | 'onBreak' | 'unknown';

/**
 * How old an answer may be for a link to act on it: a link acts only on what the app said just
 * now, not on what a poll saw before the user changed it in the app or in another window.
 */
export const FRESH_ANSWER_MAX_MS = 30_000;

/** What the status bar item shows for a while instead of the state. */
export interface StatusNotice {
  readonly text: string;
  /** Markdown, with command links of COMMANDS. */
  readonly tooltip: string;
  readonly command: CommandId;
  readonly accessibilityLabel: string;
}

/**
 * Why nothing may start now (`connected`: the session has a client); undefined when a start may go
 * out: only on an answer that said, at most `maxAgeMs` ago, whether and what the app tracks.
 */
export function linkHold(
  state: TrackerState,
  connected: boolean,
  nowMs: number,
  maxAgeMs = FRESH_ANSWER_MAX_MS,
): LinkHold | undefined {
  if (!connected) return state.kind === 'noToken' || state.kind === 'remoteHost' ? state.kind : 'offline';
  const pause = signingPause(state, nowMs);
  if (pause) return pause.kind;
  switch (state.kind) {
    case 'noToken':
    case 'offline':
    case 'licenseLocked':
      return state.kind;
    case 'idle':
    case 'tracking':
      if (state.onBreak) return 'onBreak';
      return Math.abs(nowMs - state.observedAtMs) <= maxAgeMs ? undefined : 'unknown';
    default:
      return 'unknown';
  }
}

/**
 * A notice in both of its forms, picked each time the item renders: a status bar made private
 * while the notice shows hides the name at once.
 */
export type NoticeWords = (isPrivate: boolean) => StatusNotice;

/**
 * The link started its activity: the item says so, and a click (or Undo in the tooltip) takes it
 * back; the tooltip says whose link it is (`scope`: the settings file it is in), with a way to it.
 * Private: that the linked activity started, with Undo, and no name.
 */
export function startedNotice(
  decision: LinkDecision,
  activityName: string,
  previous: string | undefined,
  isPrivate: boolean,
  scope: LinkScope = 'user',
): StatusNotice {
  if (isPrivate) return privateStartedNotice(decision, previous, scope);
  const tracking = (name: string): string =>
    decision.by === 'branch'
      ? l10n.t('Tracking {0} (linked to this branch)', name)
      : l10n.t('Tracking {0} (linked to this folder)', name);
  const undo = undoWords(previous, false);
  const glob = escapeMarkdown(decision.by === 'branch' ? (decision.link.branch ?? '') : (decision.link.folder ?? ''));
  const words = { activity: escapeMarkdown(activityName), glob };
  const whose =
    scope === 'workspace'
      ? decision.by === 'branch'
        ? l10n.t("This repository's link for this branch ({glob}) started {activity} without asking.", words)
        : l10n.t("This repository's link for this folder ({glob}) started {activity} without asking.", words)
      : decision.by === 'branch'
        ? l10n.t('Your link for this branch ({glob}) started {activity} without asking.', words)
        : l10n.t('Your link for this folder ({glob}) started {activity} without asking.', words);
  const tooltip = [`${whose} ${openLinks(scope)}`, undo].join('\n\n');
  return {
    text: `$(link) ${tracking(escapeIcons(activityName))}`,
    tooltip,
    command: COMMANDS.undoLink,
    accessibilityLabel: `${tracking(activityName)}. ${l10n.t('Activate to undo.')}`,
  };
}

/** What Undo does, with its command link: stops the linked start, or restarts what ran before (private: not named). */
export function undoWords(previous: string | undefined, isPrivate: boolean): string {
  const undo = link(l10n.t('Undo'), COMMANDS.undoLink);
  if (previous === undefined) return l10n.t('{undo} stops it again.', { undo });
  return isPrivate
    ? l10n.t('{0} restarts the previous activity.', undo)
    : l10n.t('{undo} restarts {previous}.', { undo, previous: escapeMarkdown(previous) });
}

function privateStartedNotice(decision: LinkDecision, previous: string | undefined, scope: LinkScope): StatusNotice {
  const text =
    decision.by === 'branch'
      ? l10n.t('Tracking started (linked to this branch)')
      : l10n.t('Tracking started (linked to this folder)');
  const undoes = undoWords(previous, true);
  const whose =
    scope === 'workspace'
      ? decision.by === 'branch'
        ? l10n.t("This repository's link for this branch started an activity without asking.")
        : l10n.t("This repository's link for this folder started an activity without asking.")
      : decision.by === 'branch'
        ? l10n.t('Your link for this branch started an activity without asking.')
        : l10n.t('Your link for this folder started an activity without asking.');
  const tooltip = [`${whose} ${openLinks(scope)}`, undoes, PRIVATE_NOTE()].join('\n\n');
  return {
    text: `$(link) ${text}`,
    tooltip,
    command: COMMANDS.undoLink,
    accessibilityLabel: `${text}. ${l10n.t('Activate to undo.')}`,
  };
}

/** The settings that hold the link, opened at it: the user's, or the workspace's (a repository's link). */
export const OPEN_LINK_COMMANDS = {
  user: 'workbench.action.openSettings',
  workspace: 'workbench.action.openWorkspaceSettings',
} as const;

/** A command link to the links in the settings of `scope` (the setting's id is the command's argument, not words). */
function openLinks(scope: LinkScope): string {
  const label = scope === 'workspace' ? l10n.t("Open this repository's links") : l10n.t('Open your links');
  return `[${label}](command:${OPEN_LINK_COMMANDS[scope]}?${encodeURIComponent(JSON.stringify(['timeTracker.links']))})`;
}

/**
 * A notice that the linked activity was not started, `sentence` saying why: the item names the
 * activity, or (`activity` undefined: private) does not; `privateNote` adds where the name went.
 */
export function notStartedNotice(
  activity: string | undefined,
  sentence: string,
  command: CommandId,
  privateNote = false,
): StatusNotice {
  const label =
    activity === undefined ? l10n.t('Linked activity not started') : l10n.t('{0} not started', escapeIcons(activity));
  return {
    text: `$(link) ${label}`,
    tooltip: privateNote ? [escapeMarkdown(sentence), PRIVATE_NOTE()].join('\n\n') : escapeMarkdown(sentence),
    command,
    accessibilityLabel: sentence,
  };
}

/** The link did not act: said once, with why (private: without the activity's name). */
export function heldNotice(decision: LinkDecision, hold: LinkHold, isPrivate: boolean): StatusNotice {
  const reason = holdReason(hold);
  if (isPrivate) {
    const sentence = l10n.t(
      'The activity linked here was not started: {0}. Nothing is queued; start it yourself once the app takes requests.',
      reason,
    );
    return notStartedNotice(undefined, sentence, COMMANDS.showMenu, true);
  }
  const sentence = l10n.t(
    '{activity} is linked here but was not started: {reason}. Nothing is queued; start it yourself once the app takes requests.',
    { activity: decision.activity, reason },
  );
  return notStartedNotice(decision.activity, sentence, COMMANDS.showMenu);
}

/**
 * The link's start failed: said once, in the app's words (or the classifier's). Private: the
 * app's words may quote the name, so the item points to the log, which has them.
 */
export function failedNotice(decision: LinkDecision, message: string, isPrivate: boolean): StatusNotice {
  if (isPrivate)
    return notStartedNotice(
      undefined,
      l10n.t('The activity linked here could not be started. The log says why.'),
      COMMANDS.showLog,
    );
  const sentence = l10n.t('{activity} is linked here but could not be started: {message}', {
    activity: decision.activity,
    message,
  });
  return notStartedNotice(decision.activity, sentence, COMMANDS.showLog);
}

/** Where the name went: the menu has it, opened on purpose. */
const PRIVATE_NOTE = (): string =>
  l10n.t('The status bar is private: it shows no activity and no time. The menu shows them.');

function holdReason(hold: LinkHold): string {
  switch (hold) {
    case 'noToken':
      return l10n.t('no token is set');
    case 'remoteHost':
      return l10n.t('this extension runs on the remote machine of this window, where it sends nothing');
    case 'offline':
      return l10n.t('the app is not answering');
    case 'tokenRejected':
      return l10n.t('the app rejects the token');
    case 'lockedOut':
      return l10n.t('the app refuses requests for a while after failed sign-ins');
    case 'licenseLocked':
      return l10n.t("the app's license does not allow it");
    case 'onBreak':
      return l10n.t('you are on a break in the app');
    case 'unknown':
      return l10n.t('the app did not say just now what it tracks');
  }
}

/** One notice at a time, for LINK_NOTICE_MS; a newer one replaces it. `onChange` re-renders the item. */
export class TransientNotice<Notice = StatusNotice> {
  private shown: Notice | undefined;
  private handle: unknown;

  constructor(
    private readonly onChange: (notice: Notice | undefined) => void,
    private readonly timers: Timers = realTimers,
    private readonly durationMs = LINK_NOTICE_MS,
  ) {}

  get current(): Notice | undefined {
    return this.shown;
  }

  show(notice: Notice, onExpiry?: () => void): void {
    this.cancelTimer();
    this.shown = notice;
    this.handle = this.timers.setTimeout(() => {
      this.handle = undefined;
      this.shown = undefined;
      onExpiry?.();
      this.onChange(undefined);
    }, this.durationMs);
    this.onChange(notice);
  }

  clear(): void {
    this.cancelTimer();
    if (this.shown === undefined) return;
    this.shown = undefined;
    this.onChange(undefined);
  }

  dispose(): void {
    this.cancelTimer();
  }

  private cancelTimer(): void {
    if (this.handle !== undefined) this.timers.clearTimeout(this.handle);
    this.handle = undefined;
  }
}

/** What a link does about a switch (or the window's opening) in the state of the moment. */
export type LinkStep =
  | { readonly kind: 'hold'; readonly hold: LinkHold }
  /** The window opened while something runs: a link never takes over what the user runs then. */
  | { readonly kind: 'leave' }
  /** The window opened after the user stopped tracking on purpose (the time of the stop). */
  | { readonly kind: 'stopped'; readonly stoppedAtMs: number }
  | { readonly kind: 'alreadyRunning' }
  | { readonly kind: 'start'; readonly request: ActivitySelector; readonly previous: ActivityReference | undefined };

/** What a link's step is decided on. */
export interface LinkSituation {
  readonly state: TrackerState;
  readonly connected: boolean;
  readonly nowMs: number;
  readonly trigger: 'switch' | 'open';
  readonly known?: ActivityReference | undefined;
  /** How old the answer may be (FRESH_ANSWER_MAX_MS unless the poll interval is shorter). */
  readonly maxAnswerAgeMs?: number;
  /** When the user stopped tracking on purpose, while that still holds (src/tracker/links/linkOpening.ts). */
  readonly stoppedAtMs?: number | undefined;
}

/**
 * The one rule for a link's start, pure: nothing while the app may not be asked, has not said just
 * now what runs, or the user is on a break (said once, never queued); on opening, only while
 * nothing runs and not after the user stopped on purpose; nothing when the linked activity runs;
 * else a start by the id this window knows, or by name with the link's createIfMissing.
 */
export function linkStep(decision: LinkDecision, situation: LinkSituation): LinkStep {
  const { state, known } = situation;
  const hold = linkHold(state, situation.connected, situation.nowMs, situation.maxAnswerAgeMs);
  if (hold !== undefined) return { kind: 'hold', hold };
  const running = state.kind === 'tracking' ? state.activity : undefined;
  if (situation.trigger === 'open' && running !== undefined) return { kind: 'leave' };
  if (situation.trigger === 'open' && situation.stoppedAtMs !== undefined)
    return { kind: 'stopped', stoppedAtMs: situation.stoppedAtMs };
  if (runsAlready(running, { name: decision.activity, activityID: known?.activityID }))
    return { kind: 'alreadyRunning' };
  const request: ActivitySelector = known
    ? { activityID: known.activityID }
    : { name: decision.activity, ...(decision.createIfMissing ? { createIfMissing: true } : {}) };
  return { kind: 'start', request, previous: running };
}
