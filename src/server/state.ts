/**
 * The service's data and rules (PROTOCOL.md §4), with no HTTP in sight. Every method takes the
 * current time from the injected clock, so the rules are tested exactly. Activity ids are looked
 * up without regard to letter case (the app writes them upper-case, clients may echo either); the
 * answers' shapes and letter case are answerStyles.ts's business, not this file's.
 */
import type {
  ActivityItem,
  ActivityReference,
  ActivitySelector,
  BranchChangeRequest,
  CurrentResult,
  EntryRequest,
  EntryResult,
  StartResult,
  StatusResult,
  StopResult,
} from '../protocol/types';
import { formatInstant } from '../protocol/instant';
import { sameActivityID } from '../protocol/rules';
import { ActivityIndex, normalizeName, type Activity } from './activities';
import type { Clock } from './clock';
import { badRequest, notFound } from './errors';

/** An activity to create at start: a name, and optionally the group it belongs to. */
export interface SeedActivity {
  readonly name: string;
  readonly groupName?: string | null;
}

export interface Session {
  readonly activityID: string;
  readonly startedAt: number;
  readonly endedAt: number;
}

export interface RunningSession {
  readonly activityID: string;
  readonly startedAt: number;
}

export interface Entry {
  readonly entryID: string;
  readonly activityID: string;
  readonly durationMinutes: number;
  readonly note: string | null;
  readonly loggedAt: number;
}

export interface BranchReport {
  readonly branch: string;
  readonly repo: string | null;
  readonly previousBranch: string | null;
  /** The repository root's absolute path, when the report carried one. */
  readonly repoPath: string | null;
  readonly receivedAt: number;
}

/** What `--data FILE` keeps across restarts. */
export interface StateSnapshot {
  readonly activities: readonly Activity[];
  readonly sessions: readonly Session[];
  readonly running: RunningSession | null;
  readonly entries: readonly Entry[];
}

/** Everything a request can change that `--data` keeps, plus the break flag a start clears. */
export interface Checkpoint {
  readonly snapshot: StateSnapshot;
  readonly onBreak: boolean;
}

export interface SearchHits {
  readonly references: ActivityReference[];
  readonly items: ActivityItem[];
}

export class ServiceState {
  private readonly activities = new ActivityIndex();
  private readonly sessions: Session[] = [];
  private readonly entryLog: Entry[] = [];
  private readonly reports: BranchReport[] = [];
  private running: RunningSession | null = null;
  private onBreak = false;

  constructor(
    private readonly clock: Clock,
    private readonly newId: () => string,
  ) {}

  // ---- endpoints ------------------------------------------------------------------------------

  status(): StatusResult {
    return {
      isTracking: this.running !== null,
      isOnBreak: this.onBreak,
      currentActivity: this.running ? this.reference(this.running.activityID) : null,
      todaySeconds: this.todaySeconds(),
    };
  }

  current(): CurrentResult {
    if (!this.running) return null;
    return {
      ...this.reference(this.running.activityID),
      startedAt: formatInstant(this.running.startedAt),
      isOnBreak: this.onBreak,
    };
  }

  /** Case-insensitive substring match: the exact match first, then prefixes, then the rest, each by name. */
  search(query: string, limit: number): SearchHits {
    const needle = normalizeName(query);
    const rank = (key: string): number => (key === needle ? 0 : key.startsWith(needle) ? 1 : 2);
    const hits = this.activities
      .list()
      .map((activity) => ({ activity, key: normalizeName(activity.name) }))
      .filter(({ key }) => key.includes(needle))
      .sort(
        (a, b) =>
          rank(a.key) - rank(b.key) ||
          compareText(a.key, b.key) ||
          compareText(a.activity.name, b.activity.name) ||
          compareText(a.activity.groupName ?? '', b.activity.groupName ?? ''),
      )
      .slice(0, limit)
      .map(({ activity }) => activity);
    return {
      references: hits.map((activity) => ({ activityID: activity.id, activityName: activity.name })),
      items: hits.map((activity) => ({ id: activity.id, name: activity.name, groupName: activity.groupName })),
    };
  }

  start(request: ActivitySelector): StartResult {
    const { activity, created } = this.resolve(request);
    this.onBreak = false;
    const running = this.running;
    if (running && sameActivityID(running.activityID, activity.id)) {
      return { ...this.reference(activity.id), created, startedAt: formatInstant(running.startedAt), stopped: null };
    }
    const stopped = this.endRunningSession();
    const startedAt = this.clock();
    this.running = { activityID: activity.id, startedAt };
    return {
      ...this.reference(activity.id),
      created,
      startedAt: formatInstant(startedAt),
      stopped: stopped ? this.reference(stopped.activityID) : null,
    };
  }

  /** Idempotent: stopping when nothing runs is not an error. The break flag is left as it is. */
  stop(): StopResult {
    const ended = this.endRunningSession();
    if (!ended) return { stopped: null, durationSeconds: null };
    return {
      stopped: this.reference(ended.activityID),
      durationSeconds: Math.max(0, Math.floor((ended.endedAt - ended.startedAt) / 1000)),
    };
  }

  /** Logs a block after the fact without touching what is running. */
  logEntry(request: EntryRequest): EntryResult {
    const { activity, created } = this.resolve(request);
    const entry: Entry = {
      entryID: this.newId(),
      activityID: activity.id,
      durationMinutes: request.durationMinutes,
      note: request.note ?? null,
      loggedAt: this.clock(),
    };
    this.entryLog.push(entry);
    return {
      entryID: entry.entryID,
      ...this.reference(activity.id),
      created,
      durationMinutes: entry.durationMinutes,
      note: entry.note,
    };
  }

  branchChanged(request: BranchChangeRequest): void {
    this.reports.push({
      branch: request.branch,
      repo: request.repo ?? null,
      previousBranch: request.previousBranch ?? null,
      repoPath: request.repoPath ?? null,
      receivedAt: this.clock(),
    });
  }

  // ---- controls (PROTOCOL.md §6) ----------------------------------------------------------------

  get isOnBreak(): boolean {
    return this.onBreak;
  }

  setBreak(onBreak: boolean): void {
    this.onBreak = onBreak;
  }

  /**
   * As a start in the app whose start time the user then set `agoMs` back (`--started-ago`): what
   * ran before ends now, and the session that runs is `agoMs` old. Not an endpoint: the API has no
   * way to say when a session began.
   */
  startAgo(request: ActivitySelector, agoMs: number): StartResult {
    const result = this.start(request);
    const running = this.running;
    if (running === null) return result;
    this.running = { ...running, startedAt: this.clock() - Math.max(0, agoMs) };
    return { ...result, startedAt: formatInstant(this.running.startedAt) };
  }

  /**
   * Adds an activity unless one of that name exists in that group (names and groups compared
   * trimmed and without case; an empty group is none); returns the activity either way.
   */
  seedActivity(name: string, groupName: string | null = null): ActivityReference {
    const trimmed = name.trim();
    const group = groupName?.trim() || null;
    const activity = this.activities.inGroup(trimmed, group) ?? this.createActivity(trimmed, group);
    return { activityID: activity.id, activityName: activity.name };
  }

  // ---- observations for tests and the CLI ---------------------------------------------------------

  listActivities(): readonly Activity[] {
    return this.activities.list();
  }

  listEntries(): readonly Entry[] {
    return [...this.entryLog];
  }

  listSessions(): readonly Session[] {
    return [...this.sessions];
  }

  listBranchReports(): readonly BranchReport[] {
    return [...this.reports];
  }

  snapshot(): StateSnapshot {
    return {
      activities: this.listActivities(),
      sessions: this.listSessions(),
      running: this.running,
      entries: this.listEntries(),
    };
  }

  restore(snapshot: StateSnapshot): void {
    this.activities.clear();
    for (const activity of snapshot.activities) this.activities.add(activity);
    this.sessions.splice(0, this.sessions.length, ...snapshot.sessions);
    this.entryLog.splice(0, this.entryLog.length, ...snapshot.entries);
    this.running = snapshot.running;
  }

  /** Taken before a request, so that a change the data file could not hold is undone whole. */
  checkpoint(): Checkpoint {
    return { snapshot: this.snapshot(), onBreak: this.onBreak };
  }

  rollBack(checkpoint: Checkpoint): void {
    this.restore(checkpoint.snapshot);
    this.onBreak = checkpoint.onBreak;
  }

  // ---- internals ------------------------------------------------------------------------------

  /**
   * Total for the server's local calendar day: the parts of sessions that fall in it, the
   * running session so far, and the entries logged in it.
   */
  private todaySeconds(): number {
    const now = this.clock();
    const midnight = new Date(now);
    midnight.setHours(0, 0, 0, 0);
    const dayStart = midnight.getTime();
    const overlap = (from: number, to: number): number => Math.max(0, Math.min(to, now) - Math.max(from, dayStart));
    let ms = 0;
    for (const session of this.sessions) ms += overlap(session.startedAt, session.endedAt);
    if (this.running) ms += overlap(this.running.startedAt, now);
    for (const entry of this.entryLog) {
      if (entry.loggedAt >= dayStart && entry.loggedAt <= now) ms += entry.durationMinutes * 60_000;
    }
    return Math.floor(ms / 1000);
  }

  private endRunningSession(): Session | null {
    if (!this.running) return null;
    const session: Session = { ...this.running, endedAt: Math.max(this.running.startedAt, this.clock()) };
    this.sessions.push(session);
    this.running = null;
    return session;
  }

  /**
   * activityID wins over name, and is looked up in either letter case; a name is looked up
   * trimmed and without case, in every group. A name that several groups share names none of
   * them: that is a 400 asking for the id, never a guess.
   */
  private resolve(selector: ActivitySelector): { activity: Activity; created: boolean } {
    if (selector.activityID !== undefined) {
      const activity = this.activities.get(selector.activityID);
      if (!activity) throw notFound(`No activity has the id ${selector.activityID}.`);
      return { activity, created: false };
    }
    const name = (selector.name ?? '').trim();
    const [first, ...others] = this.activities.named(name);
    if (first && others.length > 0) {
      const groups = [first, ...others].map((activity) => activity.groupName ?? 'no group');
      throw badRequest(
        `The name "${name}" belongs to ${groups.length} activities, in ${listing(groups)}; send the activityID of the one you mean.`,
      );
    }
    if (first) return { activity: first, created: false };
    if (selector.createIfMissing === true) return { activity: this.createActivity(name, null), created: true };
    throw notFound(`No activity is named "${name}"; send createIfMissing: true to create it.`);
  }

  private createActivity(name: string, groupName: string | null): Activity {
    const activity = { id: this.newId().toLowerCase(), name, groupName };
    this.activities.add(activity);
    return activity;
  }

  /** The activity's reference with its id as stored, whatever the case of the id asked for. */
  private reference(activityID: string): ActivityReference {
    const activity = this.activities.get(activityID);
    // Sessions and entries only ever point at activities that exist; nothing deletes one.
    return { activityID: activity?.id ?? activityID, activityName: activity?.name ?? '' };
  }
}

/** "A", "A and B", "A, B and C". */
function listing(items: readonly string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
