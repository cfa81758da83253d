/**
 * What the activity picker offers for a typed query: the running activity and recent ones first,
 * then the app's answer (or, while none is at hand, the activities earlier answers named, kept
 * across windows), then "Create “…”" for a name the list does not show; and the one sentence that
 * says why the list is what it is (the app is not answering, may not be asked, or has not answered
 * yet), with the time the app named what is listed.
 */
import * as l10n from '@vscode/l10n';
import { NAME_MAX_LENGTH } from '../../protocol/constants';
import type { ActivityReference } from '../../protocol/types';

/** An activity as the picker shows it: its group tells two of the same name apart. */
export interface PickableActivity extends ActivityReference {
  /** The group's name; null for none; undefined when not known (an answer or a recent entry without it). */
  readonly groupName?: string | null | undefined;
}

export type ActivityPick =
  | {
      readonly kind: 'existing';
      readonly activity: PickableActivity;
      readonly recent: boolean;
      readonly running?: true;
    }
  | { readonly kind: 'create'; readonly name: string };

export const MAX_RECENT = 8;
/** How many activities earlier answers named are kept, and how many of them a query lists. */
export const MAX_KNOWN = 200;
export const MAX_KNOWN_LISTED = 20;

const key = (name: string): string => name.trim().toLowerCase();
/** Ids are UUIDs, upper-case from the app, lower-case from others: one activity either way. */
const idKey = (activity: ActivityReference): string => activity.activityID.toLowerCase();

/**
 * `results` are the service's answer for the query (already in its order: exact, prefix, rest), or
 * what memory holds for it. The running activity, then recent ones that match, come first, with the
 * group the answer gives; a name can be created only when nothing listed has it (names are unique
 * without regard to case or the spaces around them).
 */
export function buildActivityPicks(
  query: string,
  results: readonly PickableActivity[],
  recent: readonly PickableActivity[],
  running?: ActivityReference,
): ActivityPick[] {
  const needle = key(query);
  const answered = new Map(results.map((activity) => [idKey(activity), activity]));
  const recentIds = new Set(recent.map(idKey));
  const first =
    running === undefined ? recent : [running, ...recent.filter((activity) => idKey(activity) !== idKey(running))];
  const firstIds = new Set(first.map(idKey));
  const isRunning = (activity: ActivityReference): boolean =>
    running !== undefined && idKey(activity) === idKey(running);
  const listedFirst = first.filter((activity) => key(activity.activityName).includes(needle));
  const picks: ActivityPick[] = [
    ...listedFirst.map((activity): ActivityPick => ({
      kind: 'existing',
      activity: answered.get(idKey(activity)) ?? {
        ...recent.find((item) => idKey(item) === idKey(activity)),
        ...activity,
      },
      recent: recentIds.has(idKey(activity)),
      ...(isRunning(activity) ? { running: true as const } : {}),
    })),
    ...results
      .filter((activity) => !firstIds.has(idKey(activity)))
      .map((activity): ActivityPick => ({ kind: 'existing', activity, recent: false })),
  ];
  const listed = [...results, ...listedFirst].some((activity) => key(activity.activityName) === needle);
  if (needle !== '' && !listed && typedTooLong(query) === undefined) picks.push({ kind: 'create', name: query.trim() });
  return picks;
}

/**
 * Why what is typed can be neither searched for nor taken as a name, said while it is typed: it is
 * longer than the app takes a name (counted as the app counts, in characters once trimmed), so no
 * activity can have it; undefined when it fits.
 */
export function typedTooLong(query: string): string | undefined {
  const typed = Array.from(query.trim()).length;
  return typed > NAME_MAX_LENGTH
    ? l10n.t('At most {max} characters: {typed} typed', { max: NAME_MAX_LENGTH, typed })
    : undefined;
}

/**
 * The item for a name typed that the list does not show. Where Log Time's entry waits to be sent
 * by name, the app matches it to the activity of that name then, or creates one: "Create" would
 * promise what may not happen.
 */
export function newNameLabel(name: string, situation: PickerSituation, createsWhenSent: boolean): string {
  if (createsWhenSent && situation.kind === 'notAnswering')
    return l10n.t('Log to “{0}” (matched by name when the app is back)', name);
  if (createsWhenSent && situation.kind === 'licenseLocked')
    return l10n.t('Log to “{0}” (matched by name once the license is activated)', name);
  return l10n.t('Create “{0}”', name);
}

/**
 * Log Time while its entry waits to be sent: the activity listed under the very name typed (as the
 * app matches names: trimmed, without case) goes first, as where the entry lands; the entry is not
 * sent by name, and no one is told that a name the app already has will be created.
 */
export function namedFirst(
  picks: readonly ActivityPick[],
  query: string,
): { readonly picks: ActivityPick[]; readonly named: ActivityPick | undefined } {
  const needle = key(query);
  const named =
    needle === ''
      ? undefined
      : picks.find((pick) => pick.kind === 'existing' && key(pick.activity.activityName) === needle);
  return { picks: named === undefined ? [...picks] : [named, ...picks.filter((pick) => pick !== named)], named };
}

/**
 * The recent list after using `activity` (or seeing the app run it): it moves to the front, and the
 * list stays short. A group known before is kept when `activity` does not say one.
 */
export function rememberRecent(recent: readonly PickableActivity[], activity: PickableActivity): PickableActivity[] {
  const before = recent.find((item) => idKey(item) === idKey(activity));
  const groupName = activity.groupName === undefined ? before?.groupName : activity.groupName;
  const remembered = {
    activityID: activity.activityID,
    activityName: activity.activityName,
    ...(groupName === undefined ? {} : { groupName }),
  };
  return [remembered, ...recent.filter((item) => idKey(item) !== idKey(activity))].slice(0, MAX_RECENT);
}

/**
 * The group the pickers remembered for an activity (the app's answers about what runs do not
 * carry it): a name, or undefined for none or not known.
 */
export function rememberedGroup(recent: readonly PickableActivity[], activityID: string): string | undefined {
  const group = recent.find((item) => idKey(item) === activityID.toLowerCase())?.groupName;
  return typeof group === 'string' && group !== '' ? group : undefined;
}

/** What KnownActivities keeps in the workspace's state. */
export interface KnownRecord {
  /** When an answer last added to the list (this machine's clock). */
  readonly learnedAtMs: number;
  readonly activities: readonly PickableActivity[];
}

export interface KnownActivitiesOptions {
  /** What was kept before (the workspace's state): anything that is not a KnownRecord is ignored. */
  readonly stored?: unknown;
  /** Keeps the record; called when an answer added to the list (or changed a name or group). */
  readonly save?: (record: KnownRecord) => void;
  readonly now?: () => number;
}

/**
 * The activities the app's answers named, newest first, kept in the workspace's state: what a
 * picker offers while the app is not answering or may not be asked (the app rejected the token or
 * locks us out), and at once while a search is on its way. A name typed that none of them has can
 * still be created.
 */
export class KnownActivities {
  private activities: readonly PickableActivity[];
  private learnedAt: number | undefined;
  private readonly now: () => number;

  constructor(private readonly options: KnownActivitiesOptions = {}) {
    this.now = options.now ?? Date.now;
    const stored = readKnownRecord(options.stored);
    this.activities = stored?.activities ?? [];
    this.learnedAt = stored?.learnedAtMs;
  }

  /** When the app last named activities this list holds; undefined before it named any. */
  get learnedAtMs(): number | undefined {
    return this.learnedAt;
  }

  remember(answered: readonly PickableActivity[]): void {
    if (answered.length === 0) return;
    const answeredIds = new Set(answered.map(idKey));
    const before = this.activities;
    const rest = before.filter((activity) => !answeredIds.has(idKey(activity)));
    this.activities = [...answered, ...rest].slice(0, MAX_KNOWN);
    this.learnedAt = this.now();
    const byId = new Map(before.map((activity) => [idKey(activity), activity]));
    const adds = answered.some((activity) => {
      const known = byId.get(idKey(activity));
      return (
        known === undefined || known.activityName !== activity.activityName || known.groupName !== activity.groupName
      );
    });
    if (adds) this.options.save?.({ learnedAtMs: this.learnedAt, activities: this.activities });
  }

  /** Those whose name holds `query` (any case), as the app orders an answer: exact, then prefix, then the rest. */
  matching(query: string): PickableActivity[] {
    const needle = key(query);
    const rank = (activity: PickableActivity): number => {
      const name = key(activity.activityName);
      return name === needle ? 0 : name.startsWith(needle) ? 1 : 2;
    };
    return this.activities
      .filter((activity) => key(activity.activityName).includes(needle))
      .sort((a, b) => rank(a) - rank(b))
      .slice(0, MAX_KNOWN_LISTED);
  }
}

/**
 * A stored record as far as it is well formed: entries that are not activities are dropped; undefined for anything
 * else.
 */
export function readKnownRecord(stored: unknown): KnownRecord | undefined {
  if (typeof stored !== 'object' || stored === null) return undefined;
  const { learnedAtMs, activities } = stored as Partial<Record<keyof KnownRecord, unknown>>;
  if (typeof learnedAtMs !== 'number' || !Number.isFinite(learnedAtMs) || !Array.isArray(activities)) return undefined;
  return { learnedAtMs, activities: activities.flatMap((item) => readPickable(item) ?? []).slice(0, MAX_KNOWN) };
}

/** A stored activity (of the recent or the known list): its id, name and group; undefined for anything else. */
export function readPickable(value: unknown): PickableActivity | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { activityID, activityName, groupName } = value as Partial<Record<keyof PickableActivity, unknown>>;
  if (typeof activityID !== 'string' || activityID === '' || typeof activityName !== 'string') return undefined;
  if (activityName.trim() === '' || !(groupName === undefined || groupName === null || typeof groupName === 'string'))
    return undefined;
  return { activityID, activityName, ...(groupName === undefined ? {} : { groupName }) };
}

/** Why the picker lists what it lists. */
export type PickerSituation =
  /** The app answers searches: the list is its answer, or memory until the answer comes. */
  | { readonly kind: 'answering' }
  /** Nothing answers (offline, or a search timed out). */
  | { readonly kind: 'notAnswering' }
  /** The app rejects the token or locks us out: no search may be signed. */
  | { readonly kind: 'refusing' }
  /** The app's license is locked: it refuses every search (and takes Log Time's entry once it is activated). */
  | { readonly kind: 'licenseLocked' }
  /** The app answered a search with a failure, said in `message` (the extension's words, src/tracker/advice). */
  | { readonly kind: 'searchFailed'; readonly message: string };

/**
 * The picker's one explanation, each part in a line short enough to be read whole (the quick input cuts its title
 * and its placeholder at its width): why the list is what it is, after the command's title (undefined: nothing to
 * say), what to do, as the placeholder (undefined: keep the command's), and the words above the list.
 */
export interface PickerNotice {
  readonly reason: string | undefined;
  readonly placeholder: string | undefined;
  readonly separator: string;
}

/**
 * What the picker says about its list. `learnedAt` is when the app named the known activities (as
 * the user reads a time), undefined when it named none; `createsWhenSent` for Log Time, whose
 * entry (and a new name in it) waits to be sent when the app cannot take it now.
 */
export function pickerNotice(
  situation: PickerSituation,
  fromMemory: boolean,
  learnedAt: string | undefined,
  createsWhenSent: boolean,
): PickerNotice | undefined {
  const asOf = (words: string): string =>
    learnedAt === undefined ? words : `${words} · ${l10n.t('as of {0}', learnedAt)}`;
  const namedAt = learnedAt === undefined ? undefined : l10n.t('These are the activities it named at {0}', learnedAt);
  switch (situation.kind) {
    case 'answering':
      return fromMemory && learnedAt !== undefined
        ? { reason: undefined, placeholder: undefined, separator: l10n.t('as of {0}', learnedAt) }
        : undefined;
    case 'notAnswering':
      return {
        reason: l10n.t('The app is not answering'),
        placeholder: notAnsweringPlaceholder(learnedAt, createsWhenSent),
        separator: asOf(l10n.t('The app is not answering')),
      };
    case 'refusing':
      return {
        reason: l10n.t('Not searching while the app refuses requests'),
        placeholder: namedAt ?? l10n.t('Pick a known activity or type a new name'),
        separator: asOf(l10n.t('Not searching')),
      };
    case 'licenseLocked':
      return {
        reason: l10n.t('The license is locked'),
        placeholder: createsWhenSent
          ? l10n.t('The entry is queued and sent once the license is activated in the app')
          : l10n.t('Not searching: pick a known activity or type a name'),
        separator: asOf(l10n.t('License locked')),
      };
    case 'searchFailed':
      return {
        reason: l10n.t('The search failed: {0}', situation.message),
        placeholder: namedAt,
        separator: asOf(l10n.t('The search failed')),
      };
  }
}

function notAnsweringPlaceholder(learnedAt: string | undefined, createsWhenSent: boolean): string {
  if (learnedAt === undefined) {
    return createsWhenSent
      ? l10n.t('Type a name; it is created when the entry is sent')
      : l10n.t('It has named no activities yet');
  }
  return createsWhenSent
    ? l10n.t('Activities as of {0}; a new name is created when the entry is sent', learnedAt)
    : l10n.t('These are the activities it named at {0}', learnedAt);
}

/** When the known activities were named, as a user reads it: the time today, date and time before today. */
export function learnedAtLabel(learnedAtMs: number, nowMs: number, locale: string | undefined): string {
  const learned = new Date(learnedAtMs);
  const sameDay = learned.toDateString() === new Date(nowMs).toDateString();
  return sameDay
    ? learned.toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' })
    : learned.toLocaleString(locale, { dateStyle: 'short', timeStyle: 'short' });
}
