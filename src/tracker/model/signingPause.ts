/**
 * "May anything sign a request now?": the one rule the poller, the pickers, the commands and the
 * branch reports ask. After the app rejected the token, each signed request is one more failed
 * sign-in (more than ten in 30 s lock every tool on the machine out for a minute); during a lockout
 * each is refused anyway. Then nothing is signed on its own; only an explicit act of the user
 * (Set Token, Check Connection, a click on the status bar) makes one request, and the lockout's
 * end lets polling go on.
 */
import { classify } from './classify';
import { stateFromError, type TrackerState } from './trackerState';

/** Why nothing may be signed now. */
export type SigningPause =
  /** The app rejected the token, or this computer's clock (`clockSkewSeconds` off, when said). */
  | { readonly kind: 'tokenRejected'; readonly clockSkewSeconds: number | undefined }
  /** The app refuses every request for `secondsLeft` more after too many failed sign-ins. */
  | { readonly kind: 'lockedOut'; readonly secondsLeft: number };

/** The pause the state says, or undefined when requests may be signed. */
export function signingPause(state: TrackerState, nowMs: number): SigningPause | undefined {
  if (state.kind === 'tokenRejected') return { kind: 'tokenRejected', clockSkewSeconds: state.clockSkewSeconds };
  if (state.kind === 'lockedOut' && state.untilMs > nowMs)
    return { kind: 'lockedOut', secondsLeft: Math.ceil((state.untilMs - nowMs) / 1000) };
  return undefined;
}

/**
 * The pause a failed request says, before the next poll does: a 401 (the next request with this
 * token would count again) or a 429 (refused until the lockout ends, a minute when not said).
 */
export function pauseFromError(error: unknown): SigningPause | undefined {
  const failure = classify(error);
  if (failure.kind === 'tokenRejected') return { kind: 'tokenRejected', clockSkewSeconds: failure.clockSkewSeconds };
  if (failure.kind === 'lockedOut') return { kind: 'lockedOut', secondsLeft: failure.retryAfterSeconds ?? 60 };
  return undefined;
}

/**
 * What the user's one explicit check (Check Connection's health check) shows when it failed while
 * signing was paused, without a poll after it (that would be a second signed request): a fresher
 * pause (a 401, a 429 with its own wait), or offline when the pause was a lockout, which lives in
 * the app's process and is gone with it. Undefined keeps the pause: a check that says nothing about
 * the token (a time-out, a 5xx) or finds nothing answering a token the app rejected must not let
 * polling sign again on its own.
 */
export function stateAfterPausedCheck(pause: SigningPause, error: unknown, nowMs: number): TrackerState | undefined {
  const state = stateFromError(error, nowMs);
  if (state.kind === 'tokenRejected' || state.kind === 'lockedOut') return state;
  return state.kind === 'offline' && pause.kind === 'lockedOut' ? state : undefined;
}
