/** Timers that fire only when a test says so, on a clock the test moves with them: no test waits for real time. */
import type { Timers } from '../../src/platform/timers';

export class ManualTime implements Timers {
  now = 0;
  readonly pending = new Map<number, { callback: () => void; at: number }>();
  private next = 1;

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.set(id, { callback, at: this.now + ms });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }

  /** Runs the earliest timer, moving the clock to it; returns the delay it waited. */
  fire(): number {
    const [id, timer] = [...this.pending].sort((a, b) => a[1].at - b[1].at)[0]!;
    this.pending.delete(id);
    const waited = timer.at - this.now;
    this.now = timer.at;
    timer.callback();
    return waited;
  }

  /** Moves the clock by `ms`, firing what falls due on the way, in order. */
  advance(ms: number): void {
    const until = this.now + ms;
    for (;;) {
      const due = [...this.pending].filter(([, timer]) => timer.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.pending.delete(due[0]);
      this.now = due[1].at;
      due[1].callback();
    }
    this.now = until;
  }
}
