import assert from 'node:assert/strict';
import { ticketKeys } from '../../../../src/tracker/branchTime/ticketKeys';
import {
  isPattern,
  placeLink,
  withException,
  withoutLink,
  type WrittenLink,
} from '../../../../src/tracker/links/linkEdits';
import { decideLink, parseLinks } from '../../../../src/tracker/links/links';

const tickets = ticketKeys([]);
const none = (): boolean => false;
const decides = (list: unknown[], branch: string, on: 'switch' | 'open' = 'switch'): string | undefined =>
  decideLink(parseLinks(list).links, { folders: ['/work/acme-web'], branch }, tickets, on)?.activity;

describe('tracker/links/linkEdits', () => {
  it('tells a pattern from a plain name', () => {
    assert.equal(isPattern('fix/**'), true);
    assert.equal(isPattern('release/?.0'), true);
    assert.equal(isPattern('fix/PROJ-123-login'), false);
    assert.equal(isPattern('client\\?'), false, 'a folder named client? as Link This Folder writes it');
    assert.equal(isPattern('notes\\**'), true, 'an escaped star, then a wildcard');
  });

  it('puts a new folder link after every branch link, so that it shadows none', () => {
    const list = [
      { branch: 'fix/**', activity: '{ticket}' },
      { folder: 'old', activity: 'Old' },
    ];
    const placed = placeLink(list, { folder: 'acme-web', activity: 'Write docs' }, none);
    assert.deepEqual(placed, [list[0], { folder: 'acme-web', activity: 'Write docs' }, list[1]]);
    assert.equal(decides(placed, 'fix/PROJ-123-x'), 'PROJ-123');
    assert.equal(decides(placed, 'main', 'open'), 'Write docs');
  });

  it('puts a new exact branch link first, before a broader pattern', () => {
    const list = [
      { branch: 'fix/**', activity: '{ticket}' },
      { folder: 'acme-web', activity: 'Docs' },
    ];
    const placed = placeLink(list, { branch: 'fix/PROJ-7-x', activity: 'Special' }, none);
    assert.deepEqual(placed[0], { branch: 'fix/PROJ-7-x', activity: 'Special' });
    assert.equal(decides(placed, 'fix/PROJ-7-x'), 'Special');
    assert.equal(decides(placed, 'fix/PROJ-8-y'), 'PROJ-8');
  });

  it('puts a new pattern after the exact branch links and before the patterns there', () => {
    const list: unknown[] = [
      { branch: 'fix/PROJ-7-x', activity: 'Special' },
      { branch: '**', activity: 'Other {ticket}' },
      'not a link',
      { folder: 'f', activity: 'F' },
    ];
    const link: WrittenLink = { branch: 'fix/**', activity: '{ticket}' };
    const placed = placeLink(list, link, none);
    assert.deepEqual(placed, [list[0], link, list[1], 'not a link', list[3]]);
    assert.equal(decides(placed, 'fix/PROJ-7-x'), 'Special', 'the exact link is not shadowed');
    assert.equal(decides(placed, 'fix/PROJ-8-y'), 'PROJ-8', 'the new pattern acts on the branch it was made on');
    assert.deepEqual(
      placeLink(
        [
          { branch: 'a', activity: 'A' },
          { folder: 'f', activity: 'F' },
        ],
        link,
        none,
      ),
      [{ branch: 'a', activity: 'A' }, link, { folder: 'f', activity: 'F' }],
    );
  });

  it('replaces the entries it is told to, and keeps every other as written', () => {
    const list = [
      { branch: 'b', activity: 'Old' },
      { branch: 'c', activity: 'C', group: 'G' },
    ];
    assert.deepEqual(
      placeLink(list, { branch: 'b', activity: 'New' }, (entry) => entry.branch === 'b'),
      [{ branch: 'b', activity: 'New' }, list[1]],
    );
  });

  it('removes one link, or leaves one branch out of a pattern once', () => {
    const list = [
      { branch: 'a', activity: 'A' },
      { branch: 'fix/**', activity: '{ticket}', createIfMissing: true },
    ];
    assert.deepEqual(withoutLink(list, 2), [list[0]]);
    const excepted = withException(list, 2, 'fix/PROJ-1-x');
    assert.deepEqual(excepted, [
      list[0],
      { branch: 'fix/**', activity: '{ticket}', createIfMissing: true, except: ['fix/PROJ-1-x'] },
    ]);
    assert.deepEqual(withException(excepted, 2, 'fix/PROJ-1-x'), excepted, 'once');
    assert.equal(decides(excepted, 'fix/PROJ-1-x'), undefined);
    assert.equal(decides(excepted, 'fix/PROJ-2-y'), 'PROJ-2');
    assert.deepEqual(
      list[1],
      { branch: 'fix/**', activity: '{ticket}', createIfMissing: true },
      'the list read is not changed',
    );
  });
});
