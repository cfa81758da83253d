import assert from 'node:assert/strict';
import { NOTE_MAX_LENGTH } from '../../../../src/protocol/constants';
import {
  authorEmailOf,
  commitNote,
  commitSubjects,
  MAX_COMMITS,
  MAX_SUBJECT_LENGTH,
  parseGitLog,
  type Commit,
} from '../../../../src/tracker/pickers/commitNote';

const NOW = Date.UTC(2026, 11, 4, 15, 0, 0);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const at = (minutesAgo: number, message: string): Commit => ({ committedMs: NOW - minutesAgo * MINUTE, message });

describe('tracker/pickers/commitNote: the note Log Time offers from the commits', () => {
  it("gives the subjects of the span's commits, oldest first, and none of the commits before it", () => {
    const commits = [
      at(5, 'Write the docs of the week by ticket\n\nA body the note leaves out.'),
      at(50, 'Round each ticket and day'),
      at(95, 'Before the span'),
    ];
    assert.deepEqual(commitSubjects(commits, NOW - 90 * MINUTE, NOW), [
      'Round each ticket and day',
      'Write the docs of the week by ticket',
    ]);
    assert.equal(
      commitNote(commitSubjects(commits, NOW - 90 * MINUTE, NOW)),
      'Round each ticket and day; Write the docs of the week by ticket',
    );
  });

  it('keeps two commits of one second in the order they were made (git lists the newest first)', () => {
    assert.deepEqual(commitSubjects([at(1, 'Second'), at(1, 'First'), at(2, 'Zeroth')], NOW - 5 * MINUTE, NOW), [
      'Zeroth',
      'First',
      'Second',
    ]);
  });

  it('gives none for a span without commits', () => {
    assert.deepEqual(commitSubjects([at(120, 'Long ago')], NOW - 30 * MINUTE, NOW), []);
    assert.deepEqual(commitSubjects([], NOW - 30 * MINUTE, NOW), []);
    assert.equal(commitNote([]), '');
  });

  it('keeps a commit a minute in the future (a clock that jumped), not one later', () => {
    assert.deepEqual(commitSubjects([at(-0.5, 'Just now'), at(-5, 'Later')], NOW - MINUTE, NOW), ['Just now']);
  });

  it('cleans a subject as a name: no second line, no bidi control, cut; an empty or repeated one left out', () => {
    const subjects = commitSubjects(
      [at(4, 'Fix\u202e the \tlogin'), at(3, '   '), at(2, 'Fix\u202e the \tlogin'), at(1, 'x'.repeat(10_000_000))],
      NOW - 10 * MINUTE,
      NOW,
    );
    assert.equal(subjects.length, 2);
    assert.equal(subjects[0], 'Fix the  login');
    assert.equal(Array.from(subjects[1] ?? '').length, MAX_SUBJECT_LENGTH);
    assert.ok(subjects[1]?.endsWith('…'));
  });

  it('offers at most the newest MAX_COMMITS, within the note limit of the app', () => {
    const many = Array.from({ length: 100 }, (_, i) => at(100 - i, `Commit ${i} ${'y'.repeat(100)}`));
    const subjects = commitSubjects(many, NOW - 200 * MINUTE, NOW);
    assert.equal(subjects.length, MAX_COMMITS);
    assert.match(subjects[0] ?? '', /^Commit 70 /);
    const note = commitNote(subjects);
    assert.ok(Array.from(note).length <= NOTE_MAX_LENGTH, String(note.length));
    assert.ok(note.split('; ').length > 10, 'as many whole subjects as fit');
    assert.ok(
      note.split('; ').every((subject) => subjects.includes(subject)),
      'no subject cut in half',
    );
  });

  it("gives your commits only, where git names you: a colleague's, pulled or merged in, is theirs to log", () => {
    const by = (authorEmail: string | undefined, minutesAgo: number, message: string): Commit => ({
      ...at(minutesAgo, message),
      authorEmail,
    });
    const commits = [
      by('you@example.com', 5, 'Yours, later'),
      by('colleague@example.com', 10, "A colleague's"),
      by('You@Example.COM ', 20, 'Yours, in capitals'),
      by(undefined, 30, 'No author said'),
    ];
    assert.deepEqual(commitSubjects(commits, NOW - HOUR, NOW, 'you@example.com'), [
      'No author said',
      'Yours, in capitals',
      'Yours, later',
    ]);
    assert.equal(commitSubjects(commits, NOW - HOUR, NOW).length, 4, "everyone's where git names nobody");
  });

  it("reads git log's records, and leaves out what is not one", () => {
    const output = [
      '1764860000\x1fyou@example.com\x1fFirst subject\x1e',
      '\n1764860060\x1fyou@example.com\x1fSecond; with a\x1fseparator\x1e',
      '\nnot a record\x1e\n\x1f\x1fno time\x1e\n1764860120\x1fno subject\x1e\n',
    ].join('');
    assert.deepEqual(parseGitLog(output), [
      { committedMs: 1_764_860_000_000, authorEmail: 'you@example.com', message: 'First subject' },
      { committedMs: 1_764_860_060_000, authorEmail: 'you@example.com', message: 'Second; with a separator' },
    ]);
    assert.deepEqual(parseGitLog(''), []);
  });

  it('reads your email from git var GIT_AUTHOR_IDENT, and none from what holds none', () => {
    assert.equal(authorEmailOf('Ada Lovelace <ada@example.com> 1764860000 +0100\n'), 'ada@example.com');
    assert.equal(authorEmailOf('Ada <> 1764860000 +0100'), undefined);
    assert.equal(authorEmailOf(''), undefined);
    assert.equal(authorEmailOf(`${'<'.repeat(100_000)}x`), undefined, 'a bounded read of anything');
  });
});
