/**
 * Onboarding: keeps the context keys that complete the "Get started" walkthrough's steps true
 * exactly when their real event happened (the app answers, the token is set, the app accepts it,
 * something is tracked), and shows the one first-run notice when there is no token.
 */
import * as vscode from 'vscode';
import {
  contextKeysFor,
  needsProbe,
  NO_PROGRESS,
  progressAfter,
  progressAfterProbe,
  ReachabilityProbing,
  welcomeNotice,
  welcomeNoticeFor,
  type OnboardingContextKey,
  type OnboardingProgress,
  type WelcomeNotice,
} from '../tracker/view/onboardingProgress';
import { COMMANDS, STORAGE_KEYS } from '../tracker/ids';
import type { TrackerState } from '../tracker/model/trackerState';
import type { Messages } from './messages';
import type { Session } from './session';
import type { Settings } from './settings';
import { errorMessage } from '../platform/errors';

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
  readonly log: vscode.LogOutputChannel;
  readonly messages: Messages;
  readonly settings: () => Settings;
}

/** Builds onboarding: its read-only view, which the caller disposes with the other parts. */
export function startOnboarding(context: vscode.ExtensionContext, services: OnboardingServices): OnboardingView & { dispose(): void } {
  context.globalState.setKeysForSync([STORAGE_KEYS.welcomeNoticeTurnedOff]);
  return new Onboarding(services, context.globalState);
}

class Onboarding implements OnboardingView, vscode.Disposable {
  private current: OnboardingProgress = NO_PROGRESS;
  private noticeOutcome: WelcomeNotice = 'deciding';
  private readonly published = new Map<OnboardingContextKey, boolean>();
  private readonly changed = new vscode.EventEmitter<OnboardingProgress>();
  readonly onDidChange = this.changed.event;
  private readonly subscription: vscode.Disposable;
  private readonly probing = new ReachabilityProbing({
    target: () => ({ port: this.services.settings().port }),
    intervalMs: () => this.services.settings().pollIntervalSeconds * 1000,
    onAnswer: (reachable) => this.publish(progressAfterProbe(this.current, reachable)),
  });

  constructor(
    private readonly services: OnboardingServices,
    private readonly memento: vscode.Memento,
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
    if (needsProbe(state)) this.probing.start();
  }

  private publish(next: OnboardingProgress): void {
    const before = this.current;
    this.current = next;
    for (const [key, value] of Object.entries(contextKeysFor(next)) as [OnboardingContextKey, boolean][]) {
      if (this.published.get(key) === value) continue;
      this.published.set(key, value);
      void vscode.commands.executeCommand('setContext', key, value);
    }
    const same = (Object.keys(next) as (keyof OnboardingProgress)[]).every((field) => before[field] === next[field]);
    if (!same) this.changed.fire(next);
  }

  /** The first-run notice: once per window, never with a token, never after "Don't show again". */
  private async welcome(): Promise<void> {
    try {
      const client = await this.services.session.ready();
      this.noticeOutcome = welcomeNoticeFor({
        hasToken: client !== undefined,
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
