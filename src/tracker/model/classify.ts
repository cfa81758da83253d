/**
 * The one place a failure is sorted: by the client's stable `ServiceError.code` (PROTOCOL.md §7),
 * into what happened as the rest of the extension needs to know it. The state, the advice a user
 * reads, the offline queue and the branch reports' retry all read this answer, so one error can
 * never mean one thing to the status bar and another to the queue.
 */
import {
  ServiceError,
  type AuthenticationError,
  type ConnectionError,
  type HttpError,
  type UnavailableError,
} from '../../client/errors';
import { errorMessage } from '../../platform/errors';

export type Failure =
  /** CONNECTION, `sent: false`: nothing answered, and the request surely did not arrive. */
  | { readonly kind: 'offline'; readonly message: string }
  /** CONNECTION, `sent: true` (or not said): no usable answer, and the request may have arrived. */
  | { readonly kind: 'mayHaveArrived'; readonly message: string }
  /** ANSWER_LOST: it arrived and passed authentication, and its answer was lost (most likely done). */
  | { readonly kind: 'answerLost'; readonly message: string }
  /** AUTHENTICATION (401): a wrong token or signature, or this computer's clock off by `clockSkewSeconds`. */
  | { readonly kind: 'tokenRejected'; readonly message: string; readonly clockSkewSeconds: number | undefined }
  /** HTTP 423: every endpoint but the health check is refused until the license is valid. */
  | { readonly kind: 'licenseLocked'; readonly message: string }
  /** HTTP 429: locked out after failed sign-ins, or busy; `retryAfterSeconds` when the app said. */
  | { readonly kind: 'lockedOut'; readonly message: string; readonly retryAfterSeconds: number | undefined }
  /** UNAVAILABLE (503): the app has not wired this endpoint; `reason` is the app's own words. */
  | { readonly kind: 'unavailable'; readonly message: string; readonly reason: string }
  /** NOT_FOUND (404): the activity or the endpoint is unknown (a first release lacks some). */
  | { readonly kind: 'notFound'; readonly message: string }
  /** VALIDATION: a 400, or arguments the app would refuse, caught before sending. */
  | { readonly kind: 'invalid'; readonly message: string }
  /** REPLAY (409): the nonce was used before. */
  | { readonly kind: 'replayed'; readonly message: string }
  /** CONFIGURATION: options the client cannot work with (port, socket path, token). */
  | { readonly kind: 'configuration'; readonly message: string }
  /** HTTP, any other status below 500: the app answered and did not take the request as it stands. */
  | { readonly kind: 'refused'; readonly message: string; readonly status: number }
  /** HTTP 500 and up (or no status): the app failed. */
  | { readonly kind: 'appFailed'; readonly message: string; readonly status: number | undefined }
  /** Not the client's error at all: a bug or something thrown by a library, with its sentence. */
  | { readonly kind: 'unexpected'; readonly message: string };

export type FailureKind = Failure['kind'];

/**
 * The fields the subclasses add, each read where its code says it belongs and possibly missing (a
 * ServiceError built with a code but not through its subclass): missing reads as the safe "not
 * said", so a connection error that does not say `sent: false` may have arrived.
 */
type Details = { readonly message: string } & Partial<
  Pick<ConnectionError, 'sent'> &
    Pick<AuthenticationError, 'clockSkewSeconds'> &
    Pick<HttpError, 'retryAfterSeconds'> &
    Pick<UnavailableError, 'reason'>
>;

/**
 * What `error` means. Switches on the code, not the class: the code is the client's stable promise.
 * `instanceof ServiceError` checks the brand every loaded copy of src/client/errors.ts sets, so an
 * error from the client of another bundle is read the same (src/client/errors.ts).
 */
export function classify(error: unknown): Failure {
  if (!(error instanceof ServiceError)) {
    return { kind: 'unexpected', message: errorMessage(error) };
  }
  const details: Details = error;
  const { message } = details;
  switch (error.code) {
    case 'CONNECTION':
      return details.sent === false ? { kind: 'offline', message } : { kind: 'mayHaveArrived', message };
    case 'ANSWER_LOST':
      return { kind: 'answerLost', message };
    case 'AUTHENTICATION':
      return { kind: 'tokenRejected', message, clockSkewSeconds: details.clockSkewSeconds };
    case 'UNAVAILABLE':
      return { kind: 'unavailable', message, reason: details.reason ?? message };
    case 'NOT_FOUND':
      return { kind: 'notFound', message };
    case 'VALIDATION':
      return { kind: 'invalid', message };
    case 'REPLAY':
      return { kind: 'replayed', message };
    case 'CONFIGURATION':
      return { kind: 'configuration', message };
    case 'HTTP':
      return classifyStatus(error.status, details);
  }
}

/** HTTP: 423 and 429 have meanings of their own; the rest splits at 500 (the app refused, or failed). */
function classifyStatus(status: number | undefined, details: Details): Failure {
  const { message } = details;
  if (status === 423) return { kind: 'licenseLocked', message };
  if (status === 429) return { kind: 'lockedOut', message, retryAfterSeconds: details.retryAfterSeconds };
  if (status !== undefined && status < 500) return { kind: 'refused', message, status };
  return { kind: 'appFailed', message, status };
}
