/**
 * Durations as people type them when logging time: `90`, `90m`, `1h30m`, `1.5h`, `1:30`, in
 * whole minutes (`1.33h` is 80).
 * Pure, so the input box's inline validation and the argument form of the command agree.
 */
import * as l10n from '@vscode/l10n';
import { MAX_DURATION_MINUTES } from '../protocol/constants';

export type DurationParse = { ok: true; minutes: number } | { ok: false; message: string };

const NUMBER = String.raw`(\d+(?:[.,]\d+)?)`;
const FORMS: readonly [RegExp, (match: RegExpExecArray) => number][] = [
  [new RegExp(`^${NUMBER}$`), (m) => decimal(m[1])],
  [new RegExp(`^${NUMBER}\\s*(?:m|min|mins|minutes?)$`, 'i'), (m) => decimal(m[1])],
  [new RegExp(`^${NUMBER}\\s*(?:h|hr|hrs|hours?)$`, 'i'), (m) => decimal(m[1]) * 60],
  [/^(\d+)\s*h\s*(\d+)\s*(?:m|min|mins|minutes?)?$/i, (m) => Number(m[1]) * 60 + Number(m[2])],
  [/^(\d+):([0-5]\d)$/, (m) => Number(m[1]) * 60 + Number(m[2])],
];

/**
 * The forms the parser reads, as examples for messages. The unit letters stay `h` and `m` in
 * every language: they are what the parser accepts, and `formatMinutes` writes them back alike.
 */
export const durationExamples = (): string => l10n.t('90, 90m, 1h30m, 1.5h or 1:30');

export function parseDuration(input: string): DurationParse {
  const text = input.trim();
  // Said while the box is empty and refused on Enter: the step stays open and says what it wants.
  if (text === '') return { ok: false, message: l10n.t('Type how long, for example 30m or 1h30m.') };
  for (const [pattern, toMinutes] of FORMS) {
    const match = pattern.exec(text);
    if (!match) continue;
    // The app takes whole minutes only (both SDKs refuse anything else): the nearest one, shown before sending.
    const minutes = Math.round(toMinutes(match));
    // "0.4" is more than 0 as typed but rounds to nothing: the least that is taken is one minute.
    if (!(minutes > 0)) return { ok: false, message: l10n.t('The duration must be at least 1 minute.') };
    if (minutes > MAX_DURATION_MINUTES)
      return {
        ok: false,
        message: l10n.t('The duration must be at most 24 hours ({0} minutes).', MAX_DURATION_MINUTES),
      };
    return { ok: true, minutes };
  }
  return {
    ok: false,
    message: l10n.t('"{text}" is not a duration; write it as {examples}.', { text, examples: durationExamples() }),
  };
}

/** `1h 30m`, `45m`, `2h`: how the extension shows a number of minutes back to the user, in every language. */
export function formatMinutes(minutes: number): string {
  const whole = Math.round(minutes);
  const hours = Math.floor(whole / 60);
  const rest = whole % 60;
  if (hours === 0) return `${rest}m`;
  return rest === 0 ? `${hours}h` : `${hours}h ${rest}m`;
}

function decimal(text: string | undefined): number {
  return Number((text ?? '').replace(',', '.'));
}

/**
 * A moment as the tooltip and the menu say since when something runs: `08:03` on the same day as `nowMs`,
 * `2026-12-03 08:03` before it, in this machine's time zone, on a 24-hour clock.
 */
export function clockTime(ms: number, nowMs: number): string {
  const at = new Date(ms);
  const two = (n: number): string => String(n).padStart(2, '0');
  const time = `${two(at.getHours())}:${two(at.getMinutes())}`;
  return at.toDateString() === new Date(nowMs).toDateString()
    ? time
    : `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())} ${time}`;
}
