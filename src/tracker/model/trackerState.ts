/**
 * What the status bar knows about the application, as one value. Built from a poll's answer or
 * from the error the client raised, so every state a user can meet has one name here.
 */
import type { CurrentAnswer, StatusAnswer } from '../../client/answerTypes';
import { sameActivityID } from '../../protocol/rules';
import type { ActivityReference } from '../../protocol/types';
import { classify } from './classify';

export type TrackerState =
  /** Before the first answer. */
  | { readonly kind: 'starting' }
  | { readonly kind: 'noToken' }
  /**
   * A remote window's extension host on the remote machine: the app there is not the user's, so
   * nothing is sent until the extension runs on the user's side (src/tracker/model/remoteHost.ts).
   */
  | { readonly kind: 'remoteHost' }
  /**
   * Nothing answers where the channel points: the app is closed, or its switch (VS Code
   * integration or HTTP API) is off. Where that is, the session's route says.
   */
  | { readonly kind: 'offline' }
  | { readonly kind: 'tokenRejected'; readonly clockSkewSeconds: number | undefined }
  | { readonly kind: 'licenseLocked' }
  /** Too many failed authentications; requests are refused until `untilMs`. */
  | { readonly kind: 'lockedOut'; readonly untilMs: number }
  /** The application has not wired GET /status (503). */
  | { readonly kind: 'unavailable' }
  /** Any other failure: a time-out, a 5xx, an answer that makes no sense. */
  | { readonly kind: 'failed'; readonly message: string }
  | {
      readonly kind: 'idle';
      readonly onBreak: boolean;
      /** As of `observedAtMs`; undefined when the app does not report it. */
      readonly todaySeconds: number | undefined;
      readonly observedAtMs: number;
      /** Read from GET /current alone: an app without GET /status, and so without Stop and entries. */
      readonly firstRelease?: true;
    }
  | {
      readonly kind: 'tracking';
      readonly activity: ActivityReference;
      readonly onBreak: boolean;
      /**
       * When it started, on the app's clock (GET /current's `startedAt`); undefined when the app
       * did not say. The running time is `now + appClockOffsetMs - startedAtMs`.
       */
      readonly startedAtMs: number | undefined;
      /** The app's clock minus this machine's (from the answer's Date header; 0 when unknown). */
      readonly appClockOffsetMs: number;
      /** Today's total as of `observedAtMs`; the display adds the time since. Undefined: not reported. */
      readonly todaySeconds: number | undefined;
      readonly observedAtMs: number;
      /**
       * When this window first saw this activity run, without an answer in between that said otherwise: how long it
       * has run at least, where the app does not say when it started (longSession.ts).
       */
      readonly seenSinceMs?: number;
      /** Read from GET /current alone: an app without GET /status, and so without Stop and entries. */
      readonly firstRelease?: true;
    };

export type TrackerStateKind = TrackerState['kind'];

/** When the running activity started, as GET /current says it, or carried over from the last state. */
export interface StartedAt {
  readonly startedAtMs: number | undefined;
  readonly appClockOffsetMs: number;
}

/**
 * The state after a successful GET /status. `startedAt` is what GET /current said for the running
 * activity (the status block has no start time), or undefined to keep the previous state's when
 * the same activity still runs.
 */
export function stateFromStatus(
  status: StatusAnswer,
  previous: TrackerState,
  nowMs: number,
  startedAt?: StartedAt,
): TrackerState {
  if (!status.isTracking || status.currentActivity === null) {
    return { kind: 'idle', onBreak: status.isOnBreak, todaySeconds: status.todaySeconds, observedAtMs: nowMs };
  }
  return tracking(status.currentActivity, status.isOnBreak, status.todaySeconds, previous, nowMs, startedAt);
}

/**
 * The state from GET /current alone, for app versions without GET /status (first releases): the
 * activity, its start and the break, but no total for today.
 */
export function stateFromCurrent(current: CurrentAnswer | null, previous: TrackerState, nowMs: number): TrackerState {
  if (current === null)
    return { kind: 'idle', onBreak: false, todaySeconds: undefined, observedAtMs: nowMs, firstRelease: true };
  const activity = { activityID: current.activityID, activityName: current.activityName };
  return {
    ...tracking(activity, current.isOnBreak, undefined, previous, nowMs, startedAtOf(current)),
    firstRelease: true,
  };
}

/** What GET /current says about the start, for the state. */
export function startedAtOf(current: CurrentAnswer): StartedAt {
  return { startedAtMs: current.startedAtMs, appClockOffsetMs: current.appClockOffsetMs ?? 0 };
}

function tracking(
  activity: ActivityReference,
  onBreak: boolean,
  todaySeconds: number | undefined,
  previous: TrackerState,
  nowMs: number,
  startedAt: StartedAt | undefined,
): Extract<TrackerState, { kind: 'tracking' }> {
  const carried = previous.kind === 'tracking' && sameActivity(previous.activity, activity) ? previous : undefined;
  const start = startedAt ?? carried ?? { startedAtMs: undefined, appClockOffsetMs: 0 };
  return {
    kind: 'tracking',
    activity,
    onBreak,
    startedAtMs: start.startedAtMs,
    appClockOffsetMs: start.appClockOffsetMs,
    todaySeconds,
    observedAtMs: nowMs,
    seenSinceMs: carried?.seenSinceMs ?? nowMs,
  };
}

/** True when the running activity is new to us, so its start must be asked for once. */
export function needsElapsed(status: StatusAnswer, previous: TrackerState): boolean {
  if (!status.isTracking || status.currentActivity === null) return false;
  return !(previous.kind === 'tracking' && sameActivity(previous.activity, status.currentActivity));
}

/** Activity ids are UUIDs, which the app writes upper-case and others lower-case. */
export function sameActivity(a: ActivityReference, b: ActivityReference): boolean {
  return sameActivityID(a.activityID, b.activityID);
}

/** The running time in whole seconds at `nowMs`, or undefined when the start is not known. */
export function elapsedSecondsAt(
  state: Extract<TrackerState, { kind: 'tracking' }>,
  nowMs: number,
): number | undefined {
  if (state.startedAtMs === undefined) return undefined;
  return Math.max(0, Math.floor((nowMs + state.appClockOffsetMs - state.startedAtMs) / 1000));
}

/** The state a failed poll leaves behind; failures without a state of their own keep their sentence. */
export function stateFromError(error: unknown, nowMs: number): TrackerState {
  const failure = classify(error);
  switch (failure.kind) {
    case 'offline':
      return { kind: 'offline' };
    case 'tokenRejected':
      return { kind: 'tokenRejected', clockSkewSeconds: failure.clockSkewSeconds };
    case 'unavailable':
      return { kind: 'unavailable' };
    case 'licenseLocked':
      return { kind: 'licenseLocked' };
    case 'lockedOut':
      return { kind: 'lockedOut', untilMs: nowMs + (failure.retryAfterSeconds ?? 60) * 1000 };
    case 'mayHaveArrived':
    case 'answerLost':
    case 'notFound':
    case 'invalid':
    case 'replayed':
    case 'configuration':
    case 'refused':
    case 'appFailed':
    case 'unexpected':
      return { kind: 'failed', message: failure.message };
  }
}

/**
 * Whether `after` says nothing `before` did not: the same state, observed later. Today's total is the same when it
 * counted on as the display counts it (while something runs) to within a second, the time a request takes; what else
 * the state holds must be equal. A poll whose answer is this needs nothing recomputed or drawn.
 */
export function sameState(before: TrackerState, after: TrackerState): boolean {
  if (before.kind !== after.kind) return false;
  switch (before.kind) {
    case 'starting':
    case 'noToken':
    case 'remoteHost':
    case 'offline':
    case 'licenseLocked':
    case 'unavailable':
      return true;
    case 'tokenRejected':
      return after.kind === before.kind && before.clockSkewSeconds === after.clockSkewSeconds;
    case 'lockedOut':
      return after.kind === before.kind && before.untilMs === after.untilMs;
    case 'failed':
      return after.kind === before.kind && before.message === after.message;
    case 'idle':
      return (
        after.kind === before.kind &&
        before.onBreak === after.onBreak &&
        before.firstRelease === after.firstRelease &&
        before.todaySeconds === after.todaySeconds
      );
    case 'tracking':
      return (
        after.kind === before.kind &&
        before.activity.activityID === after.activity.activityID &&
        before.activity.activityName === after.activity.activityName &&
        before.onBreak === after.onBreak &&
        before.firstRelease === after.firstRelease &&
        before.startedAtMs === after.startedAtMs &&
        before.appClockOffsetMs === after.appClockOffsetMs &&
        sameTodayCounted(before, after)
      );
  }
}

function sameTodayCounted(
  before: Extract<TrackerState, { kind: 'tracking' }>,
  after: Extract<TrackerState, { kind: 'tracking' }>,
): boolean {
  if (before.todaySeconds === undefined || after.todaySeconds === undefined)
    return before.todaySeconds === after.todaySeconds;
  const counted = before.todaySeconds + (after.observedAtMs - before.observedAtMs) / 1000;
  return Math.abs(counted - after.todaySeconds) <= 1;
}
