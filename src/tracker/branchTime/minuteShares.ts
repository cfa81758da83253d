/**
 * Whole minutes that add up: a timesheet's lines must sum to its total, so a total is rounded once
 * and its minutes are shared among the parts by the largest remainder (Hamilton's method), instead
 * of rounding or flooring each part on its own (four parts of 40 s floored are 0m each under a
 * total of 2m). Pure.
 */

/**
 * `total` minutes shared among parts in proportion to their milliseconds: each part gets the whole
 * minutes of its share, and the minutes left over go one each to the parts with the largest
 * fractions (the earlier part first on a tie, so the result does not depend on sort stability).
 */
export function shareMinutes(total: number, partsMs: readonly number[]): number[] {
  const sum = partsMs.reduce((acc, ms) => acc + ms, 0);
  if (sum <= 0 || total <= 0) return partsMs.map(() => 0);
  const quotas = partsMs.map((ms) => (ms / sum) * total);
  const shares = quotas.map(Math.floor);
  const left = total - shares.reduce((acc, minutes) => acc + minutes, 0);
  const byFraction = quotas
    .map((quota, index) => ({ index, fraction: quota - Math.floor(quota) }))
    .sort((a, b) => b.fraction - a.fraction || a.index - b.index);
  for (const { index } of byFraction.slice(0, left)) shares[index] = (shares[index] ?? 0) + 1;
  return shares;
}

/** A total of milliseconds to the nearest whole minute (half a minute up). */
export function roundedMinutes(ms: number): number {
  return Math.round(ms / 60_000);
}
