/**
 * The shapes the status bar's files share: what the item is shown from (statusBarItem's inputs),
 * what it shows, and a state's words as data, which the word tables (warningFacts.ts,
 * trackingFacts.ts) return and statusBarItem.ts lays out. Apart, so that those files form no circle.
 */
import type { CommandId } from '../ids';
import type { NoticeWords } from '../links/linkNotice';
import type { LinkUndo } from '../links/linkUndo';
import type { LinksWaiting } from '../links/linksWaiting';
import type { Route } from '../model/channel';
import type { TrackerState } from '../model/trackerState';
import type { StatusFormat, TextFacts } from './statusText';

/** Everything the item is shown from besides the state, read afresh on every render. */
export interface StatusBarInputs {
  readonly nowMs: number;
  readonly showTodayTotal: boolean;
  /** The most characters of an activity's name the item's text shows; the tooltip and the spoken label say it whole. */
  readonly maxNameLength: number;
  /** The way to the app in use (or expected): the tooltip names it, and offline says where. */
  readonly route: Route;
  /** timeTracker.statusBar.private: the icon and the state only, no name or time in text, tooltip or spoken label. */
  readonly private?: boolean | undefined;
  /** timeTracker.statusBar.format, parsed: it lays out the text of the states that say what runs. */
  readonly format?: StatusFormat | undefined;
  /** Logged entries waiting in the offline queue. */
  readonly queued?: number | undefined;
  /** Today's time on this window's branch, to the minute; absent with no branch or the ledger off. */
  readonly branchToday?: { readonly branch: string; readonly duration: string } | undefined;
  /** The running activity's group, as the pickers remembered it. */
  readonly group?: string | undefined;
  /** A link started what runs, and Undo still takes it back: the tooltip says which link, with Undo. */
  readonly linkedStart?: Pick<LinkUndo, 'branch' | 'previous'> | undefined;
  /** A link's passing notice (it acted, or why not), shown instead of the state's words; its owner times it. */
  readonly notice?: NoticeWords | undefined;
  /** Links that wait on the user (Restricted Mode, or the question about a repository's links), while they wait. */
  readonly linksWaiting?: LinksWaiting | undefined;
  /** The app's own extension that reports branch switches here, so this one does not (its id). */
  readonly branchesReportedBy?: string | undefined;
  /** timeTracker.statusBar.longSessionHours: a session that has run that long warns, with Stop first. */
  readonly longSessionHours?: number | undefined;
  /** The long session's words over the state's; none before the rest has loaded (longSessionFacts.ts). */
  readonly longSession?: LongSessionWords | undefined;
}

/** A state's facts as a long session changes them, or as they are while the session is not long. */
export type LongSessionWords = (state: TrackerState, facts: StatusFacts, inputs: StatusBarInputs) => StatusFacts;

/** What the status bar item shows. */
export interface Presentation {
  readonly text: string;
  /** Markdown; command links use the ids of COMMANDS. */
  readonly tooltip: string;
  /** The menu, which lists what works in the state (menu.ts); a notice's own action while it shows. */
  readonly command: CommandId;
  readonly tone: 'normal' | 'warning' | 'error';
  /** Read by screen readers instead of the codicon text. */
  readonly accessibilityLabel: string;
  /** When a time it shows next changes (the clock's ms); absent while nothing it shows counts on by itself. */
  readonly changesAtMs?: number;
}

export interface StatusLink {
  readonly label: string;
  readonly command: CommandId;
}

/** The tooltip's Markdown, in the order it is read: what is the matter and what to do, more paragraphs, the actions. */
export interface TooltipFacts {
  /** Sentences of one paragraph; a link a sentence names is inside it. */
  readonly headline: readonly string[];
  readonly body?: readonly string[];
  readonly links?: readonly StatusLink[];
}

/** What a state says, before the layout: the text's parts (plain text, escaped once by the layout). */
export interface StatusFacts {
  readonly text: TextFacts;
  readonly tooltip: TooltipFacts;
  readonly tone: Presentation['tone'];
  /** What a screen reader says instead of the text. */
  readonly spoken: string;
  /** When a time it shows next changes; absent while none counts on. */
  readonly changesAtMs?: number | undefined;
}
