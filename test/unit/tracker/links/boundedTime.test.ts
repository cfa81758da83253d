import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { parseHead } from '../../../../src/git/headState';
import { originInConfig } from '../../../../src/git/repoName';
import { gitDirIn } from '../../../../src/git/repositories';
import {
  checkGlobs,
  compileGlobs,
  MAX_GLOB_LENGTH,
  MAX_GLOB_LIST_LENGTH,
  MAX_MATCHED_BRANCH_LENGTH,
} from '../../../../src/platform/globs';
import { BRANCH_MAX_LENGTH } from '../../../../src/protocol/constants';
import { ticketKeys } from '../../../../src/tracker/branchTime/ticketKeys';
import { decideLink, parseLinks } from '../../../../src/tracker/links/links';

/** Generous on a slow machine: each of these took seconds, or never ended, when matched by backtracking. */
const BOUND_MS = 50;

/** The time one decision takes, and its result. */
function timed<T>(decide: () => T): { readonly value: T; readonly ms: number } {
  const started = performance.now();
  const value = decide();
  return { value, ms: performance.now() - started };
}

function assertBounded(label: string, ms: number): void {
  assert.ok(ms < BOUND_MS, `${label} took ${ms.toFixed(1)} ms, more than ${BOUND_MS}`);
}

/**
 * HEAD as a repository may write it: one line of 64 KiB, the most the file-system port reads; a run
 * of capitals for the ticket key scan, a run of spaces inside for HEAD's own reading.
 */
const HEAD_64K = `ref: refs/heads/${'A'.repeat(32 * 1024)}${' '.repeat(32 * 1024 - 40)}x\n`;

describe('every decision on a branch name takes bounded time, whatever the settings and the files say', () => {
  it('reads a 64 KiB HEAD and looks for a ticket key in it', () => {
    const head = timed(() => parseHead(HEAD_64K));
    assertBounded('parseHead on 64 KiB', head.ms);
    assert.ok(head.value.kind === 'branch');
    const branch = head.value.branch;
    const key = timed(() => ticketKeys([]).keyOf(`${branch}-PROJ-1`, false));
    assertBounded('the ticket key scan on a 64 KiB branch', key.ms);
    assert.equal(key.value, undefined, 'the key lies past the characters the scan reads');
  });

  it('decides a {ticket} link on 40, 4,000 and 64 KiB of a, with listed prefixes compared case-folded', () => {
    const tickets = ticketKeys(['AA', 'PROJ', '#']);
    const { links } = parseLinks([{ branch: '**', activity: '{ticket}' }]);
    for (const branch of ['a'.repeat(40), 'a'.repeat(4_000), HEAD_64K, 'aa-'.repeat(20_000)]) {
      const decision = timed(() => decideLink(links, { folders: ['/w/repo'], branch, ignoresCase: true }, tickets));
      assertBounded(`{ticket} on ${branch.length} characters`, decision.ms);
      assert.equal(decision.value, undefined);
    }
  });

  it('refuses a 500,000-star glob, in ignoreBranches and in a link, and decides a 4,000-character branch at once', () => {
    const stars = '*'.repeat(500_000);
    const branch = 'a'.repeat(4_000);
    const ignored = compileGlobs([stars, 'wip/*'], MAX_MATCHED_BRANCH_LENGTH);
    const ignoreDecision = timed(() => ignored(branch));
    assertBounded('ignoreBranches', ignoreDecision.ms);
    assert.equal(ignoreDecision.value, false, 'the refused glob matches nothing');
    assert.equal(ignored('wip/x'), true, 'the others still do');
    assert.deepEqual(checkGlobs([stars, 'wip/*']).refused, [{ glob: stars, problem: 'TOO_LONG' }]);
    const parsed = parseLinks([
      { branch: stars, activity: 'Stars' },
      { folder: `**${stars}`, activity: 'Stars' },
    ]);
    assert.equal(parsed.links.length, 0);
    assert.match(
      parsed.problems[0] ?? '',
      /Link 1 in your user settings .* is not used: its "branch" glob has 500000 characters, more than the 1000 a glob may have\./,
    );
    assert.match(parsed.problems[1] ?? '', /Link 2 .* its "folder" glob has 500002 characters/);
  });

  it('collapses a run of stars below the length limit, and matches the worst globs the limits allow in time', () => {
    const branch = `feature/${'a'.repeat(64 * 1024)}`;
    const run = timed(() =>
      compileGlobs([`feature/${'*'.repeat(MAX_GLOB_LENGTH - 9)}b`], MAX_MATCHED_BRANCH_LENGTH)(branch),
    );
    assertBounded('a run of 991 stars', run.ms);
    assert.equal(run.value, false);
    // As many of the slowest globs as one list may hold: each keeps every step reached at every character.
    const worst = '*a'.repeat(MAX_GLOB_LENGTH / 2);
    const list = Array.from({ length: MAX_GLOB_LIST_LENGTH / MAX_GLOB_LENGTH + 5 }, () => worst);
    assert.equal(checkGlobs(list).refused.length, 5, "past the list's limit");
    const ignored = compileGlobs(list, MAX_MATCHED_BRANCH_LENGTH);
    const decision = timed(() => ignored('a'.repeat(4_000)));
    assertBounded('a full list of the slowest globs', decision.ms);
    const { links, problems } = parseLinks(list.map((glob) => ({ branch: glob, activity: 'x' })));
    const fitting = MAX_GLOB_LIST_LENGTH / MAX_GLOB_LENGTH;
    assert.equal(links.length, fitting);
    assert.match(
      problems[0] ?? '',
      new RegExp(
        `Link ${fitting + 1} .* with those of the links before it, its globs pass the ${MAX_GLOB_LIST_LENGTH} characters`,
      ),
    );
    const linked = timed(() => decideLink(links, { folders: ['/w/repo'], branch: 'a'.repeat(4_000) }, ticketKeys([])));
    assertBounded('links with a full list of the slowest globs', linked.ms);
  });

  it('sees at most the branch length the app takes', () => {
    assert.equal(MAX_MATCHED_BRANCH_LENGTH, BRANCH_MAX_LENGTH);
    const branch = `${'a'.repeat(MAX_MATCHED_BRANCH_LENGTH)}-wip`;
    assert.equal(compileGlobs(['a*'], MAX_MATCHED_BRANCH_LENGTH)(branch), true, 'matched by its first characters');
    assert.equal(compileGlobs(['*-wip'], MAX_MATCHED_BRANCH_LENGTH)(branch), false);
  });

  it("reads a repository's .git file and config of 64 KiB lines in time", () => {
    const spaces = ' '.repeat(64 * 1024);
    for (const content of [`gitdir:${spaces}x${spaces}`, `gitdir: ../x${spaces}`]) {
      const gitDir = timed(() => gitDirIn(content));
      assertBounded('.git file', gitDir.ms);
    }
    assert.equal(gitDirIn('gitdir: ../.git/worktrees/x  \r\n'), '../.git/worktrees/x');
    for (const config of [
      `[${spaces}x`,
      `[remote "origin"]\nurl=x${spaces}y`,
      `[remote "origin"]\n  url${spaces}=${spaces}`,
    ]) {
      const origin = timed(() => originInConfig(config));
      assertBounded('git config', origin.ms);
    }
    assert.equal(
      originInConfig('[core]\n\tbare = false\n[ remote  "origin" ]\n\turl = https://example.com/a.git  \r\n'),
      'https://example.com/a.git',
    );
    assert.equal(originInConfig('[remote "upstream"]\nurl = u\n[remote "origin"]\nurl =\nurl = o'), 'o');
  });
});
