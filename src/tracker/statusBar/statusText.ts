/**
 * The item's text, from a state's text facts and the user's format. The text is made of a closed list of parts, the way
 * Error Lens expands its message template over a closed list of variables: the user's format
 * (timeTracker.statusBar.format) may choose and order the tokens, but a token that is not in the list expands to
 * nothing: it stays in the text as written, so the user sees the mistake where they look (and is told once), and a
 * token a state lacks is left out with the text before it.
 */
import * as l10n from '@vscode/l10n';
import { escapeIcons } from '../markup';

/** The parts of the item's text, as plain text (statusText escapes them); absent parts are left out. */
export interface TextFacts {
  /** The codicon the text starts with, by name: `clock`, `sync~spin`. */
  readonly icon: string;
  /** The state in words; absent while an activity runs, whose name stands for it. */
  readonly state?: string | undefined;
  /** The running activity's name as the app wrote it. */
  readonly activity?: string | undefined;
  /** How long it runs in whole minutes, `25m`; absent when the app did not say when it started. */
  readonly elapsed?: string | undefined;
  /** How long it runs to the second, `12:05`; absent as `elapsed` is. */
  readonly elapsedSeconds?: string | undefined;
  /** Today's total, `3h 20m`; absent when the setting hides it or the app did not say it. */
  readonly today?: string | undefined;
  /** The running activity's group, cut like its name; absent when not known. */
  readonly group?: string | undefined;
  /** This branch's time today, `1h 20m`; absent with no branch or the ledger off. */
  readonly branchToday?: string | undefined;
}

/** The parts of TextFacts a user's format may place (`{activity}`…), and nothing else. */
export type FormatToken = 'activity' | 'elapsed' | 'elapsedSeconds' | 'today' | 'group' | 'branchToday';

/** A token, or a name in braces that is none (`{actvity}`, kept as written), with the text written before it. */
type FormatPiece =
  { readonly token: FormatToken; readonly before: string } | { readonly written: string; readonly before: string };

/**
 * A format as parsed once per settings change. It lays out what follows the icon and the state's
 * words, which always lead: no format can hide which state the item is in.
 */
export interface StatusFormat {
  readonly pieces: readonly FormatPiece[];
  /** The text after the last token; a format without tokens is this text alone. */
  readonly after: string;
}

/** The tokens a format may name (`{activity}`…), each once: the object's type leaves none out and adds none. */
export const FORMAT_TOKENS = Object.keys({
  activity: true,
  elapsed: true,
  elapsedSeconds: true,
  today: true,
  group: true,
  branchToday: true,
} satisfies Record<FormatToken, true>) as readonly FormatToken[];

/**
 * timeTracker.statusBar.format's default (package.json repeats it): the activity, its time and today's total, each in
 * whole minutes, so the item changes once a minute, not every second (`{elapsedSeconds}` ticks for who wants it).
 */
export const DEFAULT_FORMAT_SOURCE = '{activity} {elapsed} · {today}';

/**
 * The longest format read, in UTF-16 units (package.json's `maxLength` says the same): the item has
 * room for a line, and a longer value, set by a repository say, is refused whole, not parsed.
 */
export const MAX_FORMAT_LENGTH = 200;

export interface ParsedFormat {
  /** The format to use: the default when the source is too long; an unknown token in it stays as written. */
  readonly format: StatusFormat;
  /** The tokens the source names that are not in FORMAT_TOKENS, as written (`{actvity}`). */
  readonly unknown: readonly string[];
  /** Longer than MAX_FORMAT_LENGTH: refused without being read. */
  readonly tooLong?: true;
}

const TOKEN = /\{([^{}]*)\}/g;

/**
 * Reads a format. An unknown token is kept as written, so the status bar shows the rest of the format
 * and the mistake itself; a source too long, or empty, falls back to the default whole. The caller says either, once.
 */
export function parseStatusFormat(source: string): ParsedFormat {
  if (source.length > MAX_FORMAT_LENGTH) return { format: DEFAULT_STATUS_FORMAT, unknown: [], tooLong: true };
  // A value cleared in the Settings editor is an empty string, not an unset one: "the usual", not an icon alone.
  if (source.trim() === '') return { format: DEFAULT_STATUS_FORMAT, unknown: [] };
  const pieces: FormatPiece[] = [];
  const unknown: string[] = [];
  let from = 0;
  for (const match of source.matchAll(TOKEN)) {
    const name = match[1] ?? '';
    const before = source.slice(from, match.index);
    from = match.index + match[0].length;
    if (isFormatToken(name)) pieces.push({ token: name, before });
    else {
      pieces.push({ written: match[0], before });
      unknown.push(match[0]);
    }
  }
  return { format: { pieces, after: source.slice(from) }, unknown };
}

export const DEFAULT_STATUS_FORMAT: StatusFormat = parseStatusFormat(DEFAULT_FORMAT_SOURCE).format;

/**
 * The format in use, parsed when the setting's value changes and not on every tick; a value with
 * an unknown token or too long is reported when it is read first and whenever the setting changes
 * to it again, never on a render of the same value.
 */
export class StatusFormatReader {
  private last: { readonly source: string; readonly format: StatusFormat } | undefined;

  constructor(private readonly reportRefused: (source: string, refused: ParsedFormat) => void) {}

  read(source: string): StatusFormat {
    if (this.last?.source === source) return this.last.format;
    const parsed = parseStatusFormat(source);
    if (parsed.unknown.length > 0 || parsed.tooLong === true) this.reportRefused(source, parsed);
    this.last = { source, format: parsed.format };
    return parsed.format;
  }
}

/** The format places `token`: `{elapsedSeconds}` makes the item change every second. */
export function formatShows(format: StatusFormat, token: FormatToken): boolean {
  return format.pieces.some((piece) => 'token' in piece && piece.token === token);
}

function isFormatToken(name: string): name is FormatToken {
  return (FORMAT_TOKENS as readonly string[]).includes(name);
}

/**
 * The item's text: the icon, the state's words, then the format's tokens the state has (an unknown one as written). A
 * token the state lacks is left out with the text before it; the text before the first token and after the last belong
 * to those. Text between two tokens stands only after something more than the icon (`[{group}] {activity}` without a
 * group is the name alone).
 */
export function statusText(text: TextFacts, format: StatusFormat = DEFAULT_STATUS_FORMAT): string {
  let shown = `$(${text.icon})`;
  let iconOnly = true;
  if (text.state !== undefined) {
    shown = `${shown} ${escapeIcons(text.state)}`;
    iconOnly = false;
  }
  const { pieces, after } = format;
  if (pieces.length === 0) return after.trim() === '' ? shown : `${shown} ${after.trim()}`;
  pieces.forEach((piece, index) => {
    const value = 'written' in piece ? piece.written : tokenText(text, piece.token);
    if (value === undefined) return;
    const before = index === 0 ? ` ${piece.before.trimStart()}` : iconOnly ? ' ' : piece.before;
    shown = `${shown}${before}${value}${index === pieces.length - 1 ? after.trimEnd() : ''}`;
    iconOnly = false;
  });
  return shown;
}

/** A token as the item shows it; words and names are plain text there, never an icon. */
function tokenText(text: TextFacts, token: FormatToken): string | undefined {
  switch (token) {
    case 'activity':
    case 'group': {
      const words = text[token];
      return words === undefined ? undefined : escapeIcons(words);
    }
    case 'elapsed':
    case 'elapsedSeconds':
      return text[token];
    case 'today':
      return text.today === undefined ? undefined : l10n.t('today {0}', text.today);
    case 'branchToday':
      return text.branchToday === undefined ? undefined : l10n.t('this branch {0}', text.branchToday);
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
  return `${characters
    .slice(0, Math.max(0, maxLength - 1))
    .join('')
    .trimEnd()}…`;
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
