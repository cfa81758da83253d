/**
 * What the client returns: what the app said, and nothing it did not. The shipping application
 * answers less than the reference server (PROTOCOL.md §8: `{"ok": true}` for a health check, a
 * stop or a branch report; a start without `startedAt`), so every field the app may leave out is
 * `undefined` here, meaning "not said", never a default that looks like a fact.
 *
 * Every name, group and note is fit to be shown as it is (results.ts): without control
 * characters (a line break reads as a space) and bidi overrides, and at most 1,000 characters
 * (a note: 2,000, the app's own limit). Ids are exactly as the app sent them. A span of time
 * that cannot be one (negative, or more than a year) is not said.
 */
import type { ActivityReference, LicenseState } from '../protocol/types';

export interface HealthAnswer {
  /** `undefined`: the app did not say (its first releases answer `{"ok": true}`). */
  readonly license: LicenseState | undefined;
}

export interface CurrentAnswer extends ActivityReference {
  /**
   * When the activity started, in ms since the epoch on the app's clock; `undefined` if `startedAt` is missing or not a
   * date.
   */
  readonly startedAtMs: number | undefined;
  /** `true` only when the app says so; an answer without the flag reads as no break. */
  readonly isOnBreak: boolean;
  /**
   * The app's clock minus this machine's, in ms, from the answer's `Date` header (which has a
   * resolution of one second); `undefined` without a usable header. The running time is
   * `Date.now() + appClockOffsetMs - startedAtMs`.
   */
  readonly appClockOffsetMs: number | undefined;
}

/** GET /status: what runs and today's total. An answer that does not say whether it tracks is an error. */
export interface StatusAnswer {
  readonly isTracking: boolean;
  /** `true` only when the app says so; an answer without the flag reads as no break. */
  readonly isOnBreak: boolean;
  readonly currentActivity: ActivityReference | null;
  /**
   * Seconds tracked today; `undefined` when the answer does not say, never a 0 that looks like a
   * fact, and when what it says is negative or more than a year (it may pass a day: entries
   * logged today count in full).
   */
  readonly todaySeconds: number | undefined;
}

/** A search hit: the group tells same-named activities apart. */
export interface ActivityMatch extends ActivityReference {
  /** The group's name, `null` for none, `undefined` when the answer does not say. */
  readonly groupName: string | null | undefined;
}

/**
 * The activity's id and name are `undefined` only when the app said nothing at all (a 2xx whose
 * body is not a JSON object): the caller knows what it asked for, the client does not guess.
 */
export interface StartAnswer {
  readonly activityID: string | undefined;
  readonly activityName: string | undefined;
  readonly created: boolean | undefined;
  readonly startedAt: string | undefined;
  /** The activity this start ended; `null`: none was running; `undefined`: not said. */
  readonly stopped: ActivityReference | null | undefined;
}

export interface StopAnswer {
  /** `null`: nothing was running; `undefined`: not said. */
  readonly stopped: ActivityReference | null | undefined;
  /**
   * How long the stopped session ran; `undefined` when not said, negative or more than a year (or `null`: nothing was
   * running).
   */
  readonly durationSeconds: number | undefined;
}

/** As for a start, the activity's id and name are `undefined` only when the app said nothing. */
export interface EntryAnswer {
  readonly entryID: string | undefined;
  readonly activityID: string | undefined;
  readonly activityName: string | undefined;
  readonly created: boolean | undefined;
  /** `undefined` when not said, negative or more than a year. */
  readonly durationMinutes: number | undefined;
  readonly note: string | null | undefined;
}

export interface BranchChangeAnswer {
  /** Whether the app says it opened its prompt; `undefined`: not said. */
  readonly prompted: boolean | undefined;
}
