import assert from 'node:assert/strict';
import { samePlace, type Span, type WorkPlace } from '../../../../src/tracker/branchTime/attribution';
import { claimFocus, creditSpans, EMPTY_BOOK, type LedgerBook } from '../../../../src/tracker/branchTime/ledgerBook';
import { DAY, dev, HOUR, MINUTE, T0 } from './ledgerFixtures';

/** A place as a Mac's window may name it: the folder as typed, the branch as HEAD spells it. */
const at = (root: string, branch: string, ignoresCase = false): WorkPlace => ({
  root,
  repository: root.split('/').at(-1)!,
  branch,
  ...(ignoresCase ? { ignoresCase: true } : {}),
});
const spanAt = (place: WorkPlace, from: number, to: number): Span => ({
  startMs: from,
  endMs: to,
  place,
  activity: dev,
});
/** One window's book with a first session's hour on `first`. */
const firstSession = (first: WorkPlace, from = T0, platform: NodeJS.Platform = 'linux'): LedgerBook =>
  creditSpans(claimFocus(EMPTY_BOOK, 'A', from - DAY), 'A', [spanAt(first, from, from + HOUR)], platform);
const places = (book: LedgerBook): string[] => book.rows.map((row) => `${row.day} ${row.root} ${row.branch} ${row.ms}`);

describe('tracker/branchTime/ledgerBook: one place under names that differ in case', () => {
  it('credits a branch HEAD spells in another case to the row first written, where the repository ignores case', () => {
    const book = firstSession(at('/repos/api', 'feature/login', true));
    const later = creditSpans(book, 'A', [spanAt(at('/repos/api', 'feature/Login', true), T0 + HOUR, T0 + 2 * HOUR)]);
    assert.deepEqual(places(later), [`2026-11-25 /repos/api feature/login ${2 * HOUR}`]);
  });

  it('takes an earlier session’s row that did not say the repository ignores case', () => {
    const book = firstSession(at('/repos/api', 'Feature/LOGIN'));
    const later = creditSpans(book, 'A', [spanAt(at('/repos/api', 'feature/login', true), T0 + HOUR, T0 + 2 * HOUR)]);
    assert.deepEqual(places(later), [`2026-11-25 /repos/api Feature/LOGIN ${2 * HOUR}`]);
    assert.equal(later.rows[0]?.ignoresCase, true, 'the row says it now');
  });

  it('keeps crediting a row written while the repository ignored case, once its config says otherwise', () => {
    const book = firstSession(at('/repos/api', 'Feature/X', true));
    const later = creditSpans(book, 'A', [spanAt(at('/repos/api', 'Feature/X'), T0 + HOUR, T0 + 2 * HOUR)]);
    assert.deepEqual(places(later), [`2026-11-25 /repos/api Feature/X ${2 * HOUR}`]);
  });

  it('keeps two branches where the repository tells cases apart', () => {
    const book = firstSession(at('/repos/api', 'feature/login'));
    const later = creditSpans(book, 'A', [spanAt(at('/repos/api', 'feature/Login'), T0 + HOUR, T0 + 2 * HOUR)]);
    assert.equal(later.rows.length, 2);
  });

  it('is one repository on a Mac under a path typed in another case or Unicode form, named as first written', () => {
    const typed = '/Users/ana/code/zürich'.normalize('NFD');
    const book = firstSession(at('/Users/ana/Code/Zürich'.normalize('NFC'), 'main'), T0, 'darwin');
    const later = creditSpans(book, 'A', [spanAt(at(typed, 'main'), T0 + HOUR, T0 + 2 * HOUR)], 'darwin');
    assert.deepEqual(places(later), [`2026-11-25 ${'/Users/ana/Code/Zürich'.normalize('NFC')} main ${2 * HOUR}`]);
    const onLinux = creditSpans(
      firstSession(at('/home/ana/Code/api', 'main')),
      'A',
      [spanAt(at('/home/ana/code/api', 'main'), T0 + HOUR, T0 + 2 * HOUR)],
      'linux',
    );
    assert.equal(onLinux.rows.length, 2, 'Linux tells the two folders apart');
  });

  it('writes a new day’s row as the place was first written', () => {
    const book = firstSession(at('/Users/ana/Code/MyApp', 'feature/login', true), T0 - DAY, 'darwin');
    const next = creditSpans(
      book,
      'A',
      [spanAt(at('/Users/ana/code/myapp', 'feature/Login', true), T0, T0 + 30 * MINUTE)],
      'darwin',
    );
    assert.deepEqual(
      next.rows.map((row) => [row.day, row.root, row.repository, row.branch]),
      [
        ['2026-11-24', '/Users/ana/Code/MyApp', 'MyApp', 'feature/login'],
        ['2026-11-25', '/Users/ana/Code/MyApp', 'MyApp', 'feature/login'],
      ],
    );
  });
});

describe('tracker/branchTime/attribution samePlace', () => {
  it('compares roots by the file system’s key and branches case-folded where the repository ignores case', () => {
    assert.ok(samePlace(at('/Users/a/Code/App', 'main'), at('/users/a/code/app', 'main'), 'darwin'));
    assert.ok(!samePlace(at('/home/a/Code/App', 'main'), at('/home/a/code/app', 'main'), 'linux'));
    assert.ok(samePlace(at('/r', 'feature/login'), at('/r', 'Feature/Login', true), 'linux'));
    assert.ok(!samePlace(at('/r', 'feature/login'), at('/r', 'Feature/Login'), 'linux'));
    assert.ok(samePlace(undefined, undefined));
    assert.ok(!samePlace(at('/r', 'main'), undefined));
  });
});
