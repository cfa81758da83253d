/** What the activity picker offers for a typed query: recent activities first, then "Create “…”". */
import type { ActivityReference } from '../protocol/types';

export type ActivityPick =
  | { readonly kind: 'existing'; readonly activity: ActivityReference; readonly recent: boolean }
  | { readonly kind: 'create'; readonly name: string };

export const MAX_RECENT = 8;

const key = (name: string): string => name.trim().toLowerCase();

/**
 * `results` are the service's answer for the query (already in its order: exact, prefix, rest).
 * Recent activities that match come first, most recent first; a new name can be created unless
 * it already exists (names are unique without regard to case).
 */
export function buildActivityPicks(query: string, results: readonly ActivityReference[], recent: readonly ActivityReference[]): ActivityPick[] {
  const needle = key(query);
  const recentIds = new Set(recent.map((activity) => activity.activityID));
  const matchingRecent = recent.filter((activity) => key(activity.activityName).includes(needle));
  const picks: ActivityPick[] = [
    ...matchingRecent.map((activity): ActivityPick => ({ kind: 'existing', activity, recent: true })),
    ...results.filter((activity) => !recentIds.has(activity.activityID)).map((activity): ActivityPick => ({ kind: 'existing', activity, recent: false })),
  ];
  const exists = [...results, ...recent].some((activity) => key(activity.activityName) === needle);
  if (needle !== '' && !exists) picks.push({ kind: 'create', name: query.trim() });
  return picks;
}

/** The recent list after using `activity`: it moves to the front, and the list stays short. */
export function rememberRecent(recent: readonly ActivityReference[], activity: ActivityReference): ActivityReference[] {
  return [activity, ...recent.filter((item) => item.activityID !== activity.activityID)].slice(0, MAX_RECENT);
}
