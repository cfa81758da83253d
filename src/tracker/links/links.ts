/**
 * `timeTracker.links`: which activity a folder or a branch stands for, so that a switch
 * to a linked branch (or a window opening on a linked folder) tracks the right activity without a
 * prompt. Pure: the setting's value in, the links and one sentence per refused entry out; a place
 * (folders, branch) in, the first link that matches out. Globs are src/platform/globs.ts, the same
 * linear-time matcher as `timeTracker.git.ignoreBranches`; the ticket key is Copy Summary's
 * (src/tracker/branchTime/ticketKeys.ts), so the two never disagree on what a key is.
 */
import { createHash } from 'node:crypto';
import * as l10n from '@vscode/l10n';
import { compileBranchGlobs, compileGlobs, MAX_GLOB_LENGTH, MAX_GLOB_LIST_LENGTH } from '../../platform/globs';
import { pathKey } from '../../platform/pathKey';
import type { TicketKeys } from '../branchTime/ticketKeys';

/** What an `activity` holds to be replaced by the ticket key of the branch. */
export const TICKET_PLACEHOLDER = '{ticket}';

/** A link as the setting writes it, checked. */
export interface Link {
  /** Its position in the setting, from 1: what a sentence about it names. */
  readonly position: number;
  readonly folder?: string;
  readonly branch?: string;
  readonly activity: string;
  readonly group?: string;
  readonly createIfMissing: boolean;
  /** Branches a branch glob leaves out (Unlink's "only this branch"): globs, a plain name matching itself. */
  readonly except?: readonly string[];
}

export interface CompiledLink extends Link {
  /**
   * What the link does, as one string (what a consent to it is about): what it says, `except` included, and the
   * links of its kind before it in its list, since they decide first: one removed or moved after it widens where it
   * acts. Two links that do the same have the same one.
   */
  readonly fingerprint: string;
  readonly folderMatches: (folder: string) => boolean;
  /** `ignoresCase`: the branch's repository says `core.ignorecase`, so its globs match case-folded. */
  readonly branchMatches: (branch: string, ignoresCase?: boolean) => boolean;
}

export interface ParsedLinks {
  readonly links: readonly CompiledLink[];
  /** One sentence per entry not used, naming it, in the user's language. */
  readonly problems: readonly string[];
}

/** Where a window works: its workspace folders (absolute paths, `/`-separated) and the branch, if any. */
export interface Place {
  readonly folders: readonly string[];
  readonly branch?: string | undefined;
  /** The branch's repository ignores case (`core.ignorecase`): its globs and ticket prefixes match case-folded. */
  readonly ignoresCase?: boolean | undefined;
}

/** The activity a link chose for a place. */
export interface LinkDecision {
  readonly link: Link;
  /** The activity's name, `{ticket}` replaced. */
  readonly activity: string;
  readonly group?: string;
  readonly createIfMissing: boolean;
  /** The ticket key the branch named, where the link used one. */
  readonly ticket?: string;
  /** What decided: a link with a branch glob is the branch's, one with only a folder the folder's. */
  readonly by: 'branch' | 'folder';
}

/**
 * What a link is asked about: a branch switch, where only links with a branch glob act (a folder
 * link acts only when a window opens while nothing runs), or a window opening, where any may.
 */
export type LinkEvent = 'switch' | 'open';

const KEYS = new Set(['folder', 'branch', 'activity', 'group', 'createIfMissing', 'except']);
/** How much of a refused entry a sentence quotes. */
const QUOTE_LIMIT = 80;

/**
 * The setting's value (anything a settings.json may hold): the links in order, and why each refused
 * entry is. `setting` names where the value was read, in the user's words ("your user settings");
 * folder globs match paths as `platform`'s file system compares them (pathKey).
 */
export function parseLinks(
  value: unknown,
  setting = l10n.t('your user settings'),
  platform: NodeJS.Platform = process.platform,
): ParsedLinks {
  if (value === undefined || value === null) return { links: [], problems: [] };
  if (!Array.isArray(value))
    return { links: [], problems: [l10n.t('The links in {setting} are not a list, so no link is used.', { setting })] };
  const links: CompiledLink[] = [];
  const problems: string[] = [];
  // The globs of one file's links are one list: what a place costs to decide grows with their sum.
  let spent = 0;
  const before = { branch: [] as string[], folder: [] as string[] };
  value.forEach((entry: unknown, index) => {
    const checked = checkEntry(entry, index + 1, spent);
    if (typeof checked === 'string') {
      problems.push(
        l10n.t('Link {position} in {setting} ({entry}) is not used: {reason}', {
          position: index + 1,
          setting,
          entry: quote(entry),
          reason: checked,
        }),
      );
      return;
    }
    spent += globLength(checked);
    const kind = before[checked.branch === undefined ? 'folder' : 'branch'];
    const content = linkContent(checked);
    const fingerprint = kind.length === 0 ? content : `${content} after ${digest(kind)}`;
    kind.push(content);
    links.push(compile(checked, fingerprint, platform));
  });
  return { links, problems };
}

/** Why the link's globs are not used (one sentence), after the globs of the links before it. */
function globRefusal(link: Link, spent: number): string | undefined {
  for (const [key, glob] of [
    ['folder', link.folder],
    ['branch', link.branch],
  ] as const) {
    if (glob !== undefined && glob.length > MAX_GLOB_LENGTH) {
      return l10n.t('its "{key}" glob has {length} characters, more than the {limit} a glob may have.', {
        key,
        length: glob.length,
        limit: MAX_GLOB_LENGTH,
      });
    }
  }
  if (spent + globLength(link) <= MAX_GLOB_LIST_LENGTH) return undefined;
  return l10n.t(
    "with those of the links before it, its globs pass the {limit} characters the globs of one settings file's links may have together.",
    { limit: MAX_GLOB_LIST_LENGTH },
  );
}

/** The entry as a link, or why it is none (one sentence); `spent`: the glob characters of the links before it. */
function checkEntry(entry: unknown, position: number, spent: number): Link | string {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    return l10n.t('a link is an object such as {"branch": "feature/**", "activity": "{ticket}"}.');
  const record = entry as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => !KEYS.has(key));
  if (unknown !== undefined)
    return l10n.t('"{key}" is not a key of a link (folder, branch, activity, group, createIfMissing, except).', {
      key: unknown,
    });
  const text = (key: string): string | undefined | false => {
    const field = record[key];
    if (field === undefined) return undefined;
    return typeof field === 'string' && field.trim() !== '' ? field.trim() : false;
  };
  const fields = { folder: text('folder'), branch: text('branch'), activity: text('activity'), group: text('group') };
  const empty = Object.entries(fields).find(([, field]) => field === false);
  if (empty !== undefined) return l10n.t('its "{key}" must be a text that is not empty.', { key: empty[0] });
  const { folder, branch, activity, group } = fields;
  if (activity === undefined || activity === false) return l10n.t('it names no "activity".');
  if (folder === undefined && branch === undefined)
    return l10n.t('it names neither a "folder" nor a "branch" glob, so it would match everywhere.');
  const createIfMissing = record['createIfMissing'];
  if (createIfMissing !== undefined && typeof createIfMissing !== 'boolean')
    return l10n.t('its "createIfMissing" must be true or false.');
  const except = exceptOf(record['except'], branch);
  if (typeof except === 'string') return except;
  const link: Link = {
    position,
    activity,
    createIfMissing: createIfMissing ?? false,
    ...(folder === undefined || folder === false ? {} : { folder }),
    ...(branch === undefined || branch === false ? {} : { branch }),
    ...(group === undefined || group === false ? {} : { group }),
    ...(except === undefined ? {} : { except }),
  };
  return globRefusal(link, spent) ?? link;
}

/** The `except` list as given (branch names or globs), or why it is refused (one sentence). */
function exceptOf(value: unknown, branch: string | false | undefined): readonly string[] | undefined | string {
  if (value === undefined) return undefined;
  if (branch === undefined || branch === false)
    return l10n.t('its "except" leaves branches out of a "branch" glob, and it has none.');
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item.trim() !== ''))
    return l10n.t('its "except" must be a list of branch names or globs.');
  return value.map((item: string) => item.trim());
}

/** What a link says, as one string: two links written alike have the same one, wherever they stand. */
export function linkContent(
  link: Pick<Link, 'folder' | 'branch' | 'activity' | 'group' | 'except'> & {
    readonly createIfMissing?: boolean | undefined;
  },
): string {
  return JSON.stringify([
    link.folder ?? null,
    link.branch ?? null,
    link.activity,
    link.group ?? null,
    link.createIfMissing === true,
    link.except ?? [],
  ]);
}

/** The links before one, short: a consent is kept per link, and a list's worth of text each would not stay small. */
function digest(contents: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify(contents)).digest('base64url');
}

function compile(link: Link, fingerprint: string, platform: NodeJS.Platform): CompiledLink {
  const folder = link.folder;
  // A glob without `/` names a folder by its name, as .gitignore does; one with `/` its whole path.
  const folderGlob =
    folder === undefined ? undefined : compileGlobs([folder], undefined, (path) => pathKey(path, platform));
  const folderMatches = (path: string): boolean => {
    if (folderGlob === undefined || folder === undefined) return true;
    const trimmed = withoutTrailingSlashes(path);
    return folder.includes('/') ? folderGlob(trimmed) : folderGlob(trimmed.slice(trimmed.lastIndexOf('/') + 1));
  };
  const branchGlob = link.branch === undefined ? undefined : compileBranchGlobs([link.branch]);
  const excepted = link.except === undefined ? undefined : compileBranchGlobs(link.except);
  const branchMatches = (branch: string, ignoresCase = false): boolean =>
    (branchGlob === undefined || branchGlob(branch, ignoresCase)) &&
    (excepted === undefined || !excepted(branch, ignoresCase));
  return { ...link, fingerprint, folderMatches, branchMatches };
}

function globLength(link: Link): number {
  return (
    (link.folder?.length ?? 0) +
    (link.branch?.length ?? 0) +
    (link.except ?? []).reduce((sum, glob) => sum + glob.length, 0)
  );
}

/** Without a regular expression: `/\/+$/` takes time quadratic in a run of slashes that is not at the end. */
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === '/') end--;
  return path.slice(0, end);
}

/**
 * The link that decides the place: the first that matches among the links with a branch glob,
 * else (only when a window opens) the first among those with a folder glob alone. A link matches
 * where its folder glob matches one of the folders (or it has none), its branch glob the branch
 * (or it has none; a branch glob never matches where there is no branch, nor a branch its
 * `except` names), and a `{ticket}` link only where the branch names a key. A branch link beats a
 * folder link wherever each stands in the list: the folder says where, the branch what, so a
 * switch never lands on the folder's activity instead of the branch's, nor replaces what the user
 * runs because of a folder.
 */
export function decideLink(
  links: readonly CompiledLink[],
  place: Place,
  tickets: TicketKeys,
  on: LinkEvent = 'open',
): LinkDecision | undefined {
  return matchingLinks(links, place, tickets, on)[0];
}

/**
 * Every link that matches the place, the one that decides first: branch links in order, then folder links in order
 * (Unlink offers them).
 */
export function matchingLinks(
  links: readonly CompiledLink[],
  place: Place,
  tickets: TicketKeys,
  on: LinkEvent = 'open',
): LinkDecision[] {
  const ticket = place.branch === undefined ? undefined : tickets.keyOf(place.branch, place.ignoresCase === true);
  const ranked = [
    ...links.filter((link) => link.branch !== undefined),
    ...(on === 'switch' ? [] : links.filter((link) => link.branch === undefined)),
  ];
  return ranked.map((link) => decisionOf(link, place, ticket)).filter((decision) => decision !== undefined);
}

function decisionOf(link: CompiledLink, place: Place, ticket: string | undefined): LinkDecision | undefined {
  if (link.folder !== undefined && !place.folders.some((folder) => link.folderMatches(folder))) return undefined;
  if (link.branch !== undefined && (place.branch === undefined || !link.branchMatches(place.branch, place.ignoresCase)))
    return undefined;
  const needsTicket = link.activity.includes(TICKET_PLACEHOLDER) || (link.group?.includes(TICKET_PLACEHOLDER) ?? false);
  if (needsTicket && ticket === undefined) return undefined;
  const fill = (text: string): string => (ticket === undefined ? text : text.split(TICKET_PLACEHOLDER).join(ticket));
  return {
    link,
    activity: fill(link.activity),
    createIfMissing: link.createIfMissing,
    by: link.branch === undefined ? 'folder' : 'branch',
    ...(link.group === undefined ? {} : { group: fill(link.group) }),
    ...(needsTicket && ticket !== undefined ? { ticket } : {}),
  };
}

function sameText(a: string, b: string): boolean {
  return a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase();
}

function quote(entry: unknown): string {
  let text: string;
  try {
    // undefined for what JSON has no form for; a settings.json holds none of it, a test may.
    const json = JSON.stringify(entry) as string | undefined;
    text = json ?? String(entry);
  } catch {
    text = String(entry);
  }
  return text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT - 1)}…` : text;
}

/**
 * The activity a link names, among those this window knows by id (recent, or named by the app's
 * answers): the one of that name (and group, where the link names one), if exactly one is.
 */
export function knownActivityFor<
  T extends {
    readonly activityID: string;
    readonly activityName: string;
    readonly groupName?: string | null | undefined;
  },
>(decision: LinkDecision, candidates: readonly T[]): T | undefined {
  const group = decision.group;
  const matching = candidates.filter(
    (candidate) =>
      sameText(candidate.activityName, decision.activity) &&
      (group === undefined || (typeof candidate.groupName === 'string' && sameText(candidate.groupName, group))),
  );
  const ids = new Set(matching.map((candidate) => candidate.activityID.toLowerCase()));
  return ids.size === 1 ? matching[0] : undefined;
}

/**
 * The Start picker's first entries: the activity linked here in front of the recent ones, when this
 * window knows it by id (a name alone is no entry; typing it offers to create it).
 */
export function withLinkedFirst<
  T extends {
    readonly activityID: string;
    readonly activityName: string;
    readonly groupName?: string | null | undefined;
  },
>(decision: LinkDecision | undefined, recent: readonly T[], known: readonly T[]): T[] {
  const activity = decision === undefined ? undefined : knownActivityFor(decision, [...recent, ...known]);
  if (activity === undefined) return [...recent];
  return [activity, ...recent.filter((item) => item.activityID.toLowerCase() !== activity.activityID.toLowerCase())];
}
