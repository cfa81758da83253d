/**
 * The one formatter from a state's facts (statusFacts.ts) to what the status bar item shows, so
 * every state is laid out alike. The item's text is made of a closed list of parts, the way Error
 * Lens expands its message template over a closed list of variables: a layout may choose and
 * order the parts, but a part that is not in the list cannot exist, and a part a state lacks is
 * left out with its separator.
 */
import * as l10n from '@vscode/l10n';
import { COMMANDS, type CommandId } from '../ids';
import { escapeIcons, link } from './markup';
import type { StatusFacts, TextFacts, Tone, TooltipFacts } from './statusFacts';

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

/** The parts the item's text can be made of: the fields of TextFacts, and nothing else. */
export type StatusTextPart = keyof TextFacts;

/** The item's text as it is shown: `$(record) Write docs 12:05 · today 3h 20m`. */
export const DEFAULT_TEXT_PARTS: readonly StatusTextPart[] = ['icon', 'state', 'activity', 'elapsed', 'today'];

/** What stands between a part and the one shown before it: today's total is set apart. */
const SEPARATOR: Readonly<Record<StatusTextPart, string>> = { icon: ' ', state: ' ', activity: ' ', elapsed: ' ', today: ' · ' };

export function formatStatus(facts: StatusFacts): Presentation {
  return {
    text: statusText(facts.text),
    accessibilityLabel: facts.spoken,
    tooltip: tooltipMarkdown(facts.tooltip),
    command: COMMANDS.showMenu,
    tone: facts.tone,
  };
}

/** The item's text: `parts` in their order, each one the state has, with the separator before it. */
export function statusText(text: TextFacts, parts: readonly StatusTextPart[] = DEFAULT_TEXT_PARTS): string {
  let shown = '';
  for (const part of parts) {
    const value = partText(text, part);
    if (value === undefined) continue;
    shown = shown === '' ? value : `${shown}${SEPARATOR[part]}${value}`;
  }
  return shown;
}

/** A part as the item shows it; words and names are plain text there, never an icon. */
function partText(text: TextFacts, part: StatusTextPart): string | undefined {
  switch (part) {
    case 'icon':
      return `$(${text.icon})`;
    case 'state':
    case 'activity': {
      const words = text[part];
      return words === undefined ? undefined : escapeIcons(words);
    }
    case 'elapsed':
      return text.elapsed;
    case 'today':
      return text.today === undefined ? undefined : l10n.t('today {0}', text.today);
  }
}

/**
 * A name cut to at most `maxLength` characters for the item's text, so that a long one cannot
 * push the time out of view (VS Code cuts the item at its end). Characters as a reader counts
 * them: graphemes, so that a cut never splits an emoji, an accent from its letter or a surrogate
 * pair; the ellipsis counts as one, and the space before it is trimmed.
 */
export function shortenName(name: string, maxLength: number): string {
  const characters = Array.from(graphemes.segment(name), ({ segment }) => segment);
  if (characters.length <= maxLength) return name;
  return `${characters.slice(0, Math.max(0, maxLength - 1)).join('').trimEnd()}…`;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The tooltip: the headline's sentences, the body's paragraphs, the links, the connection; empty ones left out. */
function tooltipMarkdown(tooltip: TooltipFacts): string {
  const links = (tooltip.links ?? []).map(({ label, command }) => link(label, command)).join(' · ');
  return [tooltip.headline.join(' '), ...(tooltip.body ?? []), links, tooltip.connection ?? ''].filter((paragraph) => paragraph !== '').join('\n\n');
}
