/** Waiting on the extension from inside the extension host: on its events, never on blind sleeps. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { TrackerState } from '../../../src/tracker/model/trackerState';

/**
 * Resolves with the first value of `current()` or of `event` that satisfies `predicate`. After
 * subscribing it calls `nudge`, if given, for a value that would otherwise wait for a timer.
 */
export function untilEvent<T>(
  event: vscode.Event<T>,
  current: () => T,
  predicate: (value: T) => boolean,
  timedOut: () => string,
  timeoutMs: number,
  nudge?: () => unknown,
): Promise<T> {
  const now = current();
  if (predicate(now)) return Promise.resolve(now);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      subscription.dispose();
      reject(new Error(timedOut()));
    }, timeoutMs);
    const subscription = event((value) => {
      if (!predicate(value)) return;
      clearTimeout(timer);
      subscription.dispose();
      resolve(value);
    });
    nudge?.();
  });
}

/** Resolves once the state satisfies `predicate`, asking the app once at the start. */
export function until(
  api: TimeTrackerApi,
  predicate: (state: TrackerState) => boolean,
  what: string,
  timeoutMs = 10_000,
): Promise<TrackerState> {
  return withLogOnTimeout(
    api,
    untilEvent(
      api.onDidChangeState,
      () => api.details,
      predicate,
      () => `Timed out waiting for ${what}; the status bar shows ${api.state}: ${api.text}`,
      timeoutMs,
      () => void api.refresh(),
    ),
  );
}

export const kind =
  (expected: TrackerState['kind']) =>
  (state: TrackerState): boolean =>
    state.kind === expected;

/** Resolves once the offline queue holds `count` entries (read back from disk, or sent). */
export async function untilQueued(api: TimeTrackerApi, count: number, what: string, timeoutMs: number): Promise<void> {
  await withLogOnTimeout(
    api,
    untilEvent(
      api.onDidChangeQueuedEntries,
      () => api.queuedEntries,
      (now) => now === count,
      () =>
        `Timed out after ${timeoutMs / 1000} s waiting for ${what}: ${api.queuedEntries} queued; the status bar shows ${api.text}`,
      timeoutMs,
    ),
  );
}

/**
 * A wait that timed out says what the extension logged last: a failure seen once under load is
 * then explained by its own run, not guessed at from the state alone.
 */
async function withLogOnTimeout<T>(api: TimeTrackerApi, waiting: Promise<T>): Promise<T> {
  try {
    return await waiting;
  } catch (error) {
    const tail = await logTail(api, 25).catch(
      (readError: unknown) => `(the log could not be read: ${String(readError)})`,
    );
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\nThe extension's log ends with:\n${tail}`,
    );
  }
}

/** The last `lines` lines of the extension's log files. */
async function logTail(api: TimeTrackerApi, lines: number): Promise<string> {
  const folder = api.logUri.fsPath;
  const files = (await readdir(folder, { recursive: true })).filter((name) => name.endsWith('.log'));
  const texts = await Promise.all(files.map((name) => readFile(join(folder, name), 'utf8')));
  return texts.join('\n').trimEnd().split('\n').slice(-lines).join('\n');
}

/** Resolves at the next state the extension shows, or after `ms` when none comes (a poll that should not happen). */
export function nextStateOr(api: TimeTrackerApi, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      subscription.dispose();
      resolve();
    };
    const timer = setTimeout(done, ms);
    const subscription = api.onDidChangeState(done);
  });
}

/**
 * Whether today's time by branch holds some, asking the app again up to ten times while it tracks: the span between
 * two of its answers is this branch's time.
 */
export async function ledgerHasTimeToday(api: TimeTrackerApi): Promise<boolean> {
  let today = await api.branchTimeSummary('today');
  for (let answers = 0; answers < 10 && today.repositories.length === 0; answers++) {
    await api.refresh();
    today = await api.branchTimeSummary('today');
  }
  return today.repositories.length > 0;
}
