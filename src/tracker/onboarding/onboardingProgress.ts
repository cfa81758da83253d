/**
 * Onboarding, editor-free: how far a new user has got (app answers, token set, connected,
 * tracking) judged from the status bar's state and, without a token, from the reachability
 * probing below; the context keys the walkthrough's steps complete on, the steps to mark done
 * in VS Code's own record, and whether the first-run notice is due.
 */
import * as l10n from '@vscode/l10n';
import { reachability, type Reachability, type ReachabilityTarget } from '../../client/reachability';
import { CONTEXT_KEYS, WALKTHROUGH_ID } from '../ids';
import { boundedTimers, type Timers } from '../../platform/timers';
import type { TrackerState } from '../model/trackerState';

/** Where a new user stands; each field is the completion condition of one walkthrough step. */
export interface OnboardingProgress {
  /**
   * The app answered (any answer, even a refusal) through its VS Code integration or on the HTTP
   * port, or, before there is a token, something listens on the port: one of its switches is on.
   */
  readonly appReachable: boolean;
  /** There is a token to sign with: the integration's, or one stored or in the environment for the HTTP API. */
  readonly hasToken: boolean;
  /** The app accepted the token: the last poll answered idle or tracking. */
  readonly connected: boolean;
  readonly tracking: boolean;
}

export const NO_PROGRESS: OnboardingProgress = {
  appReachable: false,
  hasToken: false,
  connected: false,
  tracking: false,
};

/**
 * The walkthrough's steps in order, each with the context key whose becoming true completes it.
 * package.json's `contributes.walkthroughs` must match (a unit test compares them).
 */
export const WALKTHROUGH_STEPS = [
  { id: 'connectApp', progress: 'appReachable', contextKey: CONTEXT_KEYS.appReachable },
  { id: 'setToken', progress: 'hasToken', contextKey: CONTEXT_KEYS.hasToken },
  { id: 'checkConnection', progress: 'connected', contextKey: CONTEXT_KEYS.connected },
  { id: 'startTracking', progress: 'tracking', contextKey: CONTEXT_KEYS.tracking },
] as const satisfies readonly { id: string; progress: keyof OnboardingProgress; contextKey: string }[];

export type WalkthroughStepId = (typeof WALKTHROUGH_STEPS)[number]['id'];

/**
 * The steps whose condition holds in `progress` and that this window has not marked done yet.
 *
 * The `onContext:` completion events alone do not do: VS Code (1.100's gettingStartedService)
 * reads a context key expression that is already true when it registers the walkthrough as an
 * event that already happened, and ticks no step for it, ever, in that window. It registers the
 * walkthrough when its walkthroughs service is first needed, which is usually when the page
 * opens; so a step done before the page opens stays unticked. Its command
 * `welcome.markStepComplete` records a step done in its own per-profile record, which the page
 * reads whenever it opens.
 */
export function stepsToMark(progress: OnboardingProgress, marked: ReadonlySet<WalkthroughStepId>): WalkthroughStepId[] {
  return WALKTHROUGH_STEPS.filter((step) => progress[step.progress] && !marked.has(step.id)).map((step) => step.id);
}

/** A step's id as VS Code knows it: `<publisher>.<name>#<walkthrough id>#<step id>`. */
export function qualifiedStepId(extensionId: string, stepId: WalkthroughStepId): string {
  return `${extensionId}#${WALKTHROUGH_ID}#${stepId}`;
}

/**
 * The context keys onboarding sets itself. `timeTracker.hasToken` and `timeTracker.tracking` (set
 * by the session) already exist with the same meaning.
 */
export type OnboardingContextKey = typeof CONTEXT_KEYS.appReachable | typeof CONTEXT_KEYS.connected;

/**
 * Whether a state proves the app answers HTTP on the port: true for any answer (a 401, 423, 429
 * or 503 too), false when nothing answers, undefined when the state does not tell (not polled
 * yet, no token so no poll, or a failure that may be a time-out as well as a 5xx).
 */
export function reachabilityOf(state: TrackerState): boolean | undefined {
  switch (state.kind) {
    case 'idle':
    case 'tracking':
    case 'tokenRejected':
    case 'licenseLocked':
    case 'lockedOut':
    case 'unavailable':
      return true;
    case 'offline':
      return false;
    case 'starting':
    case 'noToken':
    case 'remoteHost':
    case 'failed':
      return undefined;
  }
}

/**
 * The progress a new status bar state implies; what the state does not tell is kept. `hasToken`
 * is the session's word (a state such as offline does not tell whether a token exists).
 */
export function progressAfter(
  state: TrackerState,
  previous: OnboardingProgress,
  hasToken: boolean,
): OnboardingProgress {
  if (state.kind === 'starting') return previous;
  const connected = state.kind === 'idle' || state.kind === 'tracking';
  return {
    appReachable: reachabilityOf(state) ?? previous.appReachable,
    hasToken,
    connected,
    tracking: state.kind === 'tracking',
  };
}

export interface ReachabilityProbingOptions {
  /** Where to look, read afresh for every probe (the port setting may change). */
  readonly target: () => ReachabilityTarget;
  readonly intervalMs: () => number;
  /** True when something listens. */
  readonly onAnswer: (reachable: boolean) => void;
  readonly timers?: Timers;
  /** How to ask; default the connect-and-close of client/reachability.ts. Tests put other shapes here. */
  readonly probe?: (target: ReachabilityTarget) => Promise<Reachability>;
}

/**
 * Without a token nothing polls, so whether the app listens is asked here: at once on `start()`
 * (each state without a token starts it afresh), then every poll interval until `stop()`, so the
 * first step completes when the switch is turned on and follows the app as polls do with a token.
 * The probe sends nothing the app could count, so every window may ask this often.
 */
export class ReachabilityProbing {
  /** Bumped by `start()` and `stop()`, so an answer for a run already ended is dropped. */
  private run = 0;
  private timer: unknown;
  private readonly timers: Timers;
  private readonly probe: (target: ReachabilityTarget) => Promise<Reachability>;

  constructor(private readonly options: ReachabilityProbingOptions) {
    this.timers = boundedTimers(options.timers);
    this.probe = options.probe ?? ((target) => reachability(target));
  }

  start(): void {
    this.stop();
    void this.ask(this.run);
  }

  stop(): void {
    this.run++;
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async ask(run: number): Promise<void> {
    const answer = await this.probe(this.options.target());
    if (run !== this.run) return;
    this.options.onAnswer(answer.kind === 'listening');
    this.timer = this.timers.setTimeout(() => void this.ask(run), this.options.intervalMs());
  }
}

/** The values of the context keys onboarding sets, for a progress. */
export function contextKeysFor(progress: OnboardingProgress): Record<OnboardingContextKey, boolean> {
  return {
    [CONTEXT_KEYS.appReachable]: progress.appReachable,
    [CONTEXT_KEYS.connected]: progress.connected,
  };
}

/** What became of the first-run notice in this window. */
export type WelcomeNotice =
  /** Activation has not finished reading the token yet. */
  | 'deciding'
  | 'shown'
  /** Not shown: the integration or a token (stored or from the environment) connects. */
  | 'hasToken'
  /** Not shown: the user chose "Don't show again" before. */
  | 'turnedOff'
  /** Not shown: the extension runs on a remote machine, where no token would help; that state has its own message. */
  | 'remoteHost';

/** The first-run notice's message and buttons, in the editor's language. */
export function welcomeNotice(): {
  readonly message: string;
  readonly setToken: string;
  readonly dontShowAgain: string;
} {
  return {
    message: [
      l10n.t(
        'Time Tracker connects by itself once you turn on Settings → Integrations → VSCode in the time-tracking app.',
      ),
      l10n.t('Or set the token of its HTTP API.'),
    ].join(' '),
    setToken: l10n.t('Set Token'),
    dontShowAgain: l10n.t("Don't show again"),
  };
}

/** Whether the first-run notice is shown at activation, and if not, why. */
export function welcomeNoticeFor(facts: {
  readonly hasToken: boolean;
  readonly turnedOff: boolean;
  readonly remoteHost?: boolean;
}): Exclude<WelcomeNotice, 'deciding'> {
  if (facts.remoteHost === true) return 'remoteHost';
  if (facts.hasToken) return 'hasToken';
  if (facts.turnedOff) return 'turnedOff';
  return 'shown';
}
