/**
 * Onboarding: keeps the context keys that complete the "Get started" walkthrough's steps true
 * exactly when their real event happened (the app answers, the token is set, the app accepts it,
 * something is tracked), marks each such step done in VS Code's own record so that a page
 * opened later shows it ticked, and shows the one first-run notice when there is no token.
 */
import * as vscode from 'vscode';
import {
  contextKeysFor,
  NO_PROGRESS,
  progressAfter,
  qualifiedStepId,
  ReachabilityProbing,
  stepsToMark,
  welcomeNotice,
  welcomeNoticeFor,
  type OnboardingContextKey,
  type OnboardingProgress,
  type WalkthroughStepId,
  type WelcomeNotice,
} from '../../tracker/onboarding/onboardingProgress';
import { COMMANDS, STORAGE_KEYS } from '../../tracker/ids';
import type { TrackerState } from '../../tracker/model/trackerState';
import type { Messages } from '../messages';
import type { Session } from '../session';
import type { Settings } from '../settings';
import { errorMessage } from '../../platform/errors';
import type { Log } from '../oneLineLog';

/** The read-only view the extension's API offers (its tests read it). */
export interface OnboardingView {
  /** The walkthrough's completion conditions as they stand; the context keys carry the same values. */
  readonly progress: OnboardingProgress;
  /** What became of the first-run notice in this window. */
  readonly notice: WelcomeNotice;
  /** Fires after the context keys were updated for a new progress. */
  readonly onDidChange: vscode.Event<OnboardingProgress>;
}

export interface OnboardingServices {
  readonly session: Session;
  readonly log: Log;
  readonly messages: Messages;
  readonly settings: () => Settings;
}

/** Builds onboarding: its read-only view, which the caller disposes with the other parts. */
export function startOnboarding(
  context: vscode.ExtensionContext,
  services: OnboardingServices,
): OnboardingView & { dispose(): void } {
  context.globalState.setKeysForSync([STORAGE_KEYS.welcomeNoticeTurnedOff]);
  return new Onboarding(services, context.globalState, context.extension.id);
}

/** VS Code's own command (the palette's "Welcome: Mark Step Complete"), given a step's qualified id. */
const MARK_STEP_COMPLETE = 'welcome.markStepComplete';
/** Failed rounds of marks after which this window stops asking: a VS Code without the command. */
const MARK_ROUNDS = 3;

class Onboarding implements OnboardingView, vscode.Disposable {
  private current: OnboardingProgress = NO_PROGRESS;
  private noticeOutcome: WelcomeNotice = 'deciding';
  private readonly published = new Map<OnboardingContextKey, boolean>();
  /** Steps marked done in VS Code (or being marked) in this window. */
  private readonly marked = new Set<WalkthroughStepId>();
  private failedMarkRounds = 0;
  private readonly changed = new vscode.EventEmitter<OnboardingProgress>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;
  private readonly probing = new ReachabilityProbing({
    target: () => ({ port: this.services.settings().port }),
    intervalMs: () => this.services.settings().pollIntervalSeconds * 1000,
    onAnswer: (reachable) => this.publish({ ...this.current, appReachable: reachable }),
  });

  constructor(
    private readonly services: OnboardingServices,
    private readonly memento: vscode.Memento,
    private readonly extensionId: string,
  ) {
    this.subscription = services.session.onDidChangeState((state) => this.onState(state));
    this.onState(services.session.state);
    void this.welcome();
  }

  get progress(): OnboardingProgress {
    return this.current;
  }

  get notice(): WelcomeNotice {
    return this.noticeOutcome;
  }

  private onState(state: TrackerState): void {
    this.probing.stop();
    this.publish(progressAfter(state, this.current, this.services.session.client !== undefined));
    if (state.kind === 'noToken') this.probing.start();
  }

  private publish(next: OnboardingProgress): void {
    const before = this.current;
    this.current = next;
    for (const [key, value] of Object.entries(contextKeysFor(next)) as [OnboardingContextKey, boolean][]) {
      if (this.published.get(key) === value) continue;
      this.published.set(key, value);
      void vscode.commands.executeCommand('setContext', key, value);
    }
    this.markDone(next);
    const same = (Object.keys(next) as (keyof OnboardingProgress)[]).every((field) => before[field] === next[field]);
    if (!same) this.changed.fire(next);
  }

  /**
   * A step whose condition holds is marked done in VS Code, so that the page shows it ticked
   * when it opens later (the context keys tick it only while the page's service listens). What
   * failed is tried again at the next change: the first marks can come before VS Code has read
   * the walkthrough, and it keeps them all the same.
   */
  private markDone(progress: OnboardingProgress): void {
    const steps = stepsToMark(progress, this.marked);
    if (steps.length === 0 || this.failedMarkRounds >= MARK_ROUNDS) return;
    for (const step of steps) this.marked.add(step);
    const marks = steps.map((step) =>
      Promise.resolve(vscode.commands.executeCommand(MARK_STEP_COMPLETE, qualifiedStepId(this.extensionId, step))).then(
        () => undefined,
        (error: unknown) => {
          this.marked.delete(step);
          return `${step}: ${errorMessage(error)}`;
        },
      ),
    );
    void Promise.all(marks).then((outcomes) => {
      const failed = outcomes.filter((outcome) => outcome !== undefined);
      if (failed.length === 0) return;
      this.failedMarkRounds++;
      this.services.log.debug(
        `Marking walkthrough steps done failed (${failed.join('; ')}); the next change tries again.`,
      );
    });
  }

  /** The first-run notice: once per window, never with a token, never after "Don't show again". */
  private async welcome(): Promise<void> {
    try {
      const client = await this.services.session.ready();
      this.noticeOutcome = welcomeNoticeFor({
        hasToken: client !== undefined,
        remoteHost:
          this.services.session.channel.kind === 'none' && this.services.session.channel.reason === 'remoteHost',
        turnedOff: this.memento.get<boolean>(STORAGE_KEYS.welcomeNoticeTurnedOff, false),
      });
      if (this.noticeOutcome !== 'shown') return;
      const notice = welcomeNotice();
      await this.services.messages.info(
        notice.message,
        { label: notice.setToken, run: () => vscode.commands.executeCommand(COMMANDS.setToken) },
        { label: notice.dontShowAgain, run: () => this.memento.update(STORAGE_KEYS.welcomeNoticeTurnedOff, true) },
      );
    } catch (error) {
      this.services.log.warn(`First-run notice: ${errorMessage(error)}`);
    }
  }

  dispose(): void {
    this.probing.stop();
    this.subscription.dispose();
    this.changed.dispose();
  }
}
