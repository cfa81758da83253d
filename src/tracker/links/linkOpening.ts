/**
 * What keeps a window's opening from starting what the user did not ask for. Windows open by
 * themselves (Reload Window, an update, the system restoring them at login), so an opening link
 * starts nothing after the user stopped tracking on purpose, until the user starts something again
 * (remembered for every window of this machine, for STOP_HOLD_MS after the stop), and of
 * several windows opening together on one activity only the first to claim it acts. Pure: the records
 * as stored in, the decisions out; the storage is the extension's (files of its global storage).
 */
import * as l10n from '@vscode/l10n';
import { COMMANDS } from '../ids';
import type { TrackerState } from '../model/trackerState';
import { SETTING_BOUNDS } from '../settings/settingBounds';
import { FRESH_ANSWER_MAX_MS, notStartedNotice, type StatusNotice } from './linkNotice';
import type { LinkDecision } from './links';

/**
 * How old an answer a link acts on may be: one poll interval, so that a window polling at its pace
 * has a fresh one, and never more than FRESH_ANSWER_MAX_MS (a slow pace asks the app once more).
 */
export function maxAnswerAgeMs(pollIntervalSeconds: number): number {
  const { min } = SETTING_BOUNDS.pollIntervalSeconds;
  const seconds = Number.isFinite(pollIntervalSeconds) ? Math.max(min, pollIntervalSeconds) : min;
  return Math.min(seconds * 1000, FRESH_ANSWER_MAX_MS);
}

/** The user stopped tracking on purpose (Stop, or Undo of a linked start), as the shared file keeps it. */
export interface StoppedOnPurpose {
  readonly atMs: number;
}

/** The stored record, if it is one; anything else (another version's shape, a hand edit) is none. */
export function readStopped(value: unknown): StoppedOnPurpose | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const atMs = (value as { atMs?: unknown }).atMs;
  return typeof atMs === 'number' && Number.isFinite(atMs) && atMs > 0 ? { atMs } : undefined;
}

/**
 * How long a stop on purpose holds openings back when nothing is started: a night. Not "until midnight": a stop at
 * 23:50 is still meant at 00:10, and a window restored at login the next morning starts nothing of its own.
 */
export const STOP_HOLD_MS = 12 * 3_600_000;

/**
 * When the stop still holds a window's opening back (its time), else undefined: for STOP_HOLD_MS after it; a record
 * from the future (a clock set back) holds nothing.
 */
export function stopHolding(record: StoppedOnPurpose | undefined, nowMs: number): number | undefined {
  if (record === undefined) return undefined;
  return nowMs >= record.atMs && nowMs < record.atMs + STOP_HOLD_MS ? record.atMs : undefined;
}

/**
 * How long after a stop an answer saying the app tracks is taken as older than the stop: a poll on
 * the wire while Stop went out answers after it, with what ran before.
 */
export const STOP_SETTLE_MS = 3_000;

/**
 * An answer that says the app tracks, received well after the stop: the user started again, and the stop is forgotten.
 */
export function startedSince(record: StoppedOnPurpose | undefined, state: TrackerState): boolean {
  return record !== undefined && state.kind === 'tracking' && state.observedAtMs > record.atMs + STOP_SETTLE_MS;
}

/**
 * The opening's notice: the link did not start because the user stopped on purpose. Private: no
 * name and no time.
 */
export function stoppedNotice(
  decision: LinkDecision,
  stoppedAtMs: number,
  isPrivate: boolean,
  locale?: string,
): StatusNotice {
  const again = l10n.t('and opening a window does not start it again. Start it from the menu when you want to.');
  if (isPrivate) {
    const sentence = [l10n.t('The activity linked here was not started: you stopped tracking earlier,'), again];
    return notStartedNotice(undefined, sentence.join(' '), COMMANDS.showMenu);
  }
  const time = new Date(stoppedAtMs).toLocaleTimeString(locale, { hour: '2-digit', minute: '2-digit' });
  const sentence = [
    l10n.t('{activity} is linked here but was not started: you stopped tracking at {time},', {
      activity: decision.activity,
      time,
    }),
    again,
  ];
  return notStartedNotice(decision.activity, sentence.join(' '), COMMANDS.showMenu);
}

/**
 * How long one window's opening start of an activity keeps the others' back: windows restored
 * together open within seconds of each other, each before it could see what the first one started.
 */
export const OPENING_CLAIM_MS = 60_000;
/** The most activities the shared record keeps (the claims of the last minute, in practice a few). */
const KEPT_CLAIMS = 50;

/** The openings windows claimed: when, by activity (lower case). */
export type OpeningClaims = Readonly<Record<string, number>>;

/**
 * Whether this window may act on its opening: no window claimed an opening of the same activity in
 * the last OPENING_CLAIM_MS. The record to write when it may (this claim added, old ones dropped),
 * when the other claim was made when it may not. `stored` is the file's parsed text, or undefined
 * where there is none.
 */
export function claimOpening(
  stored: unknown,
  activity: string,
  nowMs: number,
): { readonly won: true; readonly claims: OpeningClaims } | { readonly won: false; readonly claimedAtMs: number } {
  const key = activity.trim().toLocaleLowerCase();
  const recent = Object.entries(readClaims(stored)).filter(([, atMs]) => Math.abs(nowMs - atMs) < OPENING_CLAIM_MS);
  const previous = recent.find(([claimed]) => claimed === key);
  if (previous !== undefined) return { won: false, claimedAtMs: previous[1] };
  return {
    won: true,
    claims: Object.fromEntries([
      ...recent.filter(([claimed]) => claimed !== key).slice(-(KEPT_CLAIMS - 1)),
      [key, nowMs],
    ]),
  };
}

function readClaims(value: unknown): OpeningClaims {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).filter(
      (entry): entry is [string, number] => typeof entry[1] === 'number' && Number.isFinite(entry[1]),
    ),
  );
}
