/**
 * One command run's answer to "may I sign now?" and its one sentence about it. While the app
 * rejects the token or locks us out (the session's state says so, or a search of this run met a 401
 * or 429 first), the command sends nothing and says once why, with the button that fixes it, not
 * a toast per refused request. The rule itself is src/tracker/model/signingPause.ts.
 */
import { classify } from '../../tracker/model/classify';
import { pauseFromError, signingPause, type SigningPause } from '../../tracker/model/signingPause';
import type { CommandId } from '../../tracker/ids';
import { pausedAdvice } from '../../tracker/advice/pausedAdvice';
import type { CommandServices } from './services';

export class PauseGate {
  /** A pause a failed search of this run met before the session's state said it. */
  private learned: SigningPause | undefined;
  private toldPause = false;
  private loggedError = false;

  constructor(
    private readonly services: CommandServices,
    /** The command of this run. */
    readonly command: CommandId,
  ) {}

  /** Why nothing may be signed now; undefined when requests may go out. */
  get pause(): SigningPause | undefined {
    return signingPause(this.services.session.state, Date.now()) ?? this.learned;
  }

  /** Whether a picker of this run may search now. */
  readonly maySearch = (): boolean => this.pause === undefined;

  /**
   * A search failed: a 401 or 429 stops this run's searching and is said once when the run ends
   * (`heldBack`); any other failure is logged, the first time only. The picker says it in itself:
   * a notification would open behind it, where the user does not look.
   */
  readonly searchFailed = (error: unknown): void => {
    const pause = pauseFromError(error);
    if (pause) {
      this.learned = pause;
      return;
    }
    if (this.loggedError) return;
    this.loggedError = true;
    this.services.log.warn(`${this.command}: a search failed, shown in the picker: ${classify(error).message}`);
  };

  /**
   * Nothing was sent for `pause`: says once what was done instead (`done`, a translated sentence;
   * undefined for nothing) and why, as a failure with its fix as a button: an error when nothing
   * was done, a warning when what the user gave waits in the queue. The status bar item shows the
   * state meanwhile, and says when the app takes requests again.
   */
  heldBack(pause: SigningPause, done: string | undefined, severity: 'warning' | 'error'): void {
    if (this.toldPause) return;
    this.toldPause = true;
    const advice = pausedAdvice(pause, this.services.session.channel.route, done, severity);
    this.services.log[severity === 'error' ? 'error' : 'warn'](`${this.command}: ${advice.message}`);
    this.services.messages.failure(advice, this.requestsTaken());
  }

  /** Resolves once the app answers again, the token and the clock taken: the end of the pause the failure said. */
  private requestsTaken(): Promise<void> {
    const { session } = this.services;
    return new Promise((resolve) => {
      const listener = session.onDidChangeState((state) => {
        if (state.kind !== 'idle' && state.kind !== 'tracking') return;
        listener.dispose();
        resolve();
      });
    });
  }

  /**
   * When nothing may be signed now: says once what was not done (`done`) and why, and answers true,
   * so the command stops there; false when requests may go out.
   */
  holdsBack(done: string, severity: 'warning' | 'error'): boolean {
    const pause = this.pause;
    if (pause === undefined) return false;
    this.heldBack(pause, done, severity);
    return true;
  }

  /** The user left the picker after one of its searches met a pause the state did not show yet: said once, why. */
  leftAfterLearning(): void {
    if (this.learned !== undefined && signingPause(this.services.session.state, Date.now()) === undefined)
      this.heldBack(this.learned, undefined, 'warning');
  }
}
