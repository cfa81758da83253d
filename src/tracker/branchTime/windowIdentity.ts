/**
 * The id a window's claims of the focus carry in the branch-time ledger (./ledgerOwners.ts): kept
 * in the workspace's storage, so an extension host that restarts under the same window (an
 * extension updated, a crash, a remote reconnect) is the same window and takes its claims over,
 * instead of leaving them to an id nobody holds any more.
 */

/** The part of VS Code's workspace storage (a Memento) this needs. */
export interface IdStorage {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** Longer than any id this writes: anything else in its place is not one of ours. */
const MAX_ID_LENGTH = 100;

/** The id kept under `key`, or a new one from `newId`, kept for the next activation. */
export function ledgerWindowId(storage: IdStorage, key: string, newId: () => string): string {
  const kept = storage.get(key);
  if (typeof kept === 'string' && kept !== '' && kept.length <= MAX_ID_LENGTH) return kept;
  const id = newId();
  // Kept best effort: a failed write costs only the next activation's adoption of this one's claims.
  void Promise.resolve(storage.update(key, id)).catch(() => undefined);
  return id;
}
