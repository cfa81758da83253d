/**
 * What every window of this machine shares about openings (src/tracker/links/linkOpening.ts
 * decides): that the user stopped tracking on purpose (globalState, with the time; forgotten once
 * an answer says the app tracks again), and which window's opening acts when several open together
 * on one activity (a record in the extension's global storage, read and written under the
 * platform's short lock, so that two windows never both win).
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type * as vscode from 'vscode';
import { errnoCode, errorMessage } from '../../platform/errors';
import { platformStoreFiles, type StoreFiles } from '../../platform/storeFiles';
import { STORAGE_KEYS } from '../../tracker/ids';
import { claimOpening, readStopped, startedSince, stopHolding } from '../../tracker/links/linkOpening';
import type { TrackerState } from '../../tracker/model/trackerState';

export interface OpeningGuardParts {
  /** Shared by the windows of this machine. */
  readonly globalState: vscode.Memento;
  /** The extension's global storage folder: where the claim is kept. */
  readonly storageFolder: string;
  /** The session's state changes (vscode.Event, narrowed to what is used: a test passes a plain function). */
  readonly onDidChangeState: (listener: (state: TrackerState) => void) => { dispose(): void };
  readonly log: vscode.LogOutputChannel;
  readonly clock: () => number;
  /** The file operations; the platform's unless a test makes one fail. */
  readonly files?: StoreFiles;
}

/** Whether this window acts on its opening. */
export type OpeningClaimResult = { readonly kind: 'won' } | { readonly kind: 'taken'; readonly claimedAtMs: number } | { readonly kind: 'failed'; readonly message: string };

/** The claims of the last minute are a few dozen bytes each; anything larger is not ours. */
const CLAIM_MAX_BYTES = 16_384;
/** Windows restored together wait for each other only a moment. */
const CLAIM_LOCK = { timeoutMs: 3_000, staleMs: 10_000 } as const;

export class OpeningGuard implements vscode.Disposable {
  private readonly subscription: { dispose(): void };
  private readonly files: StoreFiles;

  constructor(private readonly parts: OpeningGuardParts) {
    this.files = parts.files ?? platformStoreFiles;
    this.subscription = parts.onDidChangeState((state) => this.seen(state));
  }

  /** The user stopped tracking on purpose: no window's opening starts anything today until they start again. */
  userStopped(): void {
    this.store({ atMs: this.parts.clock() });
  }

  /** When the user stopped, while that holds an opening back; undefined when it does not. */
  stoppedAt(): number | undefined {
    return stopHolding(readStopped(this.parts.globalState.get(STORAGE_KEYS.stoppedOnPurpose)), this.parts.clock());
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
      return JSON.parse(await this.files.readText(path, { maxBytes: CLAIM_MAX_BYTES, noFollow: true })) as unknown;
    } catch (error) {
      // None yet, or unreadable: no window claimed an opening that this one can tell of.
      if (errnoCode(error) !== 'ENOENT') this.parts.log.debug(`The last opening's claim could not be read (${errorMessage(error)}); taken as none.`);
      return undefined;
    }
  }

  private seen(state: TrackerState): void {
    if (!startedSince(readStopped(this.parts.globalState.get(STORAGE_KEYS.stoppedOnPurpose)), state)) return;
    this.parts.log.info('The app tracks again: window openings may start linked activities again.');
    this.store(undefined);
  }

  private store(record: { readonly atMs: number } | undefined): void {
    void Promise.resolve(this.parts.globalState.update(STORAGE_KEYS.stoppedOnPurpose, record)).catch((error: unknown) =>
      this.parts.log.warn(`Keeping for the other windows that tracking was stopped failed: ${errorMessage(error)}`),
    );
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
