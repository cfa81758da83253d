/**
 * What Log Time's note step says under what is typed. The box's prompt ("Press Enter to log without
 * a note") is true only while it is empty: once a note is typed, Enter logs it, and that is said
 * instead; past the app's limit the step says so while it is typed, counted as the app counts (in
 * characters, once trimmed, as the note is sent), in the words the pickers use for a name.
 */
import * as l10n from '@vscode/l10n';
import { NOTE_MAX_LENGTH } from '../../protocol/constants';

/** The line under the note; undefined: none (the prompt stands). `refused`: Enter is refused. */
export interface NoteStepLine {
  readonly message: string;
  readonly refused: boolean;
}

export function noteStepLine(value: string): NoteStepLine | undefined {
  const typed = Array.from(value.trim()).length;
  if (typed === 0) return undefined;
  if (typed > NOTE_MAX_LENGTH)
    return {
      message: l10n.t('At most {max} characters: {typed} typed', { max: NOTE_MAX_LENGTH, typed }),
      refused: true,
    };
  return { message: l10n.t('Press Enter to log with this note'), refused: false };
}
