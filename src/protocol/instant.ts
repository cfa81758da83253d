/**
 * Instants on the wire (PROTOCOL.md §4): ISO-8601 UTC in whole seconds with a `Z`,
 * `2026-05-26T14:30:00Z`, as the application writes them. `Date#toISOString` adds milliseconds
 * the app never sends, so the server formats through this one function.
 */

/** The instant `epochMs` falls in, rounded down to its whole second. */
export function formatInstant(epochMs: number): string {
  return `${new Date(Math.floor(epochMs / 1000) * 1000).toISOString().slice(0, 19)}Z`;
}
