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
 * removed, and cut to at most `maxLength` characters (UTF-16 code units, as `length` counts),
 * the last of them an ellipsis when it was cut.
 */
export function displayText(text: string, maxLength: number): string {
  const shown = text.replace(BREAKS, ' ').replace(MISLEADING, '');
  return shown.length <= maxLength ? shown : `${withoutHalfCharacter(shown.slice(0, maxLength - 1))}…`;
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

/** A cut between the two halves of a surrogate pair would leave half a character: it goes. */
function withoutHalfCharacter(cut: string): string {
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}
