/**
 * Who a claim of the focus names (./ledgerBook.ts): a window's ledger id.
 */

/** A window as its claims name it. */
export interface Claimant {
  readonly window: string;
}

export interface FocusOwner extends Claimant {
  readonly sinceMs: number;
}

export function claimantOf(window: string | Claimant): Claimant {
  return typeof window === 'string' ? { window } : window;
}

export function ownerEntry(claimant: Claimant, sinceMs: number): FocusOwner {
  return { window: claimant.window, sinceMs };
}

/** The same window. */
export function sameClaimant(a: Claimant, b: Claimant): boolean {
  return a.window === b.window;
}

/** The stretches [from, to) in which `claimant` owned the time. */
export function ownedStretches(owners: readonly FocusOwner[], claimant: Claimant): [number, number][] {
  const stretches: [number, number][] = [];
  owners.forEach((owner, index) => {
    if (owner.window === claimant.window) stretches.push([owner.sinceMs, owners[index + 1]?.sinceMs ?? Number.POSITIVE_INFINITY]);
  });
  return stretches;
}

/** An owner as the file holds it, or undefined for another shape. */
export function ownerOf(value: unknown): FocusOwner | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { window, sinceMs } = value as Record<string, unknown>;
  if (typeof window !== 'string' || typeof sinceMs !== 'number' || !Number.isFinite(sinceMs)) return undefined;
  return ownerEntry({ window }, sinceMs);
}
