/**
 * What the activity picker offers for a typed query: recent activities first, then the app's
 * answer (or, while it cannot be asked, the activities earlier answers named), then "Create “…”".
 */
import type { ActivityReference } from '../../protocol/types';

/** An activity as the picker shows it: its group tells two of the same name apart. */
export interface PickableActivity extends ActivityReference {
  /** The group's name; null for none; undefined when not known (an answer or a recent entry without it). */
  readonly groupName?: string | null | undefined;
}

export type ActivityPick =
  | { readonly kind: 'existing'; readonly activity: PickableActivity; readonly recent: boolean }
  | { readonly kind: 'create'; readonly name: string };

export const MAX_RECENT = 8;
/** How many activities earlier answers named are kept, and how many of them a query lists. */
export const MAX_KNOWN = 200;
export const MAX_KNOWN_LISTED = 20;

const key = (name: string): string => name.trim().toLowerCase();
/** Ids are UUIDs, upper-case from the app, lower-case from others: one activity either way. */
const idKey = (activity: ActivityReference): string => activity.activityID.toLowerCase();

/**
 * `results` are the service's answer for the query (already in its order: exact, prefix, rest).
 * Recent activities that match come first, most recent first, with the group the answer gives;
 * a new name can be created unless it already exists (names are unique without regard to case).
 */
export function buildActivityPicks(query: string, results: readonly PickableActivity[], recent: readonly PickableActivity[]): ActivityPick[] {
  const needle = key(query);
  const answered = new Map(results.map((activity) => [idKey(activity), activity]));
  const recentIds = new Set(recent.map(idKey));
  const matchingRecent = recent.filter((activity) => key(activity.activityName).includes(needle));
  const picks: ActivityPick[] = [
    ...matchingRecent.map((activity): ActivityPick => ({ kind: 'existing', activity: answered.get(idKey(activity)) ?? activity, recent: true })),
    ...results.filter((activity) => !recentIds.has(idKey(activity))).map((activity): ActivityPick => ({ kind: 'existing', activity, recent: false })),
  ];
  const exists = [...results, ...recent].some((activity) => key(activity.activityName) === needle);
  if (needle !== '' && !exists) picks.push({ kind: 'create', name: query.trim() });
  return picks;
}

/** The recent list after using `activity`: it moves to the front, and the list stays short. */
export function rememberRecent(recent: readonly PickableActivity[], activity: PickableActivity): PickableActivity[] {
  return [activity, ...recent.filter((item) => idKey(item) !== idKey(activity))].slice(0, MAX_RECENT);
}

/**
 * The activities the app's answers named in this window, newest first: what a picker offers when
 * it must not ask (the app rejected the token or locks us out), and at once while a search is on
 * its way. A name typed that none of them has can still be created.
 */
export class KnownActivities {
  private activities: readonly PickableActivity[] = [];

  remember(answered: readonly PickableActivity[]): void {
    const answeredIds = new Set(answered.map(idKey));
    this.activities = [...answered, ...this.activities.filter((activity) => !answeredIds.has(idKey(activity)))].slice(0, MAX_KNOWN);
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
