/**
 * Text that came from outside (the app's answers and error words, the capability file, a git
 * branch, a path) ends up on the screen and in the log, and two kinds of character in it can
 * mislead whoever reads it there. Line breaks and the other controls forge: a second log line with
 * a time and a level the extension never wrote, a status bar or menu entry that jumps or hides
 * what follows. Bidi embeddings, overrides and isolates make text read in another order than it
 * is stored ("Trojan Source", CVE-2021-42574). They are named once, here: taken out of what is
 * shown, escaped visibly in what is logged.
 *
 * The bidi marks (LRM, RLM, ALM) stay: they only settle the direction of the neutral characters
 * next to them, and right-to-left names need them.
 */

/**
 * C0 and C1 controls (`\p{Cc}`, DEL and NEL included), the line and paragraph separators, and the bidi controls that
 * reorder up to their end.
 */
const MISLEADING = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/gu;
/** What separates words or lines: read as one space in a name, so that "Fix\r\nbug" stays two words. */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
/** How the escapes of the common controls look in a log line; every other character shows as `\uXXXX`. */
const NAMED_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `text` as it may be shown: breaks read as a space, every other control and bidi control
 * removed, and cut to at most `maxLength` characters, the last of them an ellipsis when it was
 * cut. Characters are code points, as the app's limits count them: a 200-emoji name it accepts is
 * kept whole, and no cut falls between the two halves of one.
 */
export function displayText(text: string, maxLength: number): string {
  const shown = text.replace(BREAKS, ' ').replace(MISLEADING, '');
  const kept = firstCharacters(shown, maxLength);
  return kept.length === shown.length ? shown : `${firstCharacters(kept, maxLength - 1)}…`;
}

/** At most the first `count` characters (code points) of `text`; without counting past them. */
export function firstCharacters(text: string, count: number): string {
  // Each character is one or two UTF-16 units: a text this short has no more than `count`.
  if (text.length <= count) return text;
  let end = 0;
  for (let seen = 0; seen < count && end < text.length; seen++) end += (text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1;
  return text.slice(0, end);
}

/**
 * `text` as one log line: each control and bidi control written as its escape (`\n`, `\u202e`), so it is seen, not
 * obeyed.
 */
export function logLineText(text: string): string {
  return text.replace(
    MISLEADING,
    (character) => NAMED_ESCAPES[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
