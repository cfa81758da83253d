/**
 * The shapes of what the status bar says, and nothing else: the settings a state is shown with,
 * a state's facts (the parts of the item's text, the tooltip's sentences and links, the tone, the
 * spoken sentence), the user's format, and what the item shows in the end. The builders of each
 * state's facts, the format's reader and the one renderer all import these and nothing of each
 * other's, so the status bar's files form no circle.
 */
import type { CommandId } from '../ids';
import type { LinkUndo } from '../links/linkUndo';
import type { Route } from '../model/channel';

export interface PresentationSettings {
  readonly showTodayTotal: boolean;
  /** The most characters of an activity's name the item's text shows; the tooltip and the spoken label say it whole. */
  readonly maxNameLength: number;
  /** The way to the app in use (or expected): the tooltip names it, and offline says where. */
  readonly route: Route;
  /** Today's time on this window's branch, to the minute; absent with no branch or the ledger off. */
  readonly branchToday?: { readonly branch: string; readonly duration: string } | undefined;
  /** The running activity's group, as the pickers remembered it; absent when none is known. */
  readonly group?: string | undefined;
  /**
   * timeTracker.statusBar.private: the icon and the state only, no name and no time in text, tooltip or spoken label.
   */
  readonly private?: boolean | undefined;
  /** timeTracker.statusBar.format, parsed: it lays out the text of the states that say what runs. */
  readonly format?: StatusFormat | undefined;
  /** A link started what runs, and Undo still takes it back: the tooltip says which link, with Undo. */
  readonly linkedStart?: Pick<LinkUndo, 'branch' | 'previous'> | undefined;
}

export type Tone = 'normal' | 'warning' | 'error';

/** The parts of the item's text, as plain text (the renderer escapes them); absent parts are left out. */
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
  /** This branch's time today, `1h 20m`; absent with no branch or the ledger off. */
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
  /** The user's layout of the text; absent, the default one. Only the states that say what runs take the user's. */
  readonly format?: StatusFormat;
  /** Logged entries waiting in the offline queue; absent when none waits. */
  readonly queued?: number;
}

/** What the status bar item shows. */
export interface Presentation {
  readonly text: string;
  /** Markdown; command links use the ids of COMMANDS. */
  readonly tooltip: string;
  /**
   * What a click on the item runs: the menu, in every state. It lists what works in the state
   * (menu.ts); a click that ran one fixed action hid the others (Log Time while offline).
   */
  readonly command: CommandId;
  readonly tone: Tone;
  /** Read by screen readers instead of the codicon text. */
  readonly accessibilityLabel: string;
}

/** The parts of TextFacts a user's format may place (`{activity}`…), and nothing else. */
export type FormatToken = 'activity' | 'elapsed' | 'today' | 'group' | 'branchToday';

/**
 * A token, or a name in braces that is none (`{actvity}`, kept as written), with the text the format writes before it.
 */
export type FormatPiece =
  { readonly token: FormatToken; readonly before: string } | { readonly written: string; readonly before: string };

/**
 * A format as parsed once per settings change (parseStatusFormat). It lays out what follows the
 * icon and the state's words, which always lead: no format can hide which state the item is in.
 */
export interface StatusFormat {
  readonly pieces: readonly FormatPiece[];
  /** The text after the last token; a format without tokens is this text alone. */
  readonly after: string;
}
