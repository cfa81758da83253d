/**
 * The two markups of what the tracker shows (the status bar item, the links' notices and Undo), kept
 * apart from the words: codicons (`$(name)`) in the item's text and Markdown with command links in
 * its tooltip. A name from the app goes through here so
 * that it shows as typed, never as an icon, a link or bold text.
 */
import type { CommandId } from './ids';

/** A Markdown link that runs one of our commands. */
export function link(label: string, command: CommandId): string {
  return `[${label}](command:${command})`;
}

/** A name like "$(bug) fix" must show as typed, not as an icon. */
export function escapeIcons(text: string): string {
  return text.replace(/\$\(/g, '\\$(');
}

export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>$]/g, (character) => `\\${character}`);
}
