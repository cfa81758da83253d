/**
 * The fault injector: every 1–3 s (seeded) it starts one fault on the app, the connection or the
 * workspace. Kinds come in shuffled rounds so that each is injected in every round; a fault that
 * holds a state (license locked, on break, an endpoint unwired, a connection mode) puts it back
 * after 0.2–6 s by itself, and a kind that is still active is skipped. Restarts never interleave.
 *
 * Not injected: a server clock more than 60 s off. The extension answers that 401 as designed,
 * by pausing its polling until the user acts, which no soak user would do.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { ServiceClient } from '../../../src/client';
import { MAX_FAILURES_IN_WINDOW } from '../../../src/protocol/constants';
import type { EndpointPath } from '../../../src/protocol/types';
import type { SoakApp } from './app';
import type { Rng } from '../../fuzz/generator';

export const FAULT_KINDS = [
  /** The app quits and comes back 0.5–2 s later (a new server instance with the data kept). */
  'restart',
  /** Every open connection is reset, and for 0.2–1 s each new request is reset before the app sees it. */
  'reset',
  /** For 0.3–1.5 s the app handles each request but its answer is lost (the connection is reset instead). */
  'answerLost',
  /** The app crashes right after logging an entry, before answering, and comes back 0.5–2 s later. */
  'crashAfterCommit',
  /** The license is locked for 1–5 s. */
  'license',
  /** Eleven requests with a wrong token lock everyone out; 2–6 s later the app restarts, which ends it. */
  'lockout',
  /** The user is on a break for 1–5 s. */
  'break',
  /** One endpoint answers 503 for 1–5 s. */
  'unwired',
  /** A git checkout of another branch in the workspace. */
  'branch',
] as const;

export type FaultKind = (typeof FAULT_KINDS)[number];

const UNWIRABLE: readonly EndpointPath[] = ['/status', '/current', '/entries', '/branch-changed'];
/** Faults that set the proxy's mode: one at a time. */
const PROXY_MODES: readonly FaultKind[] = ['reset', 'answerLost'];

export interface InjectorOptions {
  readonly app: SoakApp;
  readonly random: Rng;
  readonly kinds: readonly FaultKind[];
  /** Lockouts are bounded: each costs the extension up to a minute of waiting. */
  readonly maxLockouts: number;
  readonly switchBranch: () => Promise<string>;
  /** A crashAfterCommit fault is armed: the user should log soon, so that it fires. */
  readonly onArmed: () => void;
  readonly event: (line: string) => void;
}

export class FaultInjector {
  readonly injected: Record<FaultKind, number>;
  /** crashAfterCommit faults that fired (an entry's answer was in flight while armed). */
  crashes = 0;
  readonly errors: string[] = [];
  private readonly active = new Map<FaultKind, Promise<void>>();
  private round: FaultKind[] = [];
  private stopped = false;
  private wake: () => void = () => undefined;

  constructor(private readonly options: InjectorOptions) {
    this.injected = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;
  }

  /** Injects faults until `untilMs` or stop(). */
  async run(untilMs: number): Promise<void> {
    const { random } = this.options;
    while (!this.over(untilMs)) {
      await this.pause(random.between(1_000, 3_000));
      if (this.over(untilMs)) break;
      const kind = this.next();
      if (kind === undefined) continue;
      this.injected[kind]++;
      this.options.event(`fault ${kind}`);
      const running = this.inject(kind)
        .catch((error: unknown) => {
          this.errors.push(`${kind}: ${error instanceof Error ? error.message : String(error)}`);
          this.options.event(`fault ${kind} failed: ${String(error)}`);
        })
        .finally(() => this.active.delete(kind));
      this.active.set(kind, running);
    }
  }

  /** No new faults; resolves once every active one has put back what it held. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await Promise.all(this.active.values());
  }

  private over(untilMs: number): boolean {
    return this.stopped || Date.now() >= untilMs;
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /**
   * The next kind of this round that may start now (undefined when every one left is still
   * active); a new shuffled round when one is used up. Lockouts leave the rounds once used up.
   */
  private next(): FaultKind | undefined {
    const left = (kind: FaultKind): boolean => kind !== 'lockout' || this.injected.lockout < this.options.maxLockouts;
    this.round = this.round.filter(left);
    if (this.round.length === 0) this.round = shuffled(this.options.random, this.options.kinds.filter(left));
    const index = this.round.findIndex((kind) => this.mayStart(kind));
    if (index < 0) return undefined;
    return this.round.splice(index, 1)[0];
  }

  private mayStart(kind: FaultKind): boolean {
    if (this.active.has(kind)) return false;
    return !(PROXY_MODES.includes(kind) && PROXY_MODES.some((other) => this.active.has(other)));
  }

  private async inject(kind: FaultKind): Promise<void> {
    const { app, random } = this.options;
    const hold = (min: number, max: number): Promise<void> => delay(random.between(min, max));
    switch (kind) {
      case 'restart':
        return app.exclusive(async () => {
          await app.down();
          await hold(500, 2_000);
          await app.up();
        });
      case 'reset':
        this.options.event(`  reset ${app.proxy.resetAll()} connection(s)`);
        app.proxy.mode = 'resetRequests';
        await hold(200, 1_000);
        app.proxy.mode = 'pass';
        return;
      case 'answerLost':
        app.proxy.mode = 'dropAnswers';
        await hold(300, 1_500);
        app.proxy.mode = 'pass';
        return;
      case 'crashAfterCommit':
        return app.exclusive(async () => {
          if (!app.isUp) return;
          const gap = random.between(500, 2_000);
          this.options.onArmed();
          const crashed = await app.proxy.crashAtNextAnswerTo('POST /entries', 8_000);
          if (!crashed) return this.options.event('  crashAfterCommit: no entry was logged while armed');
          this.crashes++;
          this.options.event('  crashed after an entry was logged, before its answer');
          await app.down();
          await delay(gap);
          await app.up();
        });
      case 'license':
        app.setLicense('locked');
        await hold(1_000, 5_000);
        app.setLicense('valid');
        return;
      case 'lockout':
        return app.exclusive(async () => {
          if (!app.isUp) return;
          // Straight to the server: the proxy's faults must not spare it a failed sign-in.
          const intruder = new ServiceClient({ token: 'not-the-soak-token', port: app.serverPort, timeoutMs: 2_000 });
          try {
            for (let i = 0; i <= MAX_FAILURES_IN_WINDOW; i++) await intruder.healthcheck().catch(() => undefined);
          } finally {
            await intruder.close();
          }
          await hold(2_000, 6_000);
          await app.down();
          await hold(300, 1_000);
          await app.up();
        });
      case 'break':
        app.setBreak(true);
        await hold(1_000, 5_000);
        app.setBreak(false);
        return;
      case 'unwired': {
        const path = random.pick(UNWIRABLE);
        this.options.event(`  unwired ${path}`);
        app.setUnwired(path, true);
        await hold(1_000, 5_000);
        app.setUnwired(path, false);
        return;
      }
      case 'branch':
        this.options.event(`  switched to ${await this.options.switchBranch()}`);
        return;
    }
  }
}

function shuffled<T>(random: Rng, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = random.int(i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}
