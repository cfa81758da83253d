/**
 * Whole minutes a reader can check by eye: every row of Time by Branch and of Copy Summary is its
 * own time to the nearest minute (20 s is `< 1m`, 2m 26s is `2m`), not a share of a total rounded
 * above it, which showed 20 s as 1m beside 28 s as `< 1m`. Rows rounded alone may add up to other
 * minutes than their total's own; there the row's own time wins, and the total keeps its own
 * minutes and says that it is rounded (`≈`). Pure.
 */

/** A time in milliseconds to the nearest whole minute (half a minute up). */
export function roundedMinutes(ms: number): number {
  return Math.round(ms / 60_000);
}

/** A total's minutes, and whether the minutes shown for its parts add up to other minutes than its own. */
export interface TotalMinutes {
  readonly minutes: number;
  readonly approximate?: true;
}

/** A total of `ms` over parts shown as `partsMinutes`: its own nearest minute, marked where they add up to others. */
export function totalMinutes(ms: number, partsMinutes: readonly number[]): TotalMinutes {
  const minutes = roundedMinutes(ms);
  const sum = partsMinutes.reduce((acc, part) => acc + part, 0);
  return sum === minutes ? { minutes } : { minutes, approximate: true };
}
