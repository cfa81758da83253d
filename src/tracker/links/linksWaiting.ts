/**
 * Links that wait on the user: a folder in Restricted Mode whose settings hold links (VS Code hides
 * a restricted setting's workspace value from an untrusted window, so they are only counted from
 * the file, never parsed as links nor acted on), and the question about a repository's links while
 * it is unanswered (a notification may hide in the notification center). The status bar says
 * either in its tooltip, and the question in its text too, so nothing waits where nobody sees it.
 * Pure: the words here, the count from a settings file's text.
 */
import * as l10n from '@vscode/l10n';
import { COMMANDS } from '../ids';
import { escapeMarkdown, link } from '../markup';

/** VS Code's own command: the Workspace Trust editor. */
export const MANAGE_TRUST_COMMAND = 'workbench.trust.manage';

export type LinksWaiting =
  /** Restricted Mode: the folder's settings hold `count` links, which are not read. */
  | { readonly kind: 'restricted'; readonly count: number }
  /** The question about the repository's links is unanswered; `activity`: what the link that asked names. */
  | { readonly kind: 'question'; readonly activity: string };

/** "This folder is in Restricted Mode, so its 2 links are not read." */
export function restrictedSentence(count: number): string {
  return count === 1
    ? l10n.t('This folder is in Restricted Mode, so its 1 link is not read.')
    : l10n.t('This folder is in Restricted Mode, so its {0} links are not read.', count);
}

/** What the status bar adds while links wait: a tooltip paragraph, and for the question a hint in the text. */
export function waitingWords(
  waiting: LinksWaiting,
  isPrivate: boolean,
): { readonly hint?: string; readonly paragraph: string; readonly spoken: string } {
  if (waiting.kind === 'restricted') {
    const sentence = restrictedSentence(waiting.count);
    const trust = `[${l10n.t('Manage Workspace Trust')}](command:${MANAGE_TRUST_COMMAND})`;
    return { paragraph: `${escapeMarkdown(sentence)} ${trust}`, spoken: sentence };
  }
  const sentence = isPrivate
    ? l10n.t("This repository's links wait for your answer: the activity linked here starts once you use them.")
    : l10n.t("This repository's links wait for your answer: {0} starts once you use them.", waiting.activity);
  const answer = link(l10n.t("Use This Repository's Links…"), COMMANDS.useRepositoryLinks);
  return {
    hint: `$(link) ${l10n.t('Use its links?')}`,
    paragraph: `${escapeMarkdown(sentence)} ${answer}`,
    spoken: sentence,
  };
}

/**
 * How many links a settings file's text (JSON with comments, as VS Code writes it) holds in
 * `timeTracker.links`: 0 for none, or for a text that is no such file. Only counted, never parsed
 * as links.
 */
export function linksCount(text: string, key = 'timeTracker.links'): number {
  let parsed: unknown;
  try {
    parsed = JSON.parse(withoutComments(text));
  } catch {
    return 0;
  }
  if (typeof parsed !== 'object' || parsed === null) return 0;
  const settings = parsed as Record<string, unknown>;
  // A .code-workspace file keeps its settings under "settings".
  const inner = settings['settings'];
  const value =
    settings[key] ??
    (typeof inner === 'object' && inner !== null ? (inner as Record<string, unknown>)[key] : undefined);
  return Array.isArray(value) ? value.length : 0;
}

/** The text without comments (strings kept whole) and without a comma before `}` or `]`: enough to count. */
function withoutComments(text: string): string {
  let out = '';
  for (let at = 0; at < text.length; at++) {
    const char = text.charAt(at);
    if (char === '"') {
      const end = stringEnd(text, at);
      out += text.slice(at, end);
      at = end - 1;
    } else if (char === '/' && text[at + 1] === '/') {
      const end = text.indexOf('\n', at);
      at = end === -1 ? text.length : end - 1;
    } else if (char === '/' && text[at + 1] === '*') {
      const end = text.indexOf('*/', at + 2);
      at = end === -1 ? text.length : end + 1;
    } else out += char;
  }
  return out.replace(/,(\s*[}\]])/g, '$1');
}

/** Where the string opening at `start` ends (after its closing quote). */
function stringEnd(text: string, start: number): number {
  for (let at = start + 1; at < text.length; at++) {
    if (text[at] === '\\') at++;
    else if (text[at] === '"') return at + 1;
  }
  return text.length;
}

/** What the links did where the user is, right after the user said to use them. */
export type UsedHere =
  | { readonly kind: 'started' | 'alreadyRunning' | 'notStarted'; readonly activity: string }
  /** The window opened (or the command ran) while another activity runs, which a link never takes over then. */
  | { readonly kind: 'left' }
  | { readonly kind: 'none' };

/**
 * The one line after "Use Its Links": the answer applies where the user is now, and this says
 * what it did there (private: without the activity's name), first, since a toast without buttons shows one line.
 */
export function usedHereSentence(used: UsedHere, isPrivate: boolean): string {
  if (used.kind === 'none')
    return l10n.t("None of this repository's links applies here; this workspace now uses them.");
  if (used.kind === 'left') return l10n.t("What runs keeps running; this workspace now uses the repository's links.");
  if (isPrivate)
    return used.kind === 'started'
      ? l10n.t("The activity linked here started; this workspace now uses the repository's links.")
      : used.kind === 'alreadyRunning'
        ? l10n.t("The activity linked here runs already; this workspace now uses the repository's links.")
        : l10n.t(
            "The activity linked here was not started, as the status bar says; this workspace now uses the repository's links.",
          );
  return used.kind === 'started'
    ? l10n.t("{0} started, as linked here; this workspace now uses the repository's links.", used.activity)
    : used.kind === 'alreadyRunning'
      ? l10n.t("{0}, linked here, runs already; this workspace now uses the repository's links.", used.activity)
      : l10n.t(
          "{0}, linked here, was not started, as the status bar says; this workspace now uses the repository's links.",
          used.activity,
        );
}
