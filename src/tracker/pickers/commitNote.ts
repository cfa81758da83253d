/**
 * The note Log Time offers from your commits made on the current branch in the span being logged: their subjects,
 * oldest first (a colleague's commit, pulled or merged in, is theirs to log), each cut and cleaned as a name is (a
 * subject is a repository's text: a line break in it must not make a second line, a bidi control must not reorder
 * it), joined into one line the app's note limit holds. Pure: commits in, the note out; where they come from (the Git
 * extension, or one bounded `git log`) is the adapter's.
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
  /** Who wrote it, where git said. */
  readonly authorEmail?: string | undefined;
}

/**
 * The subjects of the commits (newest first, as git lists them) in `[sinceMs, untilMs]` (a clock that jumped may put
 * a commit a little in the future: a minute's slack) and written by `you` (an email; case aside, as git compares
 * none, and every commit where it is not known), oldest first, at most MAX_COMMITS (the newest), with none empty and
 * none repeated.
 */
export function commitSubjects(commits: readonly Commit[], sinceMs: number, untilMs: number, you?: string): string[] {
  const yours = (commit: Commit): boolean =>
    you === undefined || commit.authorEmail === undefined || sameEmail(commit.authorEmail, you);
  // Newest first in, as git lists them: two commits of one second keep git's order, reversed.
  const inSpan = commits
    .filter((commit) => commit.committedMs >= sinceMs && commit.committedMs <= untilMs + 60_000 && yours(commit))
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

function sameEmail(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** The format the adapter asks `git log` for: the commit time in seconds, the author's email, the subject. */
export const GIT_LOG_FORMAT = '%ct%x1f%ae%x1f%s%x1e';

/** `git log`'s output in GIT_LOG_FORMAT (unit separators between fields, a record separator after each), as commits. */
export function parseGitLog(output: string): Commit[] {
  const commits: Commit[] = [];
  for (const record of output.split('\x1e').slice(0, MAX_COMMITS * 4)) {
    const [seconds, authorEmail, ...subject] = record.replace(/^\s+/, '').split('\x1f');
    if (seconds === undefined || authorEmail === undefined || subject.length === 0) continue;
    if (!/^\d{1,12}$/.test(seconds)) continue;
    commits.push({ committedMs: Number(seconds) * 1000, authorEmail, message: subject.join(' ') });
  }
  return commits;
}

/**
 * Your email as git signs a commit you make (`git var GIT_AUTHOR_IDENT`: `Name <email> seconds zone`, from
 * GIT_AUTHOR_EMAIL, the config or the machine's name); undefined when the output holds none.
 */
export function authorEmailOf(ident: string): string | undefined {
  const email = /<([^<>\r\n]{1,320})>/.exec(firstCharacters(ident, 1024))?.[1]?.trim();
  return email === undefined || email === '' ? undefined : email;
}
