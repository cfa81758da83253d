import assert from 'node:assert/strict';
import {
  checkBranchChangeRequest,
  checkDurationMinutes,
  checkEntryRequest,
  checkStartRequest,
  RuleViolation,
  sameActivityID,
} from '../../../src/protocol/rules';

/** The sentence a rule refuses `run` with; fails the test when it does not refuse. */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof RuleViolation, `expected a RuleViolation, got ${String(error)}`);
    return error.message;
  }
  return assert.fail('expected the rule to refuse');
}

const UPPER_ID = '6F9619FF-8B86-4011-B42D-00C04FC964FF';

describe('protocol/rules', () => {
  describe('durationMinutes: a whole number from 1 to 1440', () => {
    it('takes 1, 90 and 1440, also written as 90.0 in JSON', () => {
      for (const minutes of [1, 90, 1440]) assert.equal(checkDurationMinutes(minutes), minutes);
      const body = JSON.parse('{"name":"A","durationMinutes":90.0}') as Record<string, unknown>;
      assert.equal(checkEntryRequest(body).durationMinutes, 90);
    });

    it('refuses 1.5 with one sentence naming the rule and the value', () => {
      assert.equal(
        refusal(() => checkEntryRequest({ name: 'A', durationMinutes: 1.5 })),
        'durationMinutes must be a whole number of minutes from 1 to 1440, not 1.5.',
      );
    });

    it('refuses fractions, zero, negatives, more than a day, infinities and other types', () => {
      const cases: [unknown, string][] = [
        [0.5, '0.5'],
        [1439.9, '1439.9'],
        [1440.0000000001, '1440.0000000001'],
        [0, '0'],
        [-5, '-5'],
        [1441, '1441'],
        [Infinity, 'Infinity'],
        [NaN, 'NaN'],
        ['30', '"30"'],
        [true, 'true'],
        [[30], 'an array'],
        [{ minutes: 30 }, 'an object'],
      ];
      for (const [value, shown] of cases) {
        assert.equal(
          refusal(() => checkDurationMinutes(value)),
          `durationMinutes must be a whole number of minutes from 1 to 1440, not ${shown}.`,
          String(value),
        );
      }
      assert.equal(
        refusal(() => checkEntryRequest({ name: 'A' })),
        'durationMinutes is required.',
      );
      assert.equal(
        refusal(() => checkEntryRequest({ name: 'A', durationMinutes: null })),
        'durationMinutes is required.',
      );
    });
  });

  describe('activityID: a UUID in either letter case', () => {
    it('takes upper, lower and mixed case, and keeps the id as sent', () => {
      for (const id of [UPPER_ID, UPPER_ID.toLowerCase(), '6f9619FF-8b86-4011-B42D-00c04fc964ff']) {
        assert.equal(checkStartRequest({ activityID: id }).activityID, id);
      }
    });

    it('refuses what is not a UUID, quoting it', () => {
      for (const id of [
        '42',
        `${UPPER_ID}0`,
        UPPER_ID.replace(/-/g, ''),
        `{${UPPER_ID}}`,
        'G'.repeat(8) + UPPER_ID.slice(8),
      ]) {
        assert.equal(
          refusal(() => checkStartRequest({ activityID: id })),
          `activityID must be a UUID (in either letter case), not ${JSON.stringify(id)}.`,
        );
      }
    });

    it('compares ids without regard to letter case', () => {
      assert.equal(sameActivityID(UPPER_ID, UPPER_ID.toLowerCase()), true);
      assert.equal(sameActivityID(UPPER_ID, UPPER_ID.replace(/F$/, 'E')), false);
    });
  });

  describe('branch reports: repoPath', () => {
    it('is optional, trimmed, and at most 4096 characters', () => {
      assert.deepEqual(checkBranchChangeRequest({ branch: 'main' }), { branch: 'main' });
      assert.deepEqual(checkBranchChangeRequest({ branch: 'main', repoPath: null }), { branch: 'main' });
      assert.deepEqual(checkBranchChangeRequest({ branch: 'main', repoPath: ' /Users/me/src/shop ' }), {
        branch: 'main',
        repoPath: '/Users/me/src/shop',
      });
      const longest = `/${'😀'.repeat(4095)}`;
      assert.equal(
        checkBranchChangeRequest({ branch: 'main', repoPath: longest }).repoPath,
        longest,
        'characters, not UTF-16 units',
      );
    });

    it('refuses a repoPath that is not a string, is blank, or is too long', () => {
      assert.equal(
        refusal(() => checkBranchChangeRequest({ branch: 'main', repoPath: 42 })),
        'repoPath must be a string.',
      );
      assert.equal(
        refusal(() => checkBranchChangeRequest({ branch: 'main', repoPath: '   ' })),
        'repoPath must not be empty.',
      );
      assert.equal(
        refusal(() => checkBranchChangeRequest({ branch: 'main', repoPath: `/${'p'.repeat(4096)}` })),
        'repoPath must be at most 4096 characters.',
      );
    });
  });
});
