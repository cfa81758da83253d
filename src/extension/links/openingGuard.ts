/**
 * What every window of this machine shares about openings (src/tracker/links/linkOpening.ts
 * decides), in the extension's global storage folder: that the user stopped tracking on purpose
 * (the time, written and synced before Stop says it is done, forgotten once an answer says the app
 * tracks again), and which window's opening acts when several open together on one activity (read
 * and written under the platform's short lock, so that two windows never both win). Files, not
 * globalState: a web window that reloads right after Stop loses a globalState write still on its
 * way to the browser's storage, and a file is read afresh by every window that opens.
 */
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { errnoCode, errorMessage } from '../../platform/errors';
import { platformStoreFiles, type StoreFiles } from '../../platform/storeFiles';
import { claimOpening, readStopped, startedSince, stopHolding } from '../../tracker/links/linkOpening';
import type { TrackerState } from '../../tracker/model/trackerState';
import type { Log } from '../oneLineLog';

export interface OpeningGuardParts {
  /**
   * The extension's global storage folder, shared by the windows of this machine: where the stop and the claims are
   * kept.
   */
  readonly storageFolder: string;
  /** The session's state changes (vscode.Event, narrowed to what is used: a test passes a plain function). */
  readonly onDidChangeState: (listener: (state: TrackerState) => void) => { dispose(): void };
  readonly log: Log;
  readonly clock: () => number;
  /** The file operations; the platform's unless a test makes one fail. */
  readonly files?: StoreFiles;
}

/** Whether this window acts on its opening. */
export type OpeningClaimResult =
  | { readonly kind: 'won' }
  | { readonly kind: 'taken'; readonly claimedAtMs: number }
  | { readonly kind: 'failed'; readonly message: string };

/** The claims of the last minute are a few dozen bytes each, the stop fewer; anything larger is not ours. */
const RECORD_MAX_BYTES = 16_384;
/** Windows restored together wait for each other only a moment. */
const CLAIM_LOCK = { timeoutMs: 3_000, staleMs: 10_000 } as const;

export class OpeningGuard implements vscode.Disposable {
  private readonly subscription: { dispose(): void };
  private readonly files: StoreFiles;
  private readonly stopPath: string;
  /** What ran at the last state seen: a start is a change to something running. */
  private lastRunning: string | undefined;

  constructor(private readonly parts: OpeningGuardParts) {
    this.files = parts.files ?? platformStoreFiles;
    this.stopPath = join(parts.storageFolder, 'stoppedOnPurpose.json');
    this.subscription = parts.onDidChangeState((state) => void this.stateSeen(state));
  }

  /** The user stopped tracking on purpose: no window's opening starts anything for hours, or until they start again. */
  async userStopped(): Promise<void> {
    try {
      await mkdir(this.parts.storageFolder, { recursive: true });
      await this.files.writeAtomic(this.stopPath, `${JSON.stringify({ atMs: this.parts.clock() })}\n`);
    } catch (error) {
      this.parts.log.warn(
        'Keeping for the other windows that tracking was stopped failed, ' +
          `so a window that opens may start a linked activity: ${errorMessage(error)}`,
      );
    }
  }

  /** When the user stopped, while that holds an opening back; undefined when it does not. */
  async stoppedAt(): Promise<number | undefined> {
    return stopHolding(readStopped(await this.stored(this.stopPath)), this.parts.clock());
  }

  /**
   * A state from the session: when something starts running (in this window's eyes), the stop is
   * read and forgotten if the answer came well after it. Only on a start, so that polls read nothing.
   */
  async stateSeen(state: TrackerState): Promise<void> {
    const running = state.kind === 'tracking' ? state.activity.activityID.toLowerCase() : undefined;
    const started = running !== undefined && running !== this.lastRunning;
    this.lastRunning = running;
    if (!started || !startedSince(readStopped(await this.stored(this.stopPath)), state)) return;
    this.parts.log.info('The app tracks again: window openings may start linked activities again.');
    await rm(this.stopPath, { force: true }).catch((error: unknown) =>
      this.parts.log.warn(`Forgetting that tracking was stopped failed: ${errorMessage(error)}`),
    );
  }

  /** Claims this opening for this window, unless another window claimed one just now. */
  async claim(activity: string): Promise<OpeningClaimResult> {
    const { storageFolder } = this.parts;
    const path = join(storageFolder, 'linkOpening.json');
    try {
      await mkdir(storageFolder, { recursive: true });
      return await this.files.withLock(
        `${path}.lock`,
        async () => {
          const decided = claimOpening(await this.stored(path), activity, this.parts.clock());
          if (!decided.won) return { kind: 'taken', claimedAtMs: decided.claimedAtMs };
          await this.files.writeAtomic(path, `${JSON.stringify(decided.claims)}\n`);
          return { kind: 'won' };
        },
        CLAIM_LOCK,
      );
    } catch (error) {
      return { kind: 'failed', message: errorMessage(error) };
    }
  }

  private async stored(path: string): Promise<unknown> {
    try {
      return JSON.parse(await this.files.readText(path, { maxBytes: RECORD_MAX_BYTES, noFollow: true })) as unknown;
    } catch (error) {
      // None yet, or unreadable: nothing another window left that this one can tell of.
      if (errnoCode(error) !== 'ENOENT')
        this.parts.log.debug(`${path} could not be read (${errorMessage(error)}); taken as none.`);
      return undefined;
    }
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
