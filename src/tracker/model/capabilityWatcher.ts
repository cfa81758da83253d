/**
 * Follows the capability file of the app's VS Code integration: it appears when the user turns
 * the integration on, changes when the app restarts (new pid, socket, maybe token), disappears
 * when the app quits, and goes stale when the app crashes, which no file event reports. So the
 * file is read again every few seconds (a failed open of a missing file costs microseconds), and
 * at once when the socket stops answering. Timers are injected: tests drive it without waiting.
 */
import type { CapabilityReading } from '../../client/capabilityFile';
import { realTimers, type Timers } from './poller';

export const CAPABILITY_CHECK_INTERVAL_MS = 2_000;

export interface CapabilityWatcherOptions {
  /** Reads the file (or searches the default places); never rejects. */
  readonly read: () => Promise<CapabilityReading>;
  /** Called when what is read differs from the last reading (and for the first one). */
  readonly onChange: (reading: CapabilityReading) => void;
  readonly intervalMs?: number;
  readonly timers?: Timers;
}

export class CapabilityWatcher {
  private last: CapabilityReading | undefined;
  private checking: Promise<CapabilityReading> | undefined;
  private again = false;
  private timer: unknown;
  private disposed = false;
  private readonly timers: Timers;

  constructor(private readonly options: CapabilityWatcherOptions) {
    this.timers = options.timers ?? realTimers;
  }

  /** The latest reading; the first call reads the file. */
  current(): Promise<CapabilityReading> {
    return this.last ? Promise.resolve(this.last) : this.check();
  }

  /**
   * Reads the file now and reports a change. Checks never overlap: one asked for during a check
   * runs right after it, so a change made meanwhile is not missed.
   */
  check(): Promise<CapabilityReading> {
    if (this.checking) {
      this.again = true;
      return this.checking;
    }
    this.cancelTimer();
    this.checking = this.run().finally(() => {
      this.checking = undefined;
      this.schedule();
    });
    return this.checking;
  }

  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
  }

  private async run(): Promise<CapabilityReading> {
    let reading: CapabilityReading;
    do {
      this.again = false;
      reading = await this.options.read();
      if (this.disposed) return reading;
      if (!this.last || !sameReading(this.last, reading)) {
        this.last = reading;
        this.options.onChange(reading);
      }
    } while (this.askedAgain());
    return reading;
  }

  /** A check was asked for while this one read the file. */
  private askedAgain(): boolean {
    return this.again && !this.disposed;
  }

  private schedule(): void {
    if (this.disposed) return;
    this.cancelTimer();
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      void this.check();
    }, this.options.intervalMs ?? CAPABILITY_CHECK_INTERVAL_MS);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.timers.clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** Same kind, file and content: nothing for the extension to do. */
export function sameReading(a: CapabilityReading, b: CapabilityReading): boolean {
  if (a.kind !== b.kind || a.path !== b.path) return false;
  if ((a.kind === 'ready' || a.kind === 'stale') && (b.kind === 'ready' || b.kind === 'stale')) {
    const [x, y] = [a.capability, b.capability];
    return x.socketPath === y.socketPath && x.token === y.token && x.pid === y.pid;
  }
  if ('message' in a && 'message' in b) return a.message === b.message;
  return true;
}
