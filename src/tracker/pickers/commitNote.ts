/**
 * The note Log Time offers from the commits made on the current branch in the span being logged: their subjects,
 * oldest first, each cut and cleaned as a name is (a subject is a repository's text: a line break in it must not make
 * a second line, a bidi control must not reorder it), joined into one line the app's note limit holds. Pure: commits
 * in, the note out; where they come from (the Git extension, or one bounded `git log`) is the adapter's.
 */
import { displayText, firstCharacters } from '../../platform/outsideText';
import { NOTE_MAX_LENGTH } from '../../protocol/constants';

/** The most commits read and offered: a span of work has a handful; a rebase's hundreds are not a note. */
export const MAX_COMMITS = 30;
/** The longest subject offered; git's own advice is 50 characters, and a subject is not the body. */
export const MAX_SUBJECT_LENGTH = 120;

export interface Commit {
  /** When it was committed, epoch ms. */
  readonly committedMs: number;
  /** The whole message or only its subject: the first line is taken. */
  readonly message: string;
}

/**
 * The subjects of the commits (newest first, as git lists them) in `[sinceMs, untilMs]` (a clock that jumped may put
 * a commit a little in the future: a minute's slack), oldest first, at most MAX_COMMITS (the newest), with none empty
 * and none repeated.
 */
export function commitSubjects(commits: readonly Commit[], sinceMs: number, untilMs: number): string[] {
  // Newest first in, as git lists them: two commits of one second keep git's order, reversed.
  const inSpan = commits
    .filter((commit) => commit.committedMs >= sinceMs && commit.committedMs <= untilMs + 60_000)
    .reverse()
    .sort((a, b) => a.committedMs - b.committedMs)
    .slice(-MAX_COMMITS);
  const subjects: string[] = [];
  for (const commit of inSpan) {
    // Only the start of a message is looked at: a message of megabytes costs no more than its subject.
    const subject = displayText(
      firstCharacters(commit.message, 4 * MAX_SUBJECT_LENGTH).split(/\r?\n/)[0] ?? '',
      MAX_SUBJECT_LENGTH,
    ).trim();
    if (subject !== '' && !subjects.includes(subject)) subjects.push(subject);
  }
  return subjects;
}

/** The note offered: the subjects in one line, `; ` between them, within the app's limit; empty for none. */
export function commitNote(subjects: readonly string[]): string {
  let note = '';
  for (const subject of subjects) {
    const next = note === '' ? subject : `${note}; ${subject}`;
    if (Array.from(next).length > NOTE_MAX_LENGTH) break;
    note = next;
  }
  return note;
}

/**
 * `git log`'s output in the format the adapter asks for (`%ct%x1f%s%x1e`: the commit time in seconds, a unit
 * separator, the subject, a record separator), read as commits; a record that is not one is left out.
 */
export function parseGitLog(output: string): Commit[] {
  const commits: Commit[] = [];
  for (const record of output.split('\x1e').slice(0, MAX_COMMITS * 4)) {
    const [seconds, subject] = record.replace(/^\s+/, '').split('\x1f');
    if (seconds === undefined || subject === undefined || !/^\d{1,12}$/.test(seconds)) continue;
    commits.push({ committedMs: Number(seconds) * 1000, message: subject });
  }
  return commits;
}
