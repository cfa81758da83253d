/**
 * The activities the service knows, indexed the two ways requests name them: by id in either
 * letter case (the app writes UUIDs upper-case, clients may send them back either way), and by
 * name trimmed and without case, across groups, since the same name may exist once per group
 * (PROTOCOL.md §4). Pure bookkeeping: which lookup is an error is the state's decision.
 */

export interface Activity {
  readonly id: string;
  readonly name: string;
  /** The group the app files it under, `null` for none; the same name may exist once per group. */
  readonly groupName: string | null;
}

export class ActivityIndex {
  /** By id lower-cased. */
  private readonly byId = new Map<string, Activity>();
  /** Lower-cased ids by normalized name, oldest first; several when groups share a name. */
  private readonly idsByName = new Map<string, string[]>();

  /** The activity with this id, in whatever letter case it is asked for. */
  get(id: string): Activity | undefined {
    return this.byId.get(id.toLowerCase());
  }

  /** Every activity of that name, whatever its group, oldest first. */
  named(name: string): Activity[] {
    return (this.idsByName.get(normalizeName(name)) ?? []).flatMap((id) => this.byId.get(id) ?? []);
  }

  /** The activity of that name in that group (`null`: none), both compared trimmed and without case. */
  inGroup(name: string, groupName: string | null): Activity | undefined {
    return this.named(name).find((activity) => normalizeGroup(activity.groupName) === normalizeGroup(groupName));
  }

  add(activity: Activity): void {
    const id = activity.id.toLowerCase();
    const name = normalizeName(activity.name);
    if (!this.byId.has(id)) this.idsByName.set(name, [...(this.idsByName.get(name) ?? []), id]);
    this.byId.set(id, activity);
  }

  list(): Activity[] {
    return [...this.byId.values()];
  }

  clear(): void {
    this.byId.clear();
    this.idsByName.clear();
  }
}

export function normalizeName(name: string): string {
  return name.trim().toLowerCase();
}

function normalizeGroup(groupName: string | null): string {
  return groupName?.trim().toLowerCase() ?? '';
}
