/**
 * `headerPrefix: 'auto'`: which header prefix the app takes, learned from its answers, at the
 * cost of at most one extra failed sign-in per client. The app locks everyone out after 11 failed
 * authentications in 30 s, so the choice is made once, by one call at a time, and never retried:
 * a loop here would lock the user out of their own time tracker.
 *
 * The whole state machine is here; ServiceClient only hands it a way to sign and send one copy.
 */
import type { HeaderPrefix } from '../protocol/headers';
import { AnswerLostError } from './errors';
import type { HeaderPrefixOption } from './options';

/** What the choice reads of an answer: its status, and (through `clockProblem`) its Date. */
export interface Answer {
  readonly status: number;
}

/** Signs a fresh copy of the caller's request with `prefix` and sends it, with the safe re-send of §7. */
export type SendCopy<A extends Answer> = (prefix: HeaderPrefix, signal: AbortSignal | undefined) => Promise<A>;

/**
 * Statuses the service gives only after the request passed authentication (PROTOCOL.md §2 steps
 * 3 to 8), so they prove that the prefix was right. 401 proves it wrong; 403 (loopback hardening)
 * and 429 (lockout) come before the signature is looked at and say nothing either way.
 */
const AUTHENTICATED_ERROR_STATUSES = new Set([400, 404, 405, 409, 413, 423, 503]);

export function provesAuthentication(status: number): boolean {
  return (status >= 200 && status < 300) || AUTHENTICATED_ERROR_STATUSES.has(status);
}

export class HeaderPrefixChoice {
  #prefix: HeaderPrefix;
  #settled: boolean;
  /** Resolves when the one probing call has learned what it could; undefined while none runs. */
  #probing: Promise<void> | undefined;
  readonly #onSettle: ((prefix: HeaderPrefix) => void) | undefined;

  constructor(option: HeaderPrefixOption, onSettle?: (prefix: HeaderPrefix) => void) {
    this.#prefix = option === 'auto' ? 'Clessira' : option;
    this.#settled = option !== 'auto';
    this.#onSettle = onSettle;
  }

  /** The prefix requests are signed with now: `Clessira` while auto is undecided. */
  get prefix(): HeaderPrefix {
    return this.#prefix;
  }

  /** Fixes the prefix for good; the first call wins, later ones change nothing. */
  #settle(prefix: HeaderPrefix): void {
    if (this.#settled) return;
    this.#prefix = prefix;
    this.#settled = true;
    this.#onSettle?.(prefix);
  }

  /**
   * Sends the caller's request with the settled prefix, or, while undecided, lets exactly one call
   * probe and makes the others wait for its outcome. A probe that learns nothing (429, 403, no
   * connection, a clock problem) leaves the choice open, and the next waiting call probes in its
   * turn. The lock lasts until the probe has ended, even when its caller gave up early (its signal
   * aborted), so that no second probe overlaps a sign-in still on its way.
   */
  async send<A extends Answer>(copy: SendCopy<A>, clockProblem: (answer: A) => boolean, signal?: AbortSignal): Promise<A> {
    for (;;) {
      if (this.#settled) return copy(this.#prefix, signal);
      if (this.#probing === undefined) {
        const attempt = this.#probe(copy, clockProblem, signal);
        const probing: Promise<void> = attempt.then(
          () => this.#release(probing),
          () => this.#release(probing),
        );
        this.#probing = probing;
        return untilAborted(attempt, signal);
      }
      await untilAborted(this.#probing, signal);
    }
  }

  /**
   * Clessira first; only a 401 that is not a clock problem tries NowDoing, freshly signed: the 401
   * means the first copy was not accepted, so even a POST is not done twice. Whatever the NowDoing
   * copy gets settles the choice, so that no client spends a second failed sign-in on it; that
   * copy therefore runs to its end even if the caller's signal aborts.
   */
  async #probe<A extends Answer>(copy: SendCopy<A>, clockProblem: (answer: A) => boolean, signal: AbortSignal | undefined): Promise<A> {
    let first: A;
    try {
      first = await copy('Clessira', signal);
    } catch (error) {
      // The re-send's 409: the first copy passed authentication.
      if (error instanceof AnswerLostError) this.#settle('Clessira');
      throw error;
    }
    if (provesAuthentication(first.status)) {
      this.#settle('Clessira');
      return first;
    }
    if (first.status !== 401 || clockProblem(first)) return first;
    let second: A;
    try {
      second = await copy('NowDoing', undefined);
    } catch (error) {
      this.#settle(error instanceof AnswerLostError ? 'NowDoing' : 'Clessira');
      throw error;
    }
    const nowDoing = provesAuthentication(second.status);
    this.#settle(nowDoing ? 'NowDoing' : 'Clessira');
    // Both refused: the token (or the signature) is wrong, and Clessira's 401 says so.
    return nowDoing || second.status !== 401 ? second : first;
  }

  #release(probing: Promise<void>): void {
    if (this.#probing === probing) this.#probing = undefined;
  }
}

/** `promise`, or the signal's reason as soon as it aborts; the promise itself runs on. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    void promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
