/**
 * The recent activities the pickers list first: kept in globalState, so every window of this
 * machine shares them. A window must see its own latest use at once, yet the value it reads back
 * may be older than what it wrote (the extension host takes in every storage change the workbench
 * sends, a late one included). Each entry carries when it was used, and what this window used is
 * merged over what is stored by that time, so a stale read never hides a newer use.
 */
import { MAX_RECENT, readPickable, rememberRecent, type PickableActivity } from './activityPicks';

/** A recent entry as stored: when it was used (this machine's clock). */
export type RecentActivity = PickableActivity & { readonly usedAtMs: number };

/** Where the shared list is kept: globalState's key, in the extension. */
export interface RecentStore {
  get(): unknown;
  update(value: readonly RecentActivity[]): Thenable<void>;
}

const idKey = (activity: PickableActivity): string => activity.activityID.toLowerCase();

/** A stored list as far as it is well formed: entries that are not activities with a time of use are left out. */
export function readStampedRecent(stored: unknown): RecentActivity[] {
  const stamped = (Array.isArray(stored) ? (stored as unknown[]) : []).flatMap((item) => {
    const activity = readPickable(item);
    const usedAtMs = (item as { usedAtMs?: unknown } | undefined)?.usedAtMs;
    return activity !== undefined && typeof usedAtMs === 'number' && Number.isFinite(usedAtMs)
      ? [{ ...activity, usedAtMs }]
      : [];
  });
  return stamped.slice(0, MAX_RECENT);
}

/**
 * One list of both: an activity in both counts once, by its latest use (a group known from either
 * is kept); the latest use first.
 */
export function mergeRecent(stored: readonly RecentActivity[], local: readonly RecentActivity[]): RecentActivity[] {
  const merged = new Map<string, RecentActivity>();
  for (const item of [...stored, ...local]) {
    const had = merged.get(idKey(item));
    if (had === undefined) {
      merged.set(idKey(item), item);
      continue;
    }
    const newer = item.usedAtMs >= had.usedAtMs ? item : had;
    const groupName = newer.groupName ?? (newer === item ? had : item).groupName;
    merged.set(idKey(item), groupName === undefined ? newer : { ...newer, groupName });
  }
  return [...merged.values()].sort((a, b) => b.usedAtMs - a.usedAtMs).slice(0, MAX_RECENT);
}

export class RecentActivities {
  /** What this window used, newest first: merged over every read of the shared list. */
  private local: readonly RecentActivity[] = [];

  constructor(
    private readonly store: RecentStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** The last list made, and what it was made of: the status bar asks for it every second while tracking. */
  private listed:
    | { readonly stored: unknown; readonly local: readonly RecentActivity[]; readonly list: readonly RecentActivity[] }
    | undefined;

  list(): RecentActivity[] {
    const stored = this.store.get();
    // globalState hands back the same value until a write of any window replaces it.
    let listed = this.listed;
    if (listed === undefined || listed.stored !== stored || listed.local !== this.local) {
      listed = { stored, local: this.local, list: mergeRecent(readStampedRecent(stored), this.local) };
      this.listed = listed;
    }
    return [...listed.list];
  }

  /** `activity` was started, logged to, or seen running: it goes to the front, here and for every window. */
  async use(activity: PickableActivity): Promise<void> {
    const [front] = rememberRecent(this.list(), activity);
    const used: RecentActivity = { ...(front ?? activity), usedAtMs: this.now() };
    this.local = [used, ...this.local.filter((item) => idKey(item) !== idKey(used))].slice(0, MAX_RECENT);
    await this.store.update(mergeRecent(readStampedRecent(this.store.get()), this.local));
  }
}
