import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { compileGlobs, MAX_MATCHED_BRANCH_LENGTH } from '../../../../src/platform/globs';
import { ticketKeys } from '../../../../src/tracker/branchTime/ticketKeys';
import { placeholderRefusal, runsAlready, ticketLinkFor } from '../../../../src/tracker/links/linkChoices';
import { decideLink, parseLinks } from '../../../../src/tracker/links/links';

const tickets = ticketKeys([]);

describe('tracker/links/linkChoices', () => {
  it('links every branch under the first path segment to its ticket, in the form the README documents', () => {
    assert.deepEqual(ticketLinkFor('fix/PROJ-123-login-crash', tickets), {
      pattern: 'fix/**',
      ticket: 'PROJ-123',
      link: { branch: 'fix/**', activity: '{ticket}', createIfMissing: true },
    });
    assert.equal(ticketLinkFor('feature/team/PROJ-9-x', tickets)?.pattern, 'feature/**', 'the first segment only');
  });

  it('offers nothing on a branch without a ticket key', () => {
    assert.equal(ticketLinkFor('main', tickets), undefined);
    assert.equal(ticketLinkFor('fix/login-crash', tickets), undefined);
  });

  it('takes every branch that names a ticket (**) where there is no prefix to keep', () => {
    assert.equal(ticketLinkFor('PROJ-123-login', tickets)?.pattern, '**', 'no slash');
    assert.equal(ticketLinkFor('PROJ-123/login', tickets)?.pattern, '**', 'the first segment is the ticket itself');
    assert.equal(ticketLinkFor('/PROJ-1', tickets)?.pattern, '**', 'an empty first segment');
    assert.equal(
      ticketLinkFor('a*b/PROJ-1', tickets)?.pattern,
      '**',
      'a segment with a glob character is no literal prefix',
    );
  });

  it('uses timeTracker.ticketPrefixes, as the repository compares case', () => {
    assert.deepEqual(ticketLinkFor('bug/gh-42', ticketKeys(['gh']))?.ticket, 'gh-42');
    assert.equal(ticketLinkFor('bug/gh-42', tickets), undefined);
    assert.equal(ticketLinkFor('bug/proj-42', ticketKeys(['PROJ'])), undefined, 'a repository that tells case apart');
    assert.deepEqual(ticketLinkFor('bug/proj-42', ticketKeys(['PROJ']), true), {
      pattern: 'bug/**',
      ticket: 'PROJ-42',
      link: { branch: 'bug/**', activity: '{ticket}', createIfMissing: true },
    });
    assert.equal(
      ticketLinkFor('proj-42/login', ticketKeys(['PROJ']), true)?.pattern,
      '**',
      'the first segment is the ticket itself, in another case',
    );
  });

  it("writes a link that matches the branch it was made on, and tracks that branch's ticket", () => {
    for (const branch of [
      'fix/PROJ-123-login-crash',
      'PROJ-7',
      'feature/a/b/PROJ-8-c',
      'PROJ-5/x',
      `${'x'.repeat(200)}/PROJ-6`,
    ]) {
      const choice = ticketLinkFor(branch, tickets);
      assert.ok(choice, branch);
      assert.ok(
        compileGlobs([choice.pattern], MAX_MATCHED_BRANCH_LENGTH)(branch),
        `${choice.pattern} matches ${branch}`,
      );
      const { links, problems } = parseLinks([choice.link]);
      assert.deepEqual(problems, []);
      assert.equal(decideLink(links, { folders: ['/w/repo'], branch }, tickets)?.activity, choice.ticket);
    }
  });

  it('decides in bounded time on a branch of 64 KiB, by its first 255 characters', () => {
    const long = `${'a'.repeat(300)}/PROJ-1-${'b'.repeat(64 * 1024)}`;
    const started = performance.now();
    const choice = ticketLinkFor(long, tickets);
    const ms = performance.now() - started;
    assert.ok(ms < 50, `took ${ms.toFixed(1)} ms`);
    assert.equal(choice, undefined, 'the key lies past the characters a pattern sees');
    const inside = ticketLinkFor(`fix/PROJ-2-${'c'.repeat(64 * 1024)}/more`, tickets);
    assert.equal(inside?.pattern, 'fix/**');
  });

  it('refuses a new activity name with "{", saying why, and takes any other', () => {
    assert.match(placeholderRefusal('{ticket}') ?? '', /placeholder.*Every branch like this one/);
    assert.ok(placeholderRefusal('Fix {x'));
    assert.equal(placeholderRefusal('Code review'), undefined);
    assert.equal(placeholderRefusal('PROJ-123 }'), undefined);
  });

  it('tells whether the linked activity runs already: by id where known, else by name in any case', () => {
    const running = { activityID: 'ABC-1', activityName: 'Design' };
    assert.equal(runsAlready(running, { name: 'Other', activityID: 'abc-1' }), true);
    assert.equal(
      runsAlready(running, { name: 'Design', activityID: 'def-2' }),
      false,
      'another activity of the same name',
    );
    assert.equal(runsAlready(running, { name: ' design ' }), true);
    assert.equal(runsAlready(running, { name: 'PROJ-1' }), false);
    assert.equal(runsAlready(undefined, { name: 'Design' }), false);
  });
});
