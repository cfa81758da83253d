/**
 * Which links may act. A repository's `.vscode/settings.json` is written by whoever wrote the
 * repository, so its links start (and may create) activities in the user's app in the user's name:
 * they act only in a trusted workspace and only once the user said so, to a question that names
 * what they do. The user's own links (user settings) never ask. The answer is kept per workspace,
 * by what each link does (CompiledLink.fingerprint: a link the repository changes later, or whose
 * links before it it removes or reorders, is asked about again); a link the user writes into the
 * workspace is theirs. Pure: the links and the stored answer in, the links that act (or the
 * question to ask) out.
 */
import * as l10n from '@vscode/l10n';
import {
  decideLink,
  linkContent,
  parseLinks,
  type CompiledLink,
  type Link,
  type LinkDecision,
  type LinkEvent,
  type Place,
} from './links';
import type { TicketKeys } from '../branchTime/ticketKeys';

/** Where a list of links was read: the workspace's settings or the user's. */
export type LinkScope = 'workspace' | 'user';

export interface ScopedLinks {
  readonly scope: LinkScope;
  readonly links: readonly CompiledLink[];
}

/** What the user said about a workspace's links, each link by its fingerprint (linkFingerprint). */
export interface LinkConsent {
  readonly used: readonly string[];
  readonly refused: readonly string[];
}

export const NO_CONSENT: LinkConsent = { used: [], refused: [] };

/** The most fingerprints kept per answer: a workspace's state stays small whatever a repository lists. */
const KEPT_FINGERPRINTS = 200;
/** How many links the question names; the rest are counted. */
const NAMED_IN_QUESTION = 3;
const NAME_LIMIT = 40;

/** The written link (as settings.json holds it) that a consent is about. */
export type LinkText = Pick<Link, 'folder' | 'branch' | 'activity' | 'group' | 'except'> & {
  readonly createIfMissing?: boolean | undefined;
};

/** What a link does: a parsed link's fingerprint, or what a link alone says (the first of its kind in its list). */
export function linkFingerprint(link: LinkText & { readonly fingerprint?: string }): string {
  return link.fingerprint ?? linkContent(link);
}

/** The stored answer, if it is one; anything else counts as never asked. */
export function readConsent(value: unknown): LinkConsent {
  if (typeof value !== 'object' || value === null) return NO_CONSENT;
  const { used, refused } = value as { used?: unknown; refused?: unknown };
  const strings = (list: unknown): string[] =>
    Array.isArray(list)
      ? list.filter((item): item is string => typeof item === 'string').slice(-KEPT_FINGERPRINTS)
      : [];
  return { used: strings(used), refused: strings(refused) };
}

/** The consent after the user's answer about `links`: each moves to the answer's list. */
export function withAnswer(consent: LinkConsent, links: readonly LinkText[], answer: 'use' | 'refuse'): LinkConsent {
  const prints = new Set(links.map(linkFingerprint));
  const keep = (list: readonly string[]): string[] => list.filter((print) => !prints.has(print));
  const add = (list: readonly string[]): string[] => [...keep(list), ...prints].slice(-KEPT_FINGERPRINTS);
  return answer === 'use'
    ? { used: add(consent.used), refused: keep(consent.refused) }
    : { used: keep(consent.used), refused: add(consent.refused) };
}

/**
 * The consent after the user wrote `written` into the workspace's links, `before` becoming `after`: theirs, so used;
 * every other link keeps the answer it had, though the links before it changed, since the user changed them.
 */
export function withOwnLink(consent: LinkConsent, before: unknown, after: unknown, written: LinkText): LinkConsent {
  const answers = new Map<string, 'use' | 'refuse'>();
  const used = new Set(consent.used);
  const refused = new Set(consent.refused);
  for (const link of parseLinks(before).links) {
    if (used.has(link.fingerprint)) answers.set(linkContent(link), 'use');
    else if (refused.has(link.fingerprint)) answers.set(linkContent(link), 'refuse');
  }
  answers.set(linkContent(written), 'use');
  const links = parseLinks(after).links;
  const answered = (answer: 'use' | 'refuse'): CompiledLink[] =>
    links.filter((link) => answers.get(linkContent(link)) === answer);
  return withAnswer(withAnswer(consent, answered('refuse'), 'refuse'), answered('use'), 'use');
}

/** Where the links stand in this window: what may act, and what the question is about. */
export interface LinkStanding {
  /** The links that act: the user's, and a trusted workspace's the user said to use. */
  readonly usable: readonly CompiledLink[];
  /** A trusted workspace's links the user has not answered about (nor put off in this window). */
  readonly unanswered: readonly CompiledLink[];
}

/**
 * Sorts the links: an untrusted workspace's are left out, asked about or not; a trusted one's act
 * once used, never once refused, and wait for the question otherwise (`putOff`: the user answered
 * Not Now in this window, so they act as refused until the next window or the user's command).
 */
export function linkStanding(
  sources: readonly ScopedLinks[],
  situation: { readonly trusted: boolean; readonly consent: LinkConsent; readonly putOff: boolean },
): LinkStanding {
  const usable: CompiledLink[] = [];
  const unanswered: CompiledLink[] = [];
  const used = new Set(situation.consent.used);
  const refused = new Set(situation.consent.refused);
  for (const { scope, links } of sources) {
    for (const link of links) {
      if (scope === 'user') usable.push(link);
      else if (!situation.trusted) continue;
      else if (used.has(linkFingerprint(link))) usable.push(link);
      else if (!refused.has(linkFingerprint(link)) && !situation.putOff) unanswered.push(link);
    }
  }
  return { usable, unanswered };
}

/**
 * What the links do at a place: act (the link that decides), ask first (a link not answered about would decide), or
 * nothing.
 */
export type LinkGate =
  | { readonly kind: 'act'; readonly decision: LinkDecision }
  | { readonly kind: 'ask'; readonly decision: LinkDecision }
  | { readonly kind: 'none' };

/**
 * The link that decides (decideLink: a branch link before a folder link, and on a switch a branch
 * link only), among those that act and those not answered about, in the settings' order: a link
 * not answered about asks before anything acts here.
 */
export function gateAt(
  sources: readonly ScopedLinks[],
  standing: LinkStanding,
  place: Place,
  tickets: TicketKeys,
  on: LinkEvent,
): LinkGate {
  const open = new Set<CompiledLink>([...standing.usable, ...standing.unanswered]);
  const candidates = sources.flatMap(({ links }) => links).filter((link) => open.has(link));
  const decision = decideLink(candidates, place, tickets, on);
  if (decision === undefined) return { kind: 'none' };
  return standing.unanswered.includes(decision.link as CompiledLink)
    ? { kind: 'ask', decision }
    : { kind: 'act', decision };
}

/**
 * The one question about a workspace's links, naming what they do: "This repository links its
 * branches to activities (branch ** → {ticket}) and may create them. Use its links?"
 */
export function consentQuestion(links: readonly LinkText[]): string {
  const branches = links.some((link) => link.branch !== undefined);
  const folders = links.some((link) => link.branch === undefined && link.folder !== undefined);
  const what =
    branches && folders
      ? l10n.t('its folders and branches')
      : branches
        ? l10n.t('its branches')
        : l10n.t('its folders');
  const named = links.slice(0, NAMED_IN_QUESTION).map(describeLink);
  const more = links.length - named.length;
  const list =
    more > 0 ? l10n.t('{links} and {count} more', { links: named.join('; '), count: more }) : named.join('; ');
  const creates = links.some((link) => link.createIfMissing === true);
  return creates
    ? [
        l10n.t('This repository links {what} to activities ({list}),', { what, list }),
        l10n.t('which start tracking without asking, and may create activities in your app. Use its links?'),
      ].join(' ')
    : l10n.t(
        'This repository links {what} to activities ({list}), which start tracking without asking. Use its links?',
        { what, list },
      );
}

/** "branch feature/** → {ticket}", "folder api → Backend (Acme)", each part cut short. */
export function describeLink(link: LinkText): string {
  const place = [
    link.folder === undefined ? undefined : l10n.t('folder {0}', short(link.folder)),
    link.branch === undefined ? undefined : l10n.t('branch {0}', short(link.branch)),
  ]
    .filter((part) => part !== undefined)
    .join(', ');
  const activity = link.group === undefined ? short(link.activity) : `${short(link.activity)} (${short(link.group)})`;
  return `${place} → ${activity}`;
}

function short(text: string): string {
  // One line: a name from a repository's file must not break the question's layout.
  const line = text.replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, ' ');
  return line.length > NAME_LIMIT ? `${line.slice(0, NAME_LIMIT - 1)}…` : line;
}
