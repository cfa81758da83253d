/**
 * `headerPrefix: 'auto'`: which header prefix the app takes, learned from its answers. The app
 * locks everyone out after 11 failed authentications in 30 s, so learning costs at most one
 * extra failed sign-in per ask, one call asks at a time, and nothing is retried in a loop: a loop
 * here would lock the user out of their own time tracker.
 *
 * - A prefix is learned only from an answer that proves authentication (`provesAuthentication`,
 *   or the re-send's 409 of AnswerLostError) to a copy signed with it. A 429, a 403, a 401 that
 *   is a clock problem, a time-out or no connection, on either copy, teaches nothing: the call
 *   fails as that answer says and the next call asks again, once.
 * - A 401 (not a clock problem) rules its prefix out for the next ask, without learning the other:
 *   after "Clessira 401, NowDoing 429" the next ask starts with NowDoing.
 * - What other clients learned (other windows, earlier runs, for the same app and token) comes in
 *   through `recall`, read before each call, and is tried first when it is new; what this client
 *   learns goes out through `onLearn` when it differs from what was shared. So a new client for a
 *   known app signs in at once, and when the app restarts as another build, the first window to
 *   find out spares the others their refused request.
 * - A 401 on a prefix this client has seen work sends one copy with the other prefix (the app may
 *   have restarted as another build) before the call fails. Both refused in one ask: the token is
 *   wrong; later calls then send one copy each, and their 401 is final.
 *
 * A configured prefix is final and never probed. The whole state machine is here; ServiceClient
 * only hands it a way to sign and send one copy.
 */
import { isHeaderPrefix, type HeaderPrefix } from '../protocol/headers';
import { AnswerLostError } from './errors';
import type { HeaderPrefixOption } from './options';

/** What the choice reads of an answer: its status, and (through `isClockProblem`) its Date. */
export interface Answer {
  readonly status: number;
}

/** Signs a fresh copy of the caller's request with `prefix` and sends it, with the safe re-send of PROTOCOL.md §7. */
export type SendCopy<A extends Answer> = (prefix: HeaderPrefix, signal: AbortSignal | undefined) => Promise<A>;

export interface HeaderPrefixMemory {
  /** The prefix other clients learned for this app and token, read before each ask; undefined when none. */
  readonly recall?: (() => HeaderPrefix | undefined) | undefined;
  /** Called when this client learns a prefix that differs from what it recalled or reported before. */
  readonly onLearn?: ((prefix: HeaderPrefix) => void) | undefined;
}

/**
 * Statuses the service gives only after the request passed authentication (PROTOCOL.md §2 steps
 * 3 to 8), so they prove that the prefix was right. 401 proves it wrong; 403 (loopback hardening)
 * and 429 (lockout) come before the signature is looked at and say nothing either way.
 */
const AUTHENTICATED_ERROR_STATUSES = new Set([400, 404, 405, 409, 413, 423, 503]);

export function provesAuthentication(status: number): boolean {
  return (status >= 200 && status < 300) || AUTHENTICATED_ERROR_STATUSES.has(status);
}

/**
 * `guess`: nothing proven by this client (Clessira, a recalled prefix, or the one a 401 left);
 * one call at a time asks. `known`: an answer proved it, and no 401 came since; calls go straight.
 * `refused`: both prefixes got a 401 in one ask, so the token is wrong; calls go straight and a
 * 401 is final, until an answer proves a prefix or another client shares one.
 */
type Standing = 'guess' | 'known' | 'refused';

export class HeaderPrefixChoice<A extends Answer> {
  #prefix: HeaderPrefix;
  readonly #configured: boolean;
  #standing: Standing = 'guess';
  /** What the shared memory said last, or what this client told it last. */
  #shared: HeaderPrefix | undefined;
  /** Resolves when the one asking call has learned what it could; undefined while none runs. */
  #probing: Promise<void> | undefined;
  readonly #memory: HeaderPrefixMemory;

  constructor(
    option: HeaderPrefixOption,
    /** A 401 whose Date is far from the client's clock: about the clock, not the prefix. */
    private readonly isClockProblem: (answer: A) => boolean,
    memory: HeaderPrefixMemory = {},
  ) {
    this.#prefix = option === 'auto' ? 'Clessira' : option;
    this.#configured = option !== 'auto';
    this.#memory = memory;
    if (!this.#configured) this.#recall();
  }

  /** The prefix requests are signed with now: while auto is undecided, the one the next ask tries first. */
  get prefix(): HeaderPrefix {
    return this.#prefix;
  }

  /**
   * Sends the caller's request with the prefix in use, or, while undecided, lets exactly one call
   * ask and makes the others wait for its outcome. An ask that learns nothing leaves the choice
   * open, and the next waiting call asks in its turn. The lock lasts until the ask has ended, even
   * when its caller gave up early (its signal aborted), so that no second ask overlaps a sign-in
   * still on its way.
   */
  async send(copy: SendCopy<A>, signal?: AbortSignal): Promise<A> {
    if (this.#configured) return copy(this.#prefix, signal);
    let mayResend = true;
    for (;;) {
      if (this.#probing === undefined) this.#recall();
      if (this.#standing !== 'guess') {
        const answer = await this.#sendStraight(copy, signal, mayResend);
        if (answer !== undefined) return answer;
        // Refused with a prefix that another call (or another window) has since replaced: once
        // more, with the one in use now, and never a third time.
        mayResend = false;
        continue;
      }
      if (this.#probing === undefined) return this.#locked(() => this.#ask(copy, signal), signal);
      await untilAborted(this.#probing, signal);
    }
  }

  /**
   * One copy with the prefix known (or with the refused token's). A 401 on a prefix that worked
   * asks the other prefix once; undefined means "send again": the prefix in use changed (another
   * call found the other one, or another window shared it) while this copy was being refused.
   */
  async #sendStraight(copy: SendCopy<A>, signal: AbortSignal | undefined, mayResend: boolean): Promise<A | undefined> {
    const used = this.#prefix;
    const wasKnown = this.#standing === 'known';
    const answer = await this.#sendCopy(copy, used, signal);
    if (!this.#isRefusal(answer)) return answer;
    if (wasKnown && this.#standing === 'known' && this.#prefix === used && this.#probing === undefined) {
      // It worked before and is refused now: the app may have restarted as a build of the other kind.
      this.#standing = 'guess';
      return this.#locked(() => this.#askOther(copy, used, answer), signal);
    }
    if (this.#probing !== undefined) await untilAborted(this.#probing, signal);
    return mayResend && this.#standing !== 'refused' && this.#prefix !== used ? undefined : answer;
  }

  /** The prefix in use first; only a 401 that is not a clock problem tries the other one. */
  async #ask(copy: SendCopy<A>, signal: AbortSignal | undefined): Promise<A> {
    const first = this.#prefix;
    const answer = await this.#sendCopy(copy, first, signal);
    return this.#isRefusal(answer) ? this.#askOther(copy, first, answer) : answer;
  }

  /**
   * The one extra copy of an ask, freshly signed with the prefix `refused` is not: the 401 means
   * the first copy was not accepted, so even a POST is not done twice. It runs to its end even if
   * the caller's signal aborts, so that what it shows is never lost and never asked again.
   */
  async #askOther(copy: SendCopy<A>, refused: HeaderPrefix, refusal: A): Promise<A> {
    const other: HeaderPrefix = refused === 'Clessira' ? 'NowDoing' : 'Clessira';
    let answer: A;
    try {
      answer = await this.#sendCopy(copy, other, undefined);
    } catch (error) {
      // Anything but the re-send's 409 (no connection, a time-out) says nothing about `other`;
      // the 401 still says that `refused` is wrong.
      if (!(error instanceof AnswerLostError)) this.#guess(other);
      throw error;
    }
    if (provesAuthentication(answer.status)) return answer;
    if (this.#isRefusal(answer)) {
      // Both refused: the token (or the signature) is wrong, and the first 401 says so.
      this.#prefix = refused;
      this.#standing = 'refused';
      return refusal;
    }
    // A 429, a 403, a clock problem: nothing learned; the next ask starts with `other`.
    this.#guess(other);
    return answer;
  }

  /** Sends one copy; an answer that proves its prefix, or the re-send's 409 (AnswerLostError), teaches it. */
  async #sendCopy(copy: SendCopy<A>, prefix: HeaderPrefix, signal: AbortSignal | undefined): Promise<A> {
    let answer: A;
    try {
      answer = await copy(prefix, signal);
    } catch (error) {
      if (error instanceof AnswerLostError) this.#learn(prefix);
      throw error;
    }
    if (provesAuthentication(answer.status)) this.#learn(prefix);
    return answer;
  }

  #learn(prefix: HeaderPrefix): void {
    this.#prefix = prefix;
    this.#standing = 'known';
    if (this.#shared === prefix) return;
    this.#shared = prefix;
    this.#memory.onLearn?.(prefix);
  }

  #guess(prefix: HeaderPrefix): void {
    this.#prefix = prefix;
    this.#standing = 'guess';
  }

  /**
   * Takes what another client learned, when the memory says something new: the app has just taken
   * that prefix with this token (so a refused token is worth one ask again, and a known prefix may
   * be out of date: the app restarted as another build). It is tried first, by one call at a time.
   */
  #recall(): void {
    const recalled = this.#memory.recall?.();
    if (recalled === undefined || !isHeaderPrefix(recalled) || recalled === this.#shared) return;
    this.#shared = recalled;
    if (this.#standing !== 'known' || this.#prefix !== recalled) this.#guess(recalled);
  }

  /** Runs one ask as the only one, and answers the caller at once if its signal aborts. */
  #locked<A>(ask: () => Promise<A>, signal: AbortSignal | undefined): Promise<A> {
    const attempt = ask();
    const probing: Promise<void> = attempt.then(
      () => this.#release(probing),
      () => this.#release(probing),
    );
    this.#probing = probing;
    return untilAborted(attempt, signal);
  }

  #release(probing: Promise<void>): void {
    if (this.#probing === probing) this.#probing = undefined;
  }

  /** A 401 about the token or the signature: the kind that rules a prefix out. */
  #isRefusal(answer: A): boolean {
    return answer.status === 401 && !this.isClockProblem(answer);
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
