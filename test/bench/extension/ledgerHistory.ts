/**
 * A week of simulated branch-time history for `npm run bench -- extension`: the heap
 * and idle cost of the ledger must be measured with a realistic file in the extension's global
 * storage, not an empty one. The history is planned as spans (one per stretch on one repository,
 * branch and activity, cut at every branch switch) and turned into the ledger's rows by the
 * ledger's own code (creditSpans, which splits at local midnight), then written by its own store:
 * no hand-written JSON that could drift from the format. Deterministic (a seeded generator), so
 * two runs seed the same rows.
 */
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import type { LedgerActivity, Span, WorkPlace } from '../../../src/tracker/branchTime/attribution';
import { creditSpans, EMPTY_BOOK, type LedgerBook } from '../../../src/tracker/branchTime/ledgerBook';
import { LedgerStore } from '../../../src/tracker/branchTime/ledgerStore';
import { seededRandom } from '../../support/random';

export interface HistoryPlan {
  /** How many local days before `todayMs`'s day the history covers (the last one is yesterday). */
  readonly days: number;
  readonly repositories: number;
  readonly branchesPerRepository: number;
  readonly activities: number;
  /** Any instant of the day the bench runs: the history ends before that day starts. */
  readonly todayMs: number;
  readonly seed?: number;
}

export interface PlannedHistory {
  /** In time order, none overlapping: what a window would have credited, switch by switch. */
  readonly spans: readonly Span[];
  readonly plannedMs: number;
  readonly places: readonly WorkPlace[];
  readonly activities: readonly LedgerActivity[];
}

/** 7 days × 4 repositories × 5 branches × 3 activities: a busy week, every branch touched every day. */
export const WEEK: Omit<HistoryPlan, 'todayMs'> = { days: 7, repositories: 4, branchesPerRepository: 5, activities: 3 };

const MINUTE = 60_000;
const REPOSITORIES = ['billing-service', 'web-frontend', 'mobile-app', 'infrastructure', 'design-system', 'docs-site'];
const BRANCHES = [
  'main',
  'feature/PAY-1423-refund-flow',
  'bugfix/WEB-877-login-redirect',
  'chore/upgrade-dependencies',
  'release/2026.11',
  'spike/cache-invalidation',
];
const ACTIVITIES = ['Development', 'Code Review', 'Meetings', 'Support'];

/**
 * The plan: every day from 09:00, each (repository, branch, activity) once in a shuffled order for
 * 4 to 12 minutes, with a short pause between some; and every day but the last, a late session
 * from 23:30 to 00:30 on one branch, so that the ledger has rows to split at midnight.
 */
export function planHistory(plan: HistoryPlan): PlannedHistory {
  const random = seededRandom(plan.seed ?? 24);
  const places = Array.from({ length: plan.repositories }, (_, r) =>
    Array.from({ length: plan.branchesPerRepository }, (_, b) => place(r, b)),
  ).flat();
  const activities = Array.from({ length: plan.activities }, (_, a): LedgerActivity => ({
    activityID: randomUuidFrom(random),
    activityName: ACTIVITIES[a % ACTIVITIES.length] ?? `Activity ${a}`,
  }));
  const today = new Date(plan.todayMs);
  const spans: Span[] = [];
  for (let day = plan.days; day >= 1; day--) {
    let atMs = new Date(today.getFullYear(), today.getMonth(), today.getDate() - day, 9, 0).getTime();
    const combinations = shuffle(
      places.flatMap((where) => activities.map((activity) => ({ where, activity }))),
      random,
    );
    for (const { where, activity } of combinations) {
      const endMs = atMs + (4 + Math.floor(random() * 9)) * MINUTE;
      spans.push({ startMs: atMs, endMs, place: where, activity });
      atMs = endMs + (random() < 0.2 ? 5 * MINUTE : 0);
    }
    const late = combinations[0];
    if (day > 1 && late !== undefined) {
      const startMs = new Date(today.getFullYear(), today.getMonth(), today.getDate() - day, 23, 30).getTime();
      spans.push({ startMs, endMs: startMs + 60 * MINUTE, place: late.where, activity: late.activity });
    }
  }
  return { spans, plannedMs: spans.reduce((sum, span) => sum + span.endMs - span.startMs, 0), places, activities };
}

/** The ledger's rows for the plan, as one window that owned all of it would have credited them. */
export function bookOf(history: PlannedHistory, windowId: string): LedgerBook {
  return creditSpans(EMPTY_BOOK, windowId, history.spans);
}

export interface SeededHistory {
  readonly file: string;
  readonly rows: number;
  readonly bytes: number;
  readonly plannedMs: number;
  readonly spans: number;
}

/** Writes the plan's rows through the ledger's own store into `storageFolder` (the extension's global storage). */
export async function seedHistory(storageFolder: string, plan: HistoryPlan): Promise<SeededHistory> {
  const history = planHistory(plan);
  const store = new LedgerStore(storageFolder, { keepDays: () => 90, now: () => plan.todayMs });
  const book = await store.update(() => bookOf(history, randomUUID()));
  return {
    file: store.file,
    rows: book.rows.length,
    bytes: statSync(store.file).size,
    plannedMs: history.plannedMs,
    spans: history.spans.length,
  };
}

function place(repository: number, branch: number): WorkPlace {
  const name = REPOSITORIES[repository % REPOSITORIES.length] ?? 'repository';
  const suffix = repository < REPOSITORIES.length ? '' : `-${repository}`;
  const branchName = BRANCHES[branch % BRANCHES.length] ?? 'main';
  return {
    root: `/home/dev/src/${name}${suffix}`,
    repository: `${name}${suffix}`,
    branch: branch < BRANCHES.length ? branchName : `${branchName}-${branch}`,
  };
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let index = items.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1));
    [items[index], items[other]] = [items[other] as T, items[index] as T];
  }
  return items;
}

/** A UUID as the app writes them (upper-case), from the seeded generator. */
function randomUuidFrom(random: () => number): string {
  const hex = Array.from({ length: 32 }, () => Math.floor(random() * 16).toString(16)).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`.toUpperCase();
}
