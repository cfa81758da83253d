/**
 * The bounds of the numeric settings, applied where a value is read: VS Code only marks a value
 * out of package.json's `minimum`/`maximum` in the settings editor, neither enforces it nor tells
 * an extension the schema's bounds, so they are repeated here (a unit test holds them equal to
 * package.json's). A value beyond a bound is held at it, never passed on: a poll interval of 1e7 s
 * would reach a timer, a keepDays of 0 would empty the ledger every window shares.
 */

export interface Bounds {
  readonly min: number;
  readonly max: number;
  /** The schema says `integer`: a fraction is cut to the whole number below. */
  readonly integer: boolean;
}

/**
 * Keyed by the setting's name after `timeTracker.`; the port is refused out of range instead (another port is another
 * app).
 */
export const SETTING_BOUNDS = {
  pollIntervalSeconds: { min: 2, max: 3600, integer: false },
  'statusBar.maxNameLength': { min: 10, max: 200, integer: true },
  'statusBar.priority': { min: -100_000, max: 100_000, integer: false },
  'statusBar.longSessionHours': { min: 1, max: 24, integer: false },
  'branchTime.keepDays': { min: 1, max: 3660, integer: true },
  'branchTime.roundTo': { min: 1, max: 30, integer: true },
} as const satisfies Record<string, Bounds>;

/** The minutes `branchTime.roundTo` takes (package.json's enum): 1 keeps each ticket and day to the nearest minute. */
export const ROUND_TO_MINUTES = [1, 5, 6, 10, 15, 30] as const;
export type RoundTo = (typeof ROUND_TO_MINUTES)[number];

/** One of the minutes roundTo takes; undefined for anything else, 7 included (the caller uses the default). */
export function roundToOf(value: unknown): RoundTo | undefined {
  return ROUND_TO_MINUTES.find((minutes) => minutes === value);
}

/** A number held inside `bounds`; undefined for what is no number at all (the caller uses the default). */
export function boundedNumber(value: unknown, bounds: Bounds): number | undefined {
  if (typeof value !== 'number' || Number.isNaN(value)) return undefined;
  const whole = bounds.integer ? Math.floor(value) : value;
  return Math.min(bounds.max, Math.max(bounds.min, whole));
}
