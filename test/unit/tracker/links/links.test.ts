import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { literalGlob } from '../../../../src/platform/globs';
import { ticketKeys } from '../../../../src/tracker/branchTime/ticketKeys';
import {
  decideLink,
  knownActivityFor,
  matchingLinks,
  parseLinks,
  withLinkedFirst,
  type Place,
} from '../../../../src/tracker/links/links';

const tickets = ticketKeys([]);
const at = (branch: string | undefined, ...folders: string[]): Place => ({
  folders: folders.length === 0 ? ['/work/acme-web'] : folders,
  branch,
});

describe('tracker/links', () => {
  it('replaces {ticket} by the key the branch names, and a branch without a key matches no {ticket} link', () => {
    const { links, problems } = parseLinks([{ branch: '**', activity: '{ticket}', createIfMissing: true }]);
    assert.deepEqual(problems, []);
    const decision = decideLink(links, at('feature/PROJ-123-login'), tickets);
    assert.equal(decision?.activity, 'PROJ-123');
    assert.equal(decision.ticket, 'PROJ-123');
    assert.equal(decision.createIfMissing, true);
    assert.equal(decision.by, 'branch');
    assert.equal(decideLink(links, at('main'), tickets), undefined);
    assert.equal(decideLink(links, at(undefined), tickets), undefined, 'no branch, no key');
  });

  it("uses timeTracker.ticketPrefixes through Copy Summary's keys, as the branch's repository compares case", () => {
    const { links } = parseLinks([{ branch: 'bug/*', activity: 'Bug {ticket}' }]);
    assert.equal(decideLink(links, at('bug/gh-42'), ticketKeys(['gh']))?.activity, 'Bug gh-42');
    assert.equal(decideLink(links, at('bug/gh-42'), tickets), undefined, 'without a list, keys are upper-case');
    const listed = ticketKeys(['PROJ']);
    assert.equal(decideLink(links, { ...at('bug/proj-7'), ignoresCase: true }, listed)?.activity, 'Bug PROJ-7');
    assert.equal(decideLink(links, at('bug/proj-7'), listed), undefined);
    assert.equal(decideLink(links, at('bug/OPS-7'), listed), undefined, 'a prefix not listed');
  });

  it("takes the first branch link that matches, in the setting's order, before any folder link wherever it stands", () => {
    const { links } = parseLinks([
      { folder: 'acme-*', activity: 'Acme' },
      { branch: 'release/*', activity: 'Release' },
      { branch: '**', activity: '{ticket}' },
    ]);
    assert.equal(
      decideLink(links, at('release/2.0'), tickets)?.activity,
      'Release',
      'first match wins among branch links',
    );
    assert.equal(
      decideLink(links, at('feature/PROJ-1'), tickets)?.activity,
      'PROJ-1',
      'the branch link beats the folder link written before it',
    );
    assert.equal(decideLink(links, at('feature/PROJ-1', '/work/other'), tickets)?.activity, 'PROJ-1');
    assert.equal(
      decideLink(links, at('main'), tickets)?.activity,
      'Acme',
      'no branch link matches: the folder link, when the window opens',
    );
    assert.equal(decideLink(links, at('main', '/work/other'), tickets), undefined);
  });

  it('lets no folder link decide a branch switch', () => {
    const { links } = parseLinks([
      { folder: 'acme-*', activity: 'Acme' },
      { branch: 'fix/**', activity: '{ticket}' },
    ]);
    assert.equal(
      decideLink(links, at('main'), tickets, 'switch'),
      undefined,
      'what runs is left, and the switch is reported',
    );
    assert.equal(decideLink(links, at('fix/PROJ-123-x'), tickets, 'switch')?.activity, 'PROJ-123');
    assert.equal(decideLink(links, at('main'), tickets, 'open')?.activity, 'Acme');
  });

  it('leaves the branches a link\'s "except" names out of its branch glob, and refuses a wrong "except"', () => {
    const { links, problems } = parseLinks([
      { branch: 'fix/**', activity: '{ticket}', except: ['fix/PROJ-123-login-crash', 'fix/old-*'] },
      { folder: 'acme-web', activity: 'Acme', except: ['main'] },
      { branch: 'x', activity: 'X', except: 'x' },
      { branch: 'y', activity: 'Y', except: [''] },
    ]);
    assert.equal(decideLink(links, at('fix/PROJ-123-login-crash'), tickets, 'switch'), undefined);
    assert.equal(decideLink(links, at('fix/old-PROJ-9'), tickets, 'switch'), undefined, 'an exception may be a glob');
    assert.equal(decideLink(links, at('fix/PROJ-124-other'), tickets, 'switch')?.activity, 'PROJ-124');
    assert.deepEqual(
      links.map(({ position }) => position),
      [1],
    );
    assert.match(problems[0]!, /^Link 2 .* "except" leaves branches out of a "branch" glob, and it has none\.$/);
    assert.match(problems[1]!, /^Link 3 .* "except" must be a list of branch names or globs\.$/);
    assert.match(problems[2]!, /^Link 4 .* "except" must be a list/);
  });

  it("matches a folder glob without / against the folder's name, one with / against its whole path", () => {
    const { links } = parseLinks([
      { folder: '/home/*/clients/**', activity: 'Clients' },
      { folder: 'acme-?eb', activity: 'Acme', group: 'Customers' },
    ]);
    assert.equal(decideLink(links, at(undefined, '/home/ana/clients/x/y'), tickets)?.activity, 'Clients');
    const acme = decideLink(links, at(undefined, '/srv/acme-web/'), tickets);
    assert.equal(acme?.activity, 'Acme');
    assert.equal(acme.group, 'Customers');
    assert.equal(acme.by, 'folder');
    assert.equal(
      decideLink(links, at(undefined, '/srv/acme-web/sub'), tickets),
      undefined,
      "a name glob is the folder's own name",
    );
    assert.equal(
      decideLink(links, at(undefined, '/srv/a', '/srv/acme-web'), tickets)?.activity,
      'Acme',
      "any of the window's folders",
    );
  });

  it('links a folder whose name has wildcards only to itself when written by Link This Folder', () => {
    const names = ['client?', 'clientA', 'notes*', 'notes-2025', '**', 'acme-web', '[a]', 'a'];
    for (const name of ['client?', 'notes*', '**', '[a]']) {
      const { links, problems } = parseLinks([{ folder: literalGlob(name), activity: name }]);
      assert.deepEqual(problems, []);
      assert.deepEqual(
        names.filter((other) => decideLink(links, at(undefined, `/work/${other}`), tickets) !== undefined),
        [name],
        name,
      );
    }
  });

  it('matches a branch glob and its "except" case-folded only where the repository ignores case', () => {
    const { links } = parseLinks([{ branch: 'feature/login', activity: 'Login' }]);
    const login = (ignoresCase: boolean | undefined): Place => ({ ...at('feature/Login'), ignoresCase });
    assert.equal(decideLink(links, login(true), tickets, 'switch')?.activity, 'Login');
    assert.equal(decideLink(links, login(false), tickets, 'switch'), undefined, 'another branch where case counts');
    assert.equal(decideLink(links, login(undefined), tickets, 'switch'), undefined, 'exact unless said');
    const excepting = parseLinks([{ branch: 'feature/*', activity: 'Features', except: ['feature/login'] }]).links;
    assert.equal(decideLink(excepting, login(true), tickets, 'switch'), undefined, 'the exception is the same branch');
    assert.equal(decideLink(excepting, login(false), tickets, 'switch')?.activity, 'Features');
    assert.deepEqual(
      matchingLinks(links, login(true), tickets).map(({ activity }) => activity),
      ['Login'],
      'Unlink finds it too',
    );
  });

  it("matches a folder glob as the platform's file system compares paths: case and Unicode form on darwin", () => {
    const value = [
      { folder: '/Users/ana/code/myapp', activity: 'My app' },
      { folder: 'caf\u00e9', activity: 'Cafe' },
    ];
    const onMac = parseLinks(value, undefined, 'darwin').links;
    const onLinux = parseLinks(value, undefined, 'linux').links;
    const typed = at(undefined, '/Users/ana/Code/MyApp');
    assert.equal(decideLink(onMac, typed, tickets)?.activity, 'My app');
    assert.equal(decideLink(onLinux, typed, tickets), undefined);
    const decomposed = at(undefined, '/Users/ana/Cafe\u0301');
    assert.equal(decideLink(onMac, decomposed, tickets)?.activity, 'Cafe', 'a name HFS+ stored decomposed');
    assert.equal(decideLink(onLinux, decomposed, tickets), undefined);
    assert.equal(decideLink(onMac, at(undefined, '/Users/ana/code/myapp-old'), tickets), undefined);
  });

  it('needs both where a link names a folder and a branch', () => {
    const { links } = parseLinks([{ folder: 'acme-web', branch: 'hotfix/**', activity: 'Acme hotfixes' }]);
    assert.equal(decideLink(links, at('hotfix/a/b'), tickets)?.activity, 'Acme hotfixes');
    assert.equal(decideLink(links, at('hotfix/a', '/x/other'), tickets), undefined);
    assert.equal(decideLink(links, at('main'), tickets), undefined);
    assert.equal(
      decideLink(links, at(undefined), tickets),
      undefined,
      'a branch glob never matches where there is no branch',
    );
  });

  it('refuses every malformed entry in one sentence naming it, and uses the rest', () => {
    const { links, problems } = parseLinks([
      'PROJ',
      { branch: 'a' },
      { activity: 'Everything' },
      { branch: 'b', activity: '' },
      { brnach: 'c', activity: 'Typo' },
      { branch: 'd', activity: 'D', createIfMissing: 'yes' },
      { folder: 3, activity: 'E' },
      { branch: 'ok/*', activity: 'Fine' },
    ]);
    assert.equal(problems.length, 7);
    assert.match(problems[0]!, /^Link 1 in your user settings \("PROJ"\) is not used: a link is an object/);
    assert.match(problems[1]!, /^Link 2 .*\{"branch":"a"\}.* names no "activity"\.$/);
    assert.match(problems[2]!, /^Link 3 .* neither a "folder" nor a "branch"/);
    assert.match(problems[3]!, /^Link 4 .* "activity" must be a text that is not empty\.$/);
    assert.match(problems[4]!, /^Link 5 .* "brnach" is not a key of a link/);
    assert.match(problems[5]!, /^Link 6 .* "createIfMissing" must be true or false\.$/);
    assert.match(problems[6]!, /^Link 7 .* "folder" must be a text/);
    for (const problem of problems) assert.equal(problem.split(/\.\s/).length, 1, `one sentence: ${problem}`);
    assert.deepEqual(
      links.map((link) => [link.position, link.activity]),
      [[8, 'Fine']],
    );
    assert.equal(decideLink(links, at('ok/x'), tickets)?.link.position, 8);
  });

  it('says so when the setting is not a list, and reads nothing set as no links', () => {
    assert.deepEqual(parseLinks(undefined), { links: [], problems: [] });
    assert.deepEqual(parseLinks([]), { links: [], problems: [] });
    const { links, problems } = parseLinks({ branch: '**', activity: 'X' });
    assert.deepEqual(links, []);
    assert.deepEqual(problems, ['The links in your user settings are not a list, so no link is used.']);
  });

  it('quotes a long entry shortened', () => {
    const { problems } = parseLinks([{ branch: 'x'.repeat(500) }]);
    assert.ok(problems[0]!.length < 250, problems[0]);
    assert.match(problems[0]!, /…\)/);
  });

  it('matches in linear time, whatever glob a workspace sets', () => {
    const { links } = parseLinks([
      { branch: '*a*a*a*a*a*a*a*a*a*a*a*b', folder: '**a**a**a**a**a**a**a**b', activity: 'Never' },
    ]);
    const started = performance.now();
    assert.equal(
      decideLink(links, { folders: [`/${'a/'.repeat(5_000)}`], branch: 'a'.repeat(10_000) }, tickets),
      undefined,
    );
    assert.ok(performance.now() - started < 200);
  });

  it('lists every link that matches, the one that decides first, for Unlink', () => {
    const { links } = parseLinks([
      { folder: 'acme-web', activity: 'Acme' },
      { branch: 'work/*', activity: 'Work' },
      { branch: 'other', activity: 'Other' },
    ]);
    assert.deepEqual(
      matchingLinks(links, at('work/x'), tickets).map((decision) => decision.activity),
      ['Work', 'Acme'],
    );
  });

  it('knows a linked activity by id only where one activity of that name (and group) is known', () => {
    const { links } = parseLinks([
      { branch: 'a', activity: 'Review', group: 'Acme' },
      { branch: 'b', activity: 'review' },
    ]);
    const known = [
      { activityID: 'R1', activityName: 'Review', groupName: 'Acme' },
      { activityID: 'R2', activityName: 'Review', groupName: 'Globex' },
    ];
    assert.equal(knownActivityFor(decideLink(links, at('a'), tickets)!, known)?.activityID, 'R1');
    assert.equal(
      knownActivityFor(decideLink(links, at('b'), tickets)!, known),
      undefined,
      'two groups: by name, the app decides',
    );
    assert.equal(
      knownActivityFor(decideLink(links, at('b'), tickets)!, [known[1]!, { ...known[1]!, activityID: 'r2' }])
        ?.activityID,
      'R2',
      'one id in any case',
    );
  });

  it("puts the activity linked here first in the Start picker's recent list, when known by id", () => {
    const { links } = parseLinks([{ branch: '**', activity: '{ticket}' }]);
    const here = decideLink(links, at('PROJ-5'), tickets);
    const recent = [
      { activityID: 'D', activityName: 'Docs' },
      { activityID: 'P5', activityName: 'PROJ-5' },
    ];
    assert.deepEqual(
      withLinkedFirst(here, recent, []).map((activity) => activity.activityID),
      ['P5', 'D'],
    );
    assert.deepEqual(
      withLinkedFirst(here, recent.slice(0, 1), [{ activityID: 'P5', activityName: 'proj-5' }]).map(
        (activity) => activity.activityID,
      ),
      ['P5', 'D'],
      'known from an answer',
    );
    assert.deepEqual(
      withLinkedFirst(here, recent.slice(0, 1), []).map((activity) => activity.activityID),
      ['D'],
      'a name alone is no entry',
    );
    assert.deepEqual(
      withLinkedFirst(undefined, recent, []).map((activity) => activity.activityID),
      ['D', 'P5'],
    );
  });
});
