/**
 * What an answer means, apart from sending it: a 2xx is a success whatever its body, anything else
 * the error of PROTOCOL.md §7 (a 401 told apart as a clock problem when the app's Date is far from
 * this computer's), and which answers to a re-send settle the call.
 */
import { CLOCK_DRIFT_SECONDS, MAX_RETRY_AFTER_SECONDS } from '../protocol/constants';
import {
  AuthenticationError,
  HttpError,
  NotFoundError,
  ReplayError,
  type ServiceError,
  UnavailableError,
  ValidationError,
} from './errors';
import type { WireResponse } from './transport';
import { readRefusal, saidBody, type SaidBody } from './results';

/** A 2xx is a success whatever its body (the SDKs take it so); anything else is the error of PROTOCOL.md §7. */
export function interpretAnswer(response: WireResponse, clock: () => number): SaidBody {
  const { status } = response;
  const body = saidBody(response.text);
  if (status >= 200 && status < 300) return body;
  throw errorFor(response, clock, body);
}

/** The error of PROTOCOL.md §7 for an answer that is not a 2xx. */
export function errorFor(
  response: WireResponse,
  clock: () => number,
  body: SaidBody = saidBody(response.text),
): ServiceError {
  const { status, text } = response;
  const said = readRefusal(body) ?? `HTTP ${status}`;
  switch (status) {
    case 400:
      return new ValidationError(`The service refused the request: ${said}`, 400);
    case 401:
      return authenticationError(response, said, clock);
    case 404:
      return new NotFoundError(said);
    case 409:
      return new ReplayError(`The service refused a repeated request: ${said}`);
    case 423:
      return new HttpError(
        423,
        'The application has no valid license; only the health check answers until it is activated.',
        text,
      );
    case 429: {
      const retryAfter = Number(single(response.headers['retry-after']));
      const seconds =
        Number.isFinite(retryAfter) && retryAfter >= 0
          ? Math.min(MAX_RETRY_AFTER_SECONDS, Math.ceil(retryAfter))
          : undefined;
      const wait = seconds === undefined ? '' : ` Try again in ${seconds} s.`;
      return new HttpError(429, `The service is refusing requests for now: ${said}${wait}`, text, seconds);
    }
    case 503:
      return new UnavailableError(said);
    default:
      return new HttpError(status, `The service answered ${status}: ${said}`, text);
  }
}

/** A 401 whose Date is more than 60 s from this computer's clock is a clock problem, not a token problem. */
function authenticationError(response: WireResponse, said: string, clock: () => number): AuthenticationError {
  const skew = clockSkewSeconds(response, clock);
  if (skew !== undefined) {
    const direction = skew > 0 ? 'behind' : 'ahead of';
    return new AuthenticationError(
      `This computer's clock is ${Math.abs(skew)} s ${direction} the application's; ` +
        `the service accepts at most ${CLOCK_DRIFT_SECONDS} s, so set the clock right.`,
      skew,
    );
  }
  return new AuthenticationError(`The service refused the token or the signature: ${said}`);
}

/** Service clock minus this computer's, in seconds, from the answer's Date: only when beyond the 60 s window. */
export function clockSkewSeconds(response: WireResponse, clock: () => number): number | undefined {
  const serverMs = Date.parse(single(response.headers['date']) ?? '');
  if (!Number.isFinite(serverMs)) return undefined;
  const skew = Math.round((serverMs - clock()) / 1000);
  return Math.abs(skew) > CLOCK_DRIFT_SECONDS ? skew : undefined;
}

/**
 * Answers to a re-send that stand for the call even when the first copy may have arrived: a
 * success, and the refusals (`400`, `404`) the first copy met as well. Every other status leaves
 * the first copy's fate unknown.
 */
export function settlesResend(status: number): boolean {
  return (status >= 200 && status < 300) || status === 400 || status === 404;
}

export function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
