/**
 * What the soak watches in the extension host process itself: unhandled rejections and uncaught
 * exceptions (as the host counts them: a rejection handled later is forgiven), heap and active
 * resources (process.getActiveResourcesInfo: sockets, timers, file requests…).
 */
export interface Sample {
  readonly atMs: number;
  readonly heapUsedMB: number;
  readonly rssMB: number;
  readonly handles: number;
  readonly byType: Readonly<Record<string, number>>;
}

export interface ProcessProblem {
  readonly kind: 'unhandledRejection' | 'uncaughtException';
  readonly text: string;
  /** Its stack names a file of this repository (the extension's bundle, out/src, out/test). */
  readonly ours: boolean;
}

const MB = 1024 * 1024;

export function sample(): Sample {
  const { heapUsed, rss } = process.memoryUsage();
  const byType: Record<string, number> = {};
  for (const type of process.getActiveResourcesInfo()) byType[type] = (byType[type] ?? 0) + 1;
  return {
    atMs: Date.now(),
    heapUsedMB: Math.round((heapUsed / MB) * 10) / 10,
    rssMB: Math.round((rss / MB) * 10) / 10,
    handles: Object.values(byType).reduce((sum, count) => sum + count, 0),
    byType,
  };
}

export class ProcessWatch {
  private readonly pending = new Map<Promise<unknown>, ProcessProblem>();
  private readonly thrown: ProcessProblem[] = [];
  private readonly onRejection = (reason: unknown, promise: Promise<unknown>): void =>
    void this.pending.set(promise, this.problem('unhandledRejection', reason));
  private readonly onHandled = (promise: Promise<unknown>): void => void this.pending.delete(promise);
  private readonly onException = (error: unknown): void =>
    void this.thrown.push(this.problem('uncaughtException', error));

  constructor(private readonly repoRoot: string) {
    process.on('unhandledRejection', this.onRejection);
    process.on('rejectionHandled', this.onHandled);
    process.on('uncaughtException', this.onException);
  }

  /** Everything seen so far; rejections only while they are still unhandled. */
  problems(): ProcessProblem[] {
    return [...this.pending.values(), ...this.thrown];
  }

  dispose(): void {
    process.off('unhandledRejection', this.onRejection);
    process.off('rejectionHandled', this.onHandled);
    process.off('uncaughtException', this.onException);
  }

  private problem(kind: ProcessProblem['kind'], reason: unknown): ProcessProblem {
    const text = reason instanceof Error ? (reason.stack ?? `${reason.name}: ${reason.message}`) : String(reason);
    // Without a stack there is no telling whose it is: counted as ours, to be safe.
    const ours = !(reason instanceof Error && reason.stack !== undefined) || text.includes(this.repoRoot);
    return { kind, text: text.split('\n').slice(0, 8).join('\n'), ours };
  }
}
