import assert from 'node:assert/strict';
import { ticketKeys } from '../../../../src/tracker/branchTime/ticketKeys';
import {
  consentQuestion,
  gateAt,
  linkFingerprint,
  linkStanding,
  NO_CONSENT,
  readConsent,
  withAnswer,
  withOwnLink,
  type ScopedLinks,
} from '../../../../src/tracker/links/linkConsent';
import { parseLinks, type Place } from '../../../../src/tracker/links/links';

const tickets = ticketKeys([]);
const at = (branch: string | undefined, folder = '/work/acme-web'): Place => ({ folders: [folder], branch });
const sources = (workspace: unknown[], user: unknown[] = []): ScopedLinks[] => [
  { scope: 'workspace', links: parseLinks(workspace).links },
  { scope: 'user', links: parseLinks(user).links },
];
const decided = (gate: ReturnType<typeof gateAt>): [string, string] | undefined =>
  gate.kind === 'none' ? undefined : [gate.kind, gate.decision.activity];
const REPOSITORY_LINK = { branch: '**', activity: '{ticket}', createIfMissing: true };

describe('tracker/links/linkConsent', () => {
  it("leaves an untrusted workspace's links out: they neither act nor ask; the user's own act", () => {
    const scoped = sources([REPOSITORY_LINK], [{ folder: 'acme-web', activity: 'Acme' }]);
    const used = withAnswer(NO_CONSENT, [REPOSITORY_LINK], 'use');
    for (const consent of [NO_CONSENT, used]) {
      const standing = linkStanding(scoped, { trusted: false, consent, putOff: false });
      assert.deepEqual(standing.unanswered, []);
      assert.deepEqual(
        standing.usable.map(({ activity }) => activity),
        ['Acme'],
      );
      const gate = gateAt(scoped, standing, at('feature/PROJ-1'), tickets, 'open');
      assert.equal(
        gate.kind === 'act' && gate.decision.activity,
        'Acme',
        'the repository link would have decided first',
      );
    }
  });

  it("asks before a trusted workspace's link acts, and never about the user's own", () => {
    const scoped = sources([REPOSITORY_LINK], [{ branch: 'main', activity: 'Upkeep' }]);
    const standing = linkStanding(scoped, { trusted: true, consent: NO_CONSENT, putOff: false });
    assert.equal(standing.unanswered.length, 1);
    const gate = gateAt(scoped, standing, at('feature/PROJ-2'), tickets, 'switch');
    assert.deepEqual(gate.kind === 'none' ? undefined : [gate.kind, gate.decision.activity], ['ask', 'PROJ-2']);
    assert.equal(
      gateAt(scoped, standing, at('main'), tickets, 'switch').kind,
      'act',
      "the user's own link acts at once",
    );
    assert.equal(gateAt(scoped, standing, at('no-ticket'), tickets, 'switch').kind, 'none');
  });

  it('on a switch, lets a branch link decide (or ask) whatever folder link stands before it, and a folder link never', () => {
    const scoped = sources([REPOSITORY_LINK], [{ folder: 'acme-web', activity: 'Acme' }]);
    const standing = linkStanding(scoped, { trusted: true, consent: NO_CONSENT, putOff: false });
    const onlyFolder = sources(
      [],
      [
        { folder: 'acme-web', activity: 'Acme' },
        { branch: 'fix/**', activity: '{ticket}' },
      ],
    );
    const theUsers = linkStanding(onlyFolder, { trusted: true, consent: NO_CONSENT, putOff: false });
    assert.deepEqual(decided(gateAt(onlyFolder, theUsers, at('fix/PROJ-123-x'), tickets, 'switch')), [
      'act',
      'PROJ-123',
    ]);
    assert.deepEqual(
      decided(gateAt(onlyFolder, theUsers, at('main'), tickets, 'switch')),
      undefined,
      'a folder link never decides a switch',
    );
    assert.deepEqual(
      decided(gateAt(onlyFolder, theUsers, at('main'), tickets, 'open')),
      ['act', 'Acme'],
      'it acts when the window opens',
    );
    assert.deepEqual(
      decided(gateAt(scoped, standing, at('feature/PROJ-4'), tickets, 'open')),
      ['ask', 'PROJ-4'],
      "the repository's branch link beats the user's folder link",
    );
  });

  it('acts once the user said Use, never once refused, and not after Not Now in this window', () => {
    const scoped = sources([REPOSITORY_LINK]);
    const use = linkStanding(scoped, {
      trusted: true,
      consent: withAnswer(NO_CONSENT, [REPOSITORY_LINK], 'use'),
      putOff: false,
    });
    assert.equal(gateAt(scoped, use, at('feature/PROJ-3'), tickets, 'switch').kind, 'act');
    const refused = linkStanding(scoped, {
      trusted: true,
      consent: withAnswer(NO_CONSENT, [REPOSITORY_LINK], 'refuse'),
      putOff: false,
    });
    assert.equal(gateAt(scoped, refused, at('feature/PROJ-3'), tickets, 'switch').kind, 'none');
    const later = linkStanding(scoped, { trusted: true, consent: NO_CONSENT, putOff: true });
    assert.equal(gateAt(scoped, later, at('feature/PROJ-3'), tickets, 'switch').kind, 'none');
  });

  it('asks again about a link the repository changed, and keeps the answer by what a link says, not where it stands', () => {
    const consent = withAnswer(NO_CONSENT, [REPOSITORY_LINK], 'use');
    const changed = sources([
      { folder: 'docs', activity: 'Docs' },
      { ...REPOSITORY_LINK, createIfMissing: false },
    ]);
    const standing = linkStanding(changed, { trusted: true, consent, putOff: false });
    assert.equal(standing.unanswered.length, 2, 'createIfMissing turned off is another link');
    const moved = sources([{ folder: 'docs', activity: 'Docs' }, REPOSITORY_LINK]);
    assert.deepEqual(
      linkStanding(moved, { trusted: true, consent, putOff: false }).usable.map(({ activity }) => activity),
      ['{ticket}'],
    );
    assert.equal(
      linkFingerprint({ branch: 'x', activity: 'A' }),
      linkFingerprint(parseLinks([{ branch: ' x ', activity: 'A', createIfMissing: false }]).links[0]!),
    );
  });

  it("asks again when the repository widens a link's except, or reorders the links of a kind", () => {
    const guarded = { branch: 'feature/*', activity: 'Features', except: ['feature/payroll'] };
    const consent = withAnswer(NO_CONSENT, parseLinks([guarded]).links, 'use');
    const standing = (workspace: unknown[]): ReturnType<typeof linkStanding> =>
      linkStanding(sources(workspace), { trusted: true, consent, putOff: false });
    assert.equal(standing([guarded]).usable.length, 1, 'as answered');
    assert.equal(standing([{ ...guarded, except: [] }]).unanswered.length, 1, 'the except dropped');
    assert.equal(standing([{ ...guarded, except: ['feature/pay*'] }]).unanswered.length, 1, 'the except changed');

    const list = [
      { branch: 'main', activity: 'Maintenance' },
      { branch: '**', activity: 'Everything' },
    ];
    const ordered = withAnswer(NO_CONSENT, parseLinks(list).links, 'use');
    const reordered = linkStanding(sources([list[1], list[0]]), { trusted: true, consent: ordered, putOff: false });
    assert.deepEqual(
      reordered.unanswered.map(({ activity }) => activity),
      ['Everything', 'Maintenance'],
      '** now decides on main: both asked again',
    );
    const without = linkStanding(sources([list[1]]), { trusted: true, consent: ordered, putOff: false });
    assert.deepEqual(
      without.unanswered.map(({ activity }) => activity),
      ['Everything'],
      'the link before it removed: ** decides where it did not',
    );
  });

  it("keeps the answers about a repository's links when the user writes a link of their own among them", () => {
    const repository = [
      { branch: 'main', activity: 'Maintenance' },
      { branch: '**', activity: 'Everything' },
    ];
    const consent = withAnswer(NO_CONSENT, parseLinks(repository).links, 'use');
    const mine = { branch: 'fix/PROJ-1', activity: 'PROJ-1' };
    const after = withOwnLink(consent, repository, [mine, ...repository], mine);
    assert.deepEqual(
      linkStanding(sources([mine, ...repository]), { trusted: true, consent: after, putOff: false }).usable.map(
        ({ activity }) => activity,
      ),
      ['PROJ-1', 'Maintenance', 'Everything'],
    );
    const refused = withOwnLink(
      withAnswer(NO_CONSENT, parseLinks(repository).links, 'refuse'),
      repository,
      [mine, ...repository],
      mine,
    );
    const standing = linkStanding(sources([mine, ...repository]), { trusted: true, consent: refused, putOff: false });
    assert.deepEqual(
      standing.usable.map(({ activity }) => activity),
      ['PROJ-1'],
    );
    assert.deepEqual(standing.unanswered, [], 'the refused stay refused');
  });

  it('reads what a workspace state holds, and moves an answered link from one list to the other', () => {
    assert.deepEqual(readConsent(undefined), NO_CONSENT);
    assert.deepEqual(readConsent({ used: ['a', 3], refused: 'b' }), { used: ['a'], refused: [] });
    const used = withAnswer(NO_CONSENT, [REPOSITORY_LINK], 'use');
    const refused = withAnswer(used, [REPOSITORY_LINK], 'refuse');
    assert.deepEqual(refused, { used: [], refused: [linkFingerprint(REPOSITORY_LINK)] });
    const many = Array.from({ length: 500 }, (_, index) => ({ folder: `f${index}`, activity: 'A' }));
    assert.equal(withAnswer(NO_CONSENT, many, 'use').used.length, 200, 'bounded');
  });

  it('names what the links do in the question: the places, the activities, and that they may create activities', () => {
    assert.equal(
      consentQuestion([REPOSITORY_LINK]),
      'This repository links its branches to activities (branch ** → {ticket}), which start tracking without asking, and may create activities in your app. Use its links?',
    );
    const four = [
      { folder: 'api', activity: 'Backend', group: 'Acme' },
      { branch: 'release/*', activity: 'Release' },
      { folder: 'web', activity: 'Web' },
      { folder: 'ops', activity: 'Ops' },
    ];
    assert.equal(
      consentQuestion(four),
      'This repository links its folders and branches to activities (folder api → Backend (Acme); branch release/* → Release; folder web → Web and 1 more), which start tracking without asking. Use its links?',
    );
    const hostile = consentQuestion([{ folder: 'x', activity: `a\u202Eb\n${'c'.repeat(100)}` }]);
    assert.ok(!/[\u202E\n]/.test(hostile), hostile);
    assert.ok(hostile.includes('…'), 'cut short');
  });
});
