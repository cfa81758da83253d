import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { MAX_MATCHED_BRANCH_LENGTH } from '../../../../src/platform/globs';
import {
  MAX_KEY_DIGITS,
  MAX_TICKET_PREFIXES,
  rememberingKeys,
  ticketKeys,
  type TicketKeys,
} from '../../../../src/tracker/branchTime/ticketKeys';

const every = ticketKeys([]);

describe('tracker/branchTime/ticketKeys', () => {
  it('finds the first key of a real branch name, Jira-style or #, and none where there is none', () => {
    const table: [branch: string, key: string | undefined][] = [
      ['feature/PROJ-123-login', 'PROJ-123'],
      ['users/anna/ENG-9-fix', 'ENG-9'],
      ['bugfix/#42', '#42'],
      ['release/2026.12', undefined],
      ['dependabot/npm_and_yarn/undici-7.1', undefined],
      ['PROJ-12-and-PROJ-13', 'PROJ-12'],
      ['GH-123', 'GH-123'],
      ['fix/#7-crash', '#7'],
      ['PROJ-5', 'PROJ-5'],
      ['feature/A1B-2_login', 'A1B-2'],
      ['main', undefined],
      ['v2-3', undefined],
      ['feature/proj-123', undefined],
      ['feature/Proj-123', undefined],
      ['feature/A-1', undefined],
      ['feature/1PROJ-1', undefined],
    ];
    for (const [branch, key] of table) assert.equal(every.keyOf(branch, false), key, branch);
  });

  it('takes a key only where it stands apart: no letter or digit before it, none after its digits', () => {
    const table: [branch: string, key: string | undefined][] = [
      ['xPROJ-1', undefined],
      ['mxPROJ-1-PROJ-2', 'PROJ-2'],
      ['PROJ-123abc', undefined],
      ['PROJ-12a-OPS-3', 'OPS-3'],
      ['fix#42', undefined],
      ['#42x', undefined],
      ['éPROJ-1', undefined],
      ['PROJ-1é', undefined],
      ['feat_PROJ-1', 'PROJ-1'],
      ['(PROJ-1)', 'PROJ-1'],
      ['PROJ--1', undefined],
      ['#', undefined],
      ['PROJ-', undefined],
      [`PROJ-${'1'.repeat(MAX_KEY_DIGITS)}`, `PROJ-${'1'.repeat(MAX_KEY_DIGITS)}`],
      [`PROJ-${'1'.repeat(MAX_KEY_DIGITS + 1)}-OPS-2`, 'OPS-2'],
      [`#${'9'.repeat(MAX_KEY_DIGITS + 1)}`, undefined],
    ];
    for (const [branch, key] of table) assert.equal(every.keyOf(branch, false), key, branch);
  });

  it('counts only the keys whose prefix is listed, the first of them in the branch', () => {
    const keys = ticketKeys(['OPS', '#']);
    assert.deepEqual(keys.problems, []);
    assert.equal(keys.keyOf('feature/PROJ-1-then-OPS-2', false), 'OPS-2');
    assert.equal(keys.keyOf('feature/PROJ-1', false), undefined);
    assert.equal(keys.keyOf('bugfix/#42', false), '#42', '# listed keeps #123');
    assert.equal(ticketKeys(['PROJ']).keyOf('bugfix/#42', false), undefined, '# not listed');
    assert.equal(ticketKeys(['gh']).keyOf('bug/gh-42', false), 'gh-42', 'a prefix as listed, in its own case');
    assert.equal(ticketKeys(['gh']).keyOf('bug/GH-42', false), undefined);
    const spaced = ticketKeys([' PROJ ', '']);
    assert.equal(spaced.keyOf('PROJ-3', false), 'PROJ-3', 'trimmed');
    assert.deepEqual(spaced.problems, [], 'and a blank entry skipped, as in every list of settings');
  });

  it('compares prefixes exactly, or case-folded where the repository ignores case, and writes them as listed', () => {
    const keys = ticketKeys(['PROJ', 'ops']);
    assert.equal(keys.keyOf('feature/proj-12-login', false), undefined, 'a repository that tells case apart');
    assert.equal(keys.keyOf('feature/proj-12-login', true), 'PROJ-12');
    assert.equal(keys.keyOf('feature/Proj-12', true), 'PROJ-12');
    assert.equal(keys.keyOf('hotfix/OPS-4', true), 'ops-4');
    assert.equal(keys.keyOf('hotfix/OPS-4', false), undefined);
    assert.equal(ticketKeys(['Proj', 'PROJ']).keyOf('x/proj-1', true), 'Proj-1', 'the first entry wins');
    assert.equal(every.keyOf('feature/proj-12', true), undefined, 'without a list, keys are upper-case');
  });

  it('says why each entry is not used, and the rest still apply', () => {
    const keys = ticketKeys(['PROJ-', 'OPS', 'A', 'x'.repeat(33), 'P R', '1AB']);
    assert.equal(keys.problems.length, 5, keys.problems.join('\n'));
    assert.match(
      keys.problems[0] ?? '',
      /^The ticket prefix "PROJ-" of timeTracker\.ticketPrefixes is not used: a prefix is a letter and then letters or digits, at most 32 characters in all \(such as PROJ\), or #\.$/,
    );
    assert.ok(keys.problems.every((problem) => problem.length < 250));
    assert.equal(keys.keyOf('PROJ-1-OPS-2', false), 'OPS-2');
    const none = ticketKeys(['PROJ-']);
    assert.equal(none.keyOf('PROJ-1', false), 'PROJ-1', 'nothing usable listed: every key counts, as with none');
    assert.equal(none.problems.length, 1);
  });

  it('reads the first MAX_TICKET_PREFIXES entries and says that the others are not', () => {
    const many = [...Array.from({ length: MAX_TICKET_PREFIXES }, (_, index) => `P${index}`), 'LATE'];
    const keys = ticketKeys(many);
    assert.deepEqual(keys.problems, [
      `Only the first ${MAX_TICKET_PREFIXES} of the ${MAX_TICKET_PREFIXES + 1} ticket prefixes in timeTracker.ticketPrefixes are used.`,
    ]);
    assert.equal(keys.keyOf(`P${MAX_TICKET_PREFIXES - 1}-1`, false), `P${MAX_TICKET_PREFIXES - 1}-1`);
    assert.equal(keys.keyOf('LATE-1', false), undefined);
  });

  it("reads a branch's first 255 characters only, in time that grows with them alone", () => {
    assert.equal(every.keyOf(`${'x/'.repeat(125)}AB-12345`, false), 'AB-12', 'a key across the 255th character is cut');
    assert.equal(every.keyOf(`${'x/'.repeat(MAX_MATCHED_BRANCH_LENGTH)}AB-1`, false), undefined);
    const listed = ticketKeys(['PROJ']);
    for (const branch of ['A'.repeat(64 * 1024), 'A-'.repeat(32 * 1024), `#${'1'.repeat(64 * 1024)}`]) {
      const started = performance.now();
      assert.equal(every.keyOf(branch, false), undefined);
      assert.equal(listed.keyOf(branch, true), undefined);
      assert.ok(performance.now() - started < 50, `${branch.slice(0, 4)}… of ${branch.length} characters`);
    }
  });

  it('remembers each branch under each case rule: one computation per pair', () => {
    const asked: string[] = [];
    const counted: TicketKeys = {
      keyOf: (branch, ignoresCase) => {
        asked.push(`${branch} ${ignoresCase}`);
        return every.keyOf(branch, ignoresCase);
      },
    };
    const keyOf = rememberingKeys(counted);
    for (const ignoresCase of [false, true, false, true])
      for (const branch of ['feature/PROJ-1', 'main', 'feature/PROJ-1'])
        assert.equal(keyOf(branch, ignoresCase), branch === 'main' ? undefined : 'PROJ-1');
    assert.deepEqual(asked, ['feature/PROJ-1 false', 'main false', 'feature/PROJ-1 true', 'main true']);
  });
});
