/**
 * Which stretches of the app's tracked time one editor window saw, and on which repository and
 * branch. Pure and clock-injected: the window feeds it its poll answers and the branch
 * it is on, and it hands back spans; whether the window owned those stretches (the one that has
 * focus, or last had it) is decided against the store's shared focus record (./ledgerBook.ts), so
 * one second of the app's time is counted once across all windows.
 *
 * A stretch counts only between two polls less than `maxGapMs` apart that both answered, and only
 * for what the second answer says ran in it (the session the first saw, or one the app says started
 * in between, from its start), never during a break: time the window did not see (the editor
 * closed, the machine asleep, the app unreachable) is never filled in, and time between an activity
 * stopping and the next starting is given to neither. Branch names arrive as data; nothing here
 * knows git.
 */
import { branchKey, pathKey } from '../../platform/pathKey';
import { sameActivityID } from '../../protocol/rules';

/** Where the user works: a repository (or a folder without git) and its branch. */
export interface WorkPlace {
  /** The repository's top folder (or the folder without git): what tells two places apart. */
  readonly root: string;
  /** What the user reads: the repository's (or the folder's) name. */
  readonly repository: string;
  /** The branch, the short commit id of a detached HEAD, or the folder's name without git. */
  readonly branch: string;
  /**
   * The repository says `core.ignorecase` (APFS, HFS+ by default): `feature/Login` is its branch
   * `feature/login`. Absent for false, so a row of the ledger holds it only where it is true.
   */
  readonly ignoresCase?: true;
}

export interface LedgerActivity {
  readonly activityID: string;
  readonly activityName: string;
}

/** What one poll of the app said, reduced to what the ledger needs. */
export type PollObservation =
  | {
      readonly kind: 'tracking';
      readonly activity: LedgerActivity;
      readonly onBreak: boolean;
      /** When the activity started, on this machine's clock, if the app said. */
      readonly startedAtMs?: number | undefined;
    }
  | { readonly kind: 'idle' }
  /** No answer (offline, a failure, a rejected token): nothing is known about the time around it. */
  | { readonly kind: 'unknown' };

/** A stretch of tracked time this window saw, on one place, with one activity. */
export interface Span {
  readonly startMs: number;
  readonly endMs: number;
  readonly place: WorkPlace;
  readonly activity: LedgerActivity;
}

export interface AttributionOptions {
  readonly now: () => number;
  /**
   * The longest gap between two polls that still counts after a poll that saw `previous` (two of
   * the window's longest poll intervals in that state: a window nobody uses polls slower while idle).
   */
  readonly maxGapMs: (previous: PollObservation['kind']) => number;
}

interface PlaceMark {
  readonly atMs: number;
  readonly place: WorkPlace | undefined;
}

/** A place alone (of a row, a summary's branch); `ignoresCase` only where it is true, as a row holds it. */
export function placeOf(place: WorkPlace, ignoresCase = place.ignoresCase === true): WorkPlace {
  const { root, repository, branch } = place;
  return { root, repository, branch, ...(ignoresCase ? { ignoresCase: true } : {}) };
}

/**
 * Whether two places are one: the same root as the file system compares paths (pathKey), and the same
 * branch, case-folded where either says its repository ignores case.
 */
export function samePlace(
  a: WorkPlace | undefined,
  b: WorkPlace | undefined,
  platform: NodeJS.Platform = process.platform,
): boolean {
  if (a === undefined || b === undefined) return a === b;
  const ignoresCase = a.ignoresCase === true || b.ignoresCase === true;
  return (
    pathKey(a.root, platform) === pathKey(b.root, platform) &&
    branchKey(a.branch, ignoresCase) === branchKey(b.branch, ignoresCase)
  );
}

export class WindowAttribution {
  private last: { readonly atMs: number; readonly observation: PollObservation } | undefined;
  /** The place at the last poll, then every change since, in order. */
  private marks: PlaceMark[] = [];

  constructor(private readonly options: AttributionOptions) {}

  /** The place the window is on now, or undefined when it has none (no folder open). */
  get place(): WorkPlace | undefined {
    return this.marks.at(-1)?.place;
  }

  /** The branch (or folder) of the window changed now; a rebase's detours never reach here. */
  setPlace(place: WorkPlace | undefined): void {
    if (samePlace(this.place, place)) return;
    this.marks.push({ atMs: this.options.now(), place });
  }

  /** One poll's answer, now: the spans since the previous poll this window may count. */
  poll(observation: PollObservation): Span[] {
    const nowMs = this.options.now();
    const previous = this.last;
    const seen =
      previous !== undefined &&
      nowMs > previous.atMs &&
      nowMs - previous.atMs <= this.options.maxGapMs(previous.observation.kind);
    const stretch = seen ? counted(previous.atMs, previous.observation, nowMs, observation) : undefined;
    const spans = stretch ? this.split(stretch.startMs, nowMs, stretch.activity) : [];
    this.last = { atMs: nowMs, observation };
    this.marks = [{ atMs: nowMs, place: this.place }];
    return spans;
  }

  /** Forgets the last poll: the next answer starts afresh (the ledger was turned off, or cleared). */
  forget(): void {
    this.last = undefined;
  }

  /** [startMs, endMs] cut where the place changed, without the stretches on no place. */
  private split(startMs: number, endMs: number, activity: LedgerActivity): Span[] {
    const spans: Span[] = [];
    this.marks.forEach((mark, index) => {
      const from = Math.max(startMs, mark.atMs);
      const to = Math.min(endMs, this.marks[index + 1]?.atMs ?? endMs);
      if (mark.place !== undefined && to > from) spans.push({ startMs: from, endMs: to, place: mark.place, activity });
    });
    return spans;
  }
}

/**
 * What the stretch between two polls close enough together counts: only what the second answer
 * says ran in it. The same session as the first poll saw running without a break: all of it. A
 * session the app says started in the stretch: from that start, and none of the time before it
 * (when the one before ended is not said). Another activity the app says ran since before the
 * first poll (its start comes in whole seconds and through the offset of its clock, so one just
 * after a poll may be said as a moment before it): the stretch, never more. Anything else, and
 * anything after a poll without an answer or across a break whose end is not said: nothing.
 */
function counted(
  beforeMs: number,
  before: PollObservation,
  nowMs: number,
  after: PollObservation,
): { startMs: number; activity: LedgerActivity } | undefined {
  if (after.kind !== 'tracking' || after.onBreak || before.kind === 'unknown') return undefined;
  const started = after.startedAtMs;
  const afterBreak = before.kind === 'tracking' && before.onBreak;
  if (before.kind === 'tracking' && sameSession(before, after, beforeMs))
    return afterBreak ? undefined : { startMs: beforeMs, activity: after.activity };
  if (started === undefined) return undefined;
  if (started > beforeMs) return started < nowMs ? { startMs: started, activity: after.activity } : undefined;
  return afterBreak ? undefined : { startMs: beforeMs, activity: after.activity };
}

type Tracking = Extract<PollObservation, { kind: 'tracking' }>;

/**
 * The second answer names the session the first saw: the same activity, and no start after the
 * first poll unless it is the very start the first answer gave (a start in the future, from a clock
 * that is off, is still the same session while it does not change). A start not said is taken as
 * the same session: the status block has none, so a stop and start of the same activity between
 * two polls cannot be told from it.
 */
function sameSession(before: Tracking, after: Tracking, beforeMs: number): boolean {
  if (!sameActivityID(before.activity.activityID, after.activity.activityID)) return false;
  const started = after.startedAtMs;
  return started === undefined || started <= beforeMs || started === before.startedAtMs;
}
