/**
 * What the status bar says in each state, as data: the parts of the item's text (codicon, the
 * state's words, the activity, its time, today's total), the tooltip's sentences and links, the
 * tone, and the sentence a screen reader speaks. One builder per state, chosen
 * here; the words of the states that warn are in warningFacts.ts, of the states that say what
 * runs in trackingFacts.ts, and their layout is statusText.ts's job, so the wording of a state and
 * the look of every state change apart.
 * Every word goes through `l10n.t` (the bundle is set once at activation); codicons, numbers
 * and activity names stay outside the messages, so a translation cannot break them.
 */
import * as l10n from '@vscode/l10n';
import type { CommandId } from '../ids';
import type { Route } from '../model/channel';
import type { TrackerState } from '../model/trackerState';
import { undoParagraph, type LinkUndo } from '../links/linkUndo';
import { privateFacts } from './privateFacts';
import type { StatusFormat } from './statusText';
import { idleFacts, trackingFacts } from './trackingFacts';
import {
  clockSkewFacts,
  failedFacts,
  licenseLockedFacts,
  lockedOutFacts,
  noTokenFacts,
  offlineFacts,
  remoteHostFacts,
  tokenRejectedFacts,
  unavailableFacts,
} from './warningFacts';

export interface PresentationSettings {
  readonly showTodayTotal: boolean;
  /** The most characters of an activity's name the item's text shows; the tooltip and the spoken label say it whole. */
  readonly maxNameLength: number;
  /** The way to the app in use (or expected): the tooltip names it, and offline says where. */
  readonly route: Route;
  /** Today's time on this window's branch (issue 24), to the minute; absent with no branch or the ledger off. */
  readonly branchToday?: { readonly branch: string; readonly duration: string } | undefined;
  /** The running activity's group, as the pickers remembered it; absent when none is known. */
  readonly group?: string | undefined;
  /** timeTracker.statusBar.private: the icon and the state only, no name and no time in text, tooltip or spoken label. */
  readonly private?: boolean | undefined;
  /** timeTracker.statusBar.format, parsed: it lays out the text of the states that say what runs (present()). */
  readonly format?: StatusFormat | undefined;
  /** A link started what runs, and Undo still takes it back: the tooltip says which link, with Undo. */
  readonly linkedStart?: Pick<LinkUndo, 'branch' | 'previous'> | undefined;
}

export type Tone = 'normal' | 'warning' | 'error';

/** The parts of the item's text, as plain text (the formatter escapes them); absent parts are left out. */
export interface TextFacts {
  /** The codicon the text starts with, by name: `clock`, `sync~spin`. */
  readonly icon: string;
  /** The state in words; absent while an activity runs, whose name stands for it. */
  readonly state?: string | undefined;
  /** The running activity's name as the app wrote it. */
  readonly activity?: string | undefined;
  /** How long it runs, `12:05`; absent when the app did not say when it started. */
  readonly elapsed?: string | undefined;
  /** Today's total, `3h 20m`; absent when the setting hides it or the app did not say it. */
  readonly today?: string | undefined;
  /** The running activity's group, cut like its name; absent when not known. */
  readonly group?: string | undefined;
  /** This branch's time today, `1h 20m` (issue 24); absent with no branch or the ledger off. */
  readonly branchToday?: string | undefined;
}

export interface StatusLink {
  readonly label: string;
  readonly command: CommandId;
}

/** The tooltip's Markdown sentences, in the order they are read. */
export interface TooltipFacts {
  /** The first paragraph: what is the matter and what to do. A link that a sentence names is inside it. */
  readonly headline: readonly string[];
  /** Paragraphs after it: today's total. */
  readonly body?: readonly string[];
  /** The actions, one paragraph. */
  readonly links?: readonly StatusLink[];
  /** The last paragraph while the app answers: which way it is reached. */
  readonly connection?: string;
}

export interface StatusFacts {
  readonly text: TextFacts;
  readonly tooltip: TooltipFacts;
  readonly tone: Tone;
  /** What a screen reader says instead of the text. */
  readonly spoken: string;
}

/**
 * The facts of `state`: exactly one set per state, route and moment. A click on the item opens
 * the menu in every state (statusText.ts), so no state's facts name a command for it.
 */
export function statusFacts(state: TrackerState, settings: PresentationSettings, nowMs: number): StatusFacts {
  switch (state.kind) {
    case 'starting':
      return startingFacts();
    case 'noToken':
      return noTokenFacts();
    case 'remoteHost':
      return remoteHostFacts();
    case 'offline':
      return offlineFacts(settings.route);
    case 'tokenRejected':
      return state.clockSkewSeconds === undefined
        ? tokenRejectedFacts(settings.route)
        : clockSkewFacts(state.clockSkewSeconds);
    case 'licenseLocked':
      return licenseLockedFacts();
    case 'lockedOut':
      return lockedOutFacts(Math.max(1, Math.ceil((state.untilMs - nowMs) / 1000)));
    case 'unavailable':
      return unavailableFacts();
    case 'failed':
      return failedFacts(state.message);
    case 'idle':
      return settings.private === true ? privateFacts(state, settings.route) : idleFacts(state, settings);
    case 'tracking':
      return withUndo(
        settings.private === true ? privateFacts(state, settings.route) : trackingFacts(state, settings, nowMs),
        settings,
      );
  }
}

/** The linked start's paragraph, first after the headline: what ran before is one click away. */
function withUndo(facts: StatusFacts, settings: PresentationSettings): StatusFacts {
  if (settings.linkedStart === undefined) return facts;
  const undo = undoParagraph(settings.linkedStart, settings.private === true);
  return { ...facts, tooltip: { ...facts.tooltip, body: [undo, ...(facts.tooltip.body ?? [])] } };
}

function startingFacts(): StatusFacts {
  // The product's name, not a sentence: the same in every language.
  return {
    text: { icon: 'sync~spin', state: 'Time Tracker' },
    spoken: l10n.t('Time Tracker: connecting'),
    tooltip: { headline: [l10n.t('Asking the time tracker what is running…')] },
    tone: 'normal',
  };
}
