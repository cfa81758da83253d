/**
 * What the status bar knows about the application, as one value. Built from a poll's answer or
 * from the error the client raised, so every state a user can meet has one name here.
 */
import {
  AuthenticationError,
  ConnectionError,
  HttpError,
  NotFoundError,
  ServiceError,
  UnavailableError,
} from '../client/errors';
import type { ActivityReference, StatusResult } from '../protocol/types';

export type TrackerState =
  /** Before the first answer. */
  | { readonly kind: 'starting' }
  | { readonly kind: 'noToken' }
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
      readonly todaySeconds: number;
      readonly observedAtMs: number;
    }
  | {
      readonly kind: 'tracking';
      readonly activity: ActivityReference;
      readonly onBreak: boolean;
      /** Elapsed and today's total as of `observedAtMs`; the display adds the time since. */
      readonly elapsedSeconds: number;
      readonly todaySeconds: number;
      readonly observedAtMs: number;
    };

export type TrackerStateKind = TrackerState['kind'];

/** States in which the service answered and authenticated us: polling goes on as usual. */
export function isHealthy(state: TrackerState): state is Extract<TrackerState, { kind: 'idle' | 'tracking' }> {
  return state.kind === 'idle' || state.kind === 'tracking';
}

/**
 * The state after a successful GET /status. `elapsedSeconds` is what GET /current said for the
 * running activity (the status block has no elapsed time), or undefined to keep counting from
 * the previous state when the same activity still runs.
 */
export function stateFromStatus(
  status: StatusResult,
  previous: TrackerState,
  nowMs: number,
  elapsedSeconds?: number,
): TrackerState {
  if (!status.isTracking || status.currentActivity === null) {
    return { kind: 'idle', onBreak: status.isOnBreak, todaySeconds: status.todaySeconds, observedAtMs: nowMs };
  }
  const activity = status.currentActivity;
  const carried =
    previous.kind === 'tracking' && previous.activity.activityID === activity.activityID
      ? previous.elapsedSeconds + Math.floor((nowMs - previous.observedAtMs) / 1000)
      : 0;
  return {
    kind: 'tracking',
    activity,
    onBreak: status.isOnBreak,
    elapsedSeconds: elapsedSeconds ?? carried,
    todaySeconds: status.todaySeconds,
    observedAtMs: nowMs,
  };
}

/** True when the running activity is new to us, so its elapsed time must be asked for once. */
export function needsElapsed(status: StatusResult, previous: TrackerState): boolean {
  if (!status.isTracking || status.currentActivity === null) return false;
  return !(previous.kind === 'tracking' && previous.activity.activityID === status.currentActivity.activityID);
}

/** The state a failed poll leaves behind; unknown errors keep their sentence. */
export function stateFromError(error: unknown, nowMs: number): TrackerState {
  if (error instanceof ConnectionError) {
    return error.sent ? { kind: 'failed', message: error.message } : { kind: 'offline' };
  }
  if (error instanceof AuthenticationError) return { kind: 'tokenRejected', clockSkewSeconds: error.clockSkewSeconds };
  if (error instanceof UnavailableError) return { kind: 'unavailable' };
  if (error instanceof HttpError && error.licenseLocked) return { kind: 'licenseLocked' };
  if (error instanceof HttpError && error.status === 429) {
    return { kind: 'lockedOut', untilMs: nowMs + (error.retryAfterSeconds ?? 60) * 1000 };
  }
  if (error instanceof NotFoundError || error instanceof ServiceError) return { kind: 'failed', message: error.message };
  return { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
}
