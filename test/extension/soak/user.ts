/**
 * The soak's user: every 0.5–2.5 s (sooner when the app has just gone away) one command with
 * arguments, as a keybinding would run it. Mostly Log Time, each entry with a unique note
 * (`soak-<n>`), so the end checks can find it on the server; now and then Start or Stop Tracking.
 * Each action's outcome is what the user was told: the entry logged, queued, or a failure.
 */
import * as vscode from 'vscode';
import type { Rng } from '../../fuzz/generator';
import type { NotificationSpy } from './spy';

/** What Log Time says when it queues an entry (commands.ts); the English text, as every test reads. */
const QUEUED_MESSAGE = /is queued until the app answers\.$/;
const ACTIVITIES = ['Soak review', 'Soak coding', 'Soak meetings'];
const TRACKED = 'Soak tracking';
/** A command that has not settled after this long is a failure of its own (client time-outs are 5 s). */
const HUNG_MS = 30_000;

export type Outcome =
  /** Log Time returned the entry: the app logged it. */
  | 'delivered'
  /** The app did not answer; the entry was queued. */
  | 'queued'
  /** The user was told it failed (refused, or it may or may not have arrived). */
  | 'failed'
  /** The command did not settle within 30 s. */
  | 'hung'
  /** Start or Stop Tracking settled. */
  | 'done';

export interface UserAction {
  readonly n: number;
  readonly command: 'log' | 'start' | 'stop';
  readonly note?: string;
  readonly atMs: number;
  outcome: Outcome;
  ms: number;
}

export interface UserOptions {
  readonly random: Rng;
  readonly spy: NotificationSpy;
  /** Whether the queue file holds an entry with this note right now. */
  readonly isQueued: (note: string) => Promise<boolean>;
  readonly event: (line: string) => void;
}

export class SoakUser {
  readonly actions: UserAction[] = [];
  private tracking = false;
  private stopped = false;
  private wake: () => void = () => undefined;
  private nudged = false;

  constructor(private readonly options: UserOptions) {}

  /** Acts until `untilMs` or stop(); resolves after the last action has settled. */
  async run(untilMs: number): Promise<void> {
    const { random } = this.options;
    for (let n = 1; !this.over(untilMs); n++) {
      await this.pause(random.between(500, 2_500));
      if (this.over(untilMs)) break;
      if (random.chance(0.12)) await this.act(n, this.tracking ? 'stop' : 'start');
      else await this.act(n, 'log');
    }
  }

  /** The next action comes at once (the app has just gone away, or a fault waits for an entry). */
  nudge(): void {
    this.nudged = true;
    this.wake();
  }

  stop(): void {
    this.stopped = true;
    this.wake();
  }

  private over(untilMs: number): boolean {
    return this.stopped || Date.now() >= untilMs;
  }

  /** Waits `ms`, or less when nudged meanwhile; not at all when nudged during the last action. */
  private async pause(ms: number): Promise<void> {
    if (!this.nudged) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    this.wake = () => undefined;
    this.nudged = false;
  }

  private async act(n: number, command: UserAction['command']): Promise<void> {
    const { random, spy } = this.options;
    const started = Date.now();
    const note = command === 'log' ? `soak-${n}` : undefined;
    const action: UserAction = {
      n,
      command,
      ...(note === undefined ? {} : { note }),
      atMs: started,
      outcome: 'done',
      ms: 0,
    };
    this.actions.push(action);
    const args =
      command === 'log'
        ? { name: random.pick(ACTIVITIES), durationMinutes: random.between(1, 120), note, createIfMissing: true }
        : command === 'start'
          ? { name: TRACKED, createIfMissing: true }
          : undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), HUNG_MS)));
    const result = await spy.during(n, () =>
      Promise.race([
        Promise.resolve(
          vscode.commands.executeCommand(`timeTracker.${command}`, ...(args === undefined ? [] : [args])),
        ),
        hung,
      ]),
    );
    clearTimeout(timer);
    action.ms = Date.now() - started;
    if (result === 'hung') action.outcome = 'hung';
    else if (command === 'log') action.outcome = await this.classify(n, note!, result);
    else if (result !== undefined) this.tracking = command === 'start';
    this.options.event(`user ${command}${note === undefined ? '' : ` ${note}`}: ${action.outcome} (${action.ms} ms)`);
  }

  private async classify(n: number, note: string, result: unknown): Promise<Outcome> {
    if (typeof result === 'object' && result !== null && 'entryID' in result) return 'delivered';
    if (this.options.spy.of(n).some((shown) => QUEUED_MESSAGE.test(shown.message))) return 'queued';
    // The queue may already have sent it; the file is a second witness while it has not.
    return (await this.options.isQueued(note)) ? 'queued' : 'failed';
  }
}
