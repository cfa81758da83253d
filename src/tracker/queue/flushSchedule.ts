/**
 * When an editor window looks at the offline queue's file. Reading it on every poll that reaches
 * the app (a missing file, 360 times an hour at the default interval) would be a sixth of the
 * extension's idle cost (docs/PERFORMANCE.md). The file only gains entries through some window's
 * Log Time while the app could not be reached, so a window looks:
 * - when the app answers again after it did not (offline, refused, no token, not yet polled): the
 *   moment entries queued by any window, this one or another, can go;
 * - on every answer while this window knows of entries that wait (they go as soon as the app
 *   takes them);
 * - otherwise once every QUEUE_LOOK_INTERVAL_MS, for an entry another window queued during a
 *   failure only it saw and then closed before it could send it.
 */

/** The backstop: at most this long before a window sees an entry another, closed window left. */
export const QUEUE_LOOK_INTERVAL_MS = 5 * 60_000;

export class FlushSchedule {
  private answeredBefore = false;
  private lastLookMs: number | undefined;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly intervalMs: number = QUEUE_LOOK_INTERVAL_MS,
  ) {}

  /**
   * Called with every state the poll produces. `answering`: the app takes entries now (it answered
   * and is not a first release without `POST /entries`). `knownWaiting`: entries this window last
   * saw waiting in the file. True when the window should read the file and send what waits.
   */
  shouldLook(answering: boolean, knownWaiting: number): boolean {
    const cameBack = answering && !this.answeredBefore;
    this.answeredBefore = answering;
    if (!answering) return false;
    const now = this.now();
    const due = this.lastLookMs === undefined || now - this.lastLookMs >= this.intervalMs;
    if (!cameBack && knownWaiting === 0 && !due) return false;
    this.lastLookMs = now;
    return true;
  }
}
