/**
 * The arguments Start and Log Time take from a keybinding, a task or another extension
 * (`"args": { "name": "Review", "durationMinutes": "1h30m" }`), read without trusting their shape:
 * the request to send, or one sentence saying what is wrong and which form is expected; no
 * arguments at all mean the user is asked. Pure, so every good and bad form is unit-tested
 * without an editor.
 */
import * as l10n from '@vscode/l10n';
import type { ActivitySelector, EntryRequest } from '../../protocol/types';
import { COMMANDS } from '../ids';
import { parseDuration } from '../duration';

/** The argument forms each command names when its arguments are wrong. */
const START_SHAPE = '{ "name": "…", "createIfMissing": true }';
const LOG_SHAPE = '{ "name": "…", "durationMinutes": 30, "note": "…" }';

/**
 * What a command's arguments say: none (called from the palette or a menu, so the user is asked),
 * the request they give, or the one sentence that refuses them.
 */
export type CommandArguments<T> =
  | { readonly kind: 'none' }
  | { readonly kind: 'given'; readonly request: T }
  | { readonly kind: 'refused'; readonly message: string };

/** Start's and Log Time's one reading of their arguments, with `read` (readStartArguments, readLogArguments). */
export function readCommandArguments<T extends object>(
  args: unknown,
  read: (args: unknown) => T | string,
): CommandArguments<T> {
  if (args === undefined) return { kind: 'none' };
  const request = read(args);
  return typeof request === 'string' ? { kind: 'refused', message: request } : { kind: 'given', request };
}

/** Start's `{ name, createIfMissing }` or `{ activityID }`; a sentence when they are wrong. */
export function readStartArguments(args: unknown): ActivitySelector | string {
  return readSelector(args, COMMANDS.start, START_SHAPE);
}

/**
 * Log Time's `{ name, durationMinutes, note }` (or `activityID`, `createIfMissing`); a sentence when they are wrong.
 */
export function readLogArguments(args: unknown): EntryRequest | string {
  const command = COMMANDS.log;
  const base = readSelector(args, command, LOG_SHAPE);
  if (typeof base === 'string') return base;
  const { durationMinutes, note } = args as Record<string, unknown>;
  let minutes: number;
  if (typeof durationMinutes === 'number') {
    if (!Number.isInteger(durationMinutes)) {
      return l10n.t(
        '{command}: "{field}" must be a whole number of minutes; write other durations as text, such as "1h30m".',
        { command, field: 'durationMinutes' },
      );
    }
    minutes = durationMinutes;
  } else if (typeof durationMinutes === 'string') {
    const parsed = parseDuration(durationMinutes);
    if (!parsed.ok) return `${command}: ${parsed.message}`;
    minutes = parsed.minutes;
  } else return l10n.t('{0} needs "durationMinutes" (a number of minutes, or text such as "1h30m").', command);
  if (note !== undefined && typeof note !== 'string')
    return l10n.t('{command}: "{field}" must be text.', { command, field: 'note' });
  return { ...base, durationMinutes: minutes, ...(note === undefined ? {} : { note }) };
}

function readSelector(args: unknown, command: string, shape: string): ActivitySelector | string {
  if (typeof args !== 'object' || args === null) {
    return l10n.t('{command} takes {shape} or {alternative}.', {
      command,
      shape,
      alternative: '{ "activityID": "…" }',
    });
  }
  const { name, activityID, createIfMissing } = args as Record<string, unknown>;
  if (name !== undefined && typeof name !== 'string')
    return l10n.t('{command}: "{field}" must be text.', { command, field: 'name' });
  if (activityID !== undefined && typeof activityID !== 'string')
    return l10n.t('{command}: "{field}" must be text.', { command, field: 'activityID' });
  if (createIfMissing !== undefined && typeof createIfMissing !== 'boolean') {
    return l10n.t('{command}: "{field}" must be true or false.', { command, field: 'createIfMissing' });
  }
  if ((name === undefined || name.trim() === '') && activityID === undefined) {
    return l10n.t('{0} needs "name" or "activityID".', command);
  }
  return {
    ...(name === undefined ? {} : { name }),
    ...(activityID === undefined ? {} : { activityID }),
    ...(createIfMissing === undefined ? {} : { createIfMissing }),
  };
}
