/**
 * What a link does once it decides: on what the app said just now (asked once more when the last
 * answer is too old to tell), at most one start of its activity (by the id this window knows, or by
 * name), never queued, never retried; at a window's opening only after the user's stop on purpose
 * is past and this window won the opening's claim. Each switch takes a turn: a start whose turn
 * passed does not go out. Every outcome is reported (LinkOutcome), and what the user sees is the
 * controller's notice (./linkController.ts).
 */
import type { ServiceClient } from '../../client';
import { errorMessage } from '../../platform/errors';
import type { ActivityReference } from '../../protocol/types';
import type { LinkScope } from '../../tracker/links/linkConsent';
import {
  failedNotice,
  heldNotice,
  linkStep,
  startedNotice,
  type LinkHold,
  type LinkStep,
  type NoticeWords,
} from '../../tracker/links/linkNotice';
import type { UsedHere } from '../../tracker/links/linksWaiting';
import { maxAnswerAgeMs, stoppedNotice } from '../../tracker/links/linkOpening';
import { knownActivityFor, type LinkDecision } from '../../tracker/links/links';
import { linkUndo, type LinkUndo } from '../../tracker/links/linkUndo';
import { classify } from '../../tracker/model/classify';
import type { RecentActivities } from '../../tracker/pickers/recentActivities';
import type { Session } from '../session';
import type { Settings } from '../settings';
import type { ConsentAnswer } from './linkConsentPrompt';
import type { OpeningGuard } from './openingGuard';
import type { Log } from '../oneLineLog';

/** What a link did with one switch or window opening: the tests and the API read it. */
export type LinkOutcome =
  | { readonly kind: 'started'; readonly activity: string; readonly previous: string | undefined }
  | { readonly kind: 'alreadyRunning'; readonly activity: string }
  | { readonly kind: 'held'; readonly activity: string; readonly hold: LinkHold }
  | { readonly kind: 'failed'; readonly activity: string; readonly message: string }
  /** A newer switch came before this one could act. */
  | { readonly kind: 'overtaken'; readonly activity: string }
  /** A repository's link would act: the user is asked first, and nothing starts until the answer. */
  | { readonly kind: 'asked'; readonly activity: string }
  /** What the user answered to it ('later': Not Now, or the question closed). */
  | { readonly kind: 'answered'; readonly answer: ConsentAnswer }
  /** A repository's link not answered about matched while the question was open: nothing started. */
  | { readonly kind: 'unanswered'; readonly activity: string }
  /** The window opened after the user stopped tracking on purpose: nothing started. */
  | { readonly kind: 'stopped'; readonly activity: string; readonly stoppedAtMs: number }
  /** Another window acted on the opening (windows opened together), or the claim could not be made. */
  | { readonly kind: 'leftToAnotherWindow'; readonly activity: string };

/** What makes a link act: a branch switch, or the window opening. */
export type Trigger = 'switch' | 'open';

export interface LinkStartParts {
  readonly session: Pick<Session, 'ready' | 'state' | 'refreshUnlessPaused'>;
  readonly log: Pick<Log, 'debug' | 'info' | 'warn'>;
  readonly settings: () => Settings;
  /** The recent activities: where a link's activity may be known by id. */
  readonly recent: Pick<RecentActivities, 'list'>;
  /** The stop on purpose and the openings' claims, shared by the windows. */
  readonly openings: Pick<OpeningGuard, 'stoppedAt' | 'claim'>;
  readonly clock: () => number;
  /** Reports what a link did (the controller's onDidAct). */
  readonly acted: (outcome: LinkOutcome) => void;
  /** Shows a notice in the status bar; an earlier start's Undo ends with it. */
  readonly show: (notice: NoticeWords) => void;
  /** A linked start that Undo may take back. */
  readonly started: (undo: LinkUndo) => void;
  /** The settings file the link that decided is in. */
  readonly scopeOf: (decision: LinkDecision) => LinkScope;
  /** The controller is disposed: nothing more goes out or is reported. */
  readonly disposed: () => boolean;
}

export class LinkStarter {
  /** Each switch takes a turn; a start whose turn passed does not go out. */
  private turn = 0;
  /** What the latest act did, for actAndTell. */
  private last: LinkOutcome | undefined;

  constructor(private readonly parts: LinkStartParts) {}

  async act(decision: LinkDecision, trigger: Trigger): Promise<void> {
    const turn = ++this.turn;
    const client = await this.parts.session.ready();
    const stale = (): boolean => {
      if (turn !== this.turn && !this.parts.disposed()) this.report({ kind: 'overtaken', activity: decision.activity });
      return this.parts.disposed() || turn !== this.turn;
    };
    if (stale()) return;
    const known = knownActivityFor(decision, this.parts.recent.list());
    let step = await this.stepOf(decision, trigger, client, known);
    if (step.kind === 'hold' && step.hold === 'unknown' && client !== undefined) {
      // An old answer, or a poll that failed, says nothing of what runs now: the app is asked once more.
      this.parts.log.debug(
        `Link ${decision.link.position} names ${decision.activity}; asking the app what runs before it acts.`,
      );
      await this.parts.session.refreshUnlessPaused();
      if (stale()) return;
      step = await this.stepOf(decision, trigger, client, known);
    }
    if (step.kind === 'start' && trigger === 'open' && !(await this.claimed(decision))) return;
    if (stale()) return;
    return this.take(decision, step, client, known);
  }

  /** Acts, and tells what it did, as the line after "Use Its Links" says it. */
  async actAndTell(decision: LinkDecision, trigger: Trigger): Promise<UsedHere> {
    this.last = undefined;
    await this.act(decision, trigger);
    const outcome = this.last as LinkOutcome | undefined;
    const { activity } = decision;
    switch (outcome?.kind) {
      case undefined:
        // Only an opening leaves what runs without an outcome (said in the log).
        return { kind: 'left' };
      case 'started':
        return { kind: 'started', activity: outcome.activity };
      case 'alreadyRunning':
      case 'leftToAnotherWindow':
        return { kind: 'alreadyRunning', activity };
      default:
        return { kind: 'notStarted', activity };
    }
  }

  private report(outcome: LinkOutcome): void {
    this.last = outcome;
    this.parts.acted(outcome);
  }

  private async stepOf(
    decision: LinkDecision,
    trigger: Trigger,
    client: ServiceClient | undefined,
    known: ActivityReference | undefined,
  ): Promise<LinkStep> {
    // Only an opening heeds the stop: a switch is the user acting.
    const stoppedAtMs = trigger === 'open' ? await this.parts.openings.stoppedAt() : undefined;
    const { state } = this.parts.session;
    return linkStep(decision, {
      state,
      connected: client !== undefined,
      nowMs: this.parts.clock(),
      trigger,
      known,
      maxAnswerAgeMs: maxAnswerAgeMs(this.parts.settings().pollIntervalSeconds),
      stoppedAtMs,
    });
  }

  /** Of windows opening together on one activity, the first to claim it acts; the others leave it (said in the log). */
  private async claimed(decision: LinkDecision): Promise<boolean> {
    const claim = await this.parts.openings.claim(decision.activity);
    if (claim.kind === 'won') return true;
    const why =
      claim.kind === 'taken'
        ? `another window's opening started it ${Math.round((this.parts.clock() - claim.claimedAtMs) / 1000)} s ago`
        : `the claim shared with the other windows could not be made (${claim.message})`;
    this.parts.log.info(
      `Link ${decision.link.position} names ${decision.activity}; not started at this window's opening: ${why}.`,
    );
    this.report({ kind: 'leftToAnotherWindow', activity: decision.activity });
    return false;
  }

  private async take(
    decision: LinkDecision,
    step: LinkStep,
    client: ServiceClient | undefined,
    known: ActivityReference | undefined,
  ): Promise<void> {
    const { session, log } = this.parts;
    if (step.kind === 'leave') {
      // Said in the log only: the user chose what runs, and a link never takes it over at opening.
      const running = session.state.kind === 'tracking' ? session.state.activity.activityName : 'another activity';
      log.info(
        `Link ${decision.link.position} names ${decision.activity}; the window opened while ${running} runs, which is left running.`,
      );
      return;
    }
    if (step.kind === 'stopped') {
      log.info(
        `Link ${decision.link.position} names ${decision.activity}; not started at this window's opening: ` +
          `tracking was stopped on purpose at ${new Date(step.stoppedAtMs).toISOString()}.`,
      );
      this.parts.show((isPrivate) => stoppedNotice(decision, step.stoppedAtMs, isPrivate));
      return this.report({ kind: 'stopped', activity: decision.activity, stoppedAtMs: step.stoppedAtMs });
    }
    if (step.kind === 'hold' || client === undefined) {
      const hold = step.kind === 'hold' ? step.hold : 'offline';
      log.info(`Link ${decision.link.position} names ${decision.activity}; not started (${hold}), and not queued.`);
      this.parts.show((isPrivate) => heldNotice(decision, hold, isPrivate));
      return this.report({ kind: 'held', activity: decision.activity, hold });
    }
    if (step.kind === 'alreadyRunning') {
      log.debug(`Link ${decision.link.position} names ${decision.activity}, which runs already.`);
      return this.report({ kind: 'alreadyRunning', activity: decision.activity });
    }
    await this.start(decision, step, client, known);
  }

  private async start(
    decision: LinkDecision,
    step: Extract<LinkStep, { kind: 'start' }>,
    client: ServiceClient,
    known: ActivityReference | undefined,
  ): Promise<void> {
    const { session, log } = this.parts;
    const { request, previous: running } = step;
    try {
      const result = await client.startActivity(request);
      const name = result.activityName ?? known?.activityName ?? decision.activity;
      log.info(
        `Started ${name}: link ${decision.link.position} of timeTracker.links names it for this ${decision.by}.`,
      );
      const scope = this.parts.scopeOf(decision);
      this.parts.show((isPrivate) => startedNotice(decision, name, running?.activityName, isPrivate, scope));
      this.parts.started(
        linkUndo(
          decision.link,
          { activityID: result.activityID ?? known?.activityID, activityName: name, created: result.created },
          running,
        ),
      );
      this.report({ kind: 'started', activity: name, previous: running?.activityName });
    } catch (error) {
      const failure = classify(error);
      log.warn(`Link ${decision.link.position}: starting ${decision.activity} failed: ${errorMessage(error)}`);
      this.parts.show((isPrivate) => failedNotice(decision, failure.message, isPrivate));
      this.report({ kind: 'failed', activity: decision.activity, message: failure.message });
    } finally {
      void session.refreshUnlessPaused();
    }
  }
}
