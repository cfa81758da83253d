import assert from 'node:assert/strict';
import { recognizePeers, type Peer } from '../../../../src/tracker/coexistence/peers';
import {
  coexistenceQuestions,
  peerKey,
  readRemembered,
  remember,
  showsActivity,
  type Doing,
  type Question,
  type PeerFacts,
  type Remembered,
} from '../../../../src/tracker/coexistence/questions';

const OWN_ID = 'clessira-tools.clessira-time-tracker';

/** The manifest's settings of the app's own extension, as version 0.8.0 declares them. */
function manifest(section: string, names = ['enabled', 'debounceMs', 'showCurrentActivity', 'showElapsedTime']) {
  return {
    contributes: {
      configuration: {
        properties: Object.fromEntries(names.map((name) => [`${section}.${name}`, { type: 'boolean' }])),
      },
    },
  };
}

const NOWDOING = { id: 'NowDoing.nowdoing-vscode', packageJSON: manifest('nowdoing') };
const CLESSIRA = { id: 'Clessira.clessira-vscode', packageJSON: manifest('clessira') };
const [nowdoing] = recognizePeers([NOWDOING], OWN_ID) as [Peer];
const [clessira] = recognizePeers([CLESSIRA], OWN_ID) as [Peer];

const both: Doing = { reportsBranches: true, showsActivity: true };
const facts = (peer: Peer, doing: Partial<Doing> = {}): PeerFacts => ({ peer, ...both, ...doing });

describe('tracker/coexistence: the app’s own extension beside this one', () => {
  describe('recognizePeers', () => {
    it('knows NowDoing.nowdoing-vscode and its documented settings', () => {
      assert.deepEqual(nowdoing, {
        id: 'NowDoing.nowdoing-vscode',
        branchSetting: 'nowdoing.enabled',
        activitySettings: ['nowdoing.showCurrentActivity', 'nowdoing.showElapsedTime'],
      });
    });

    it('knows the Clessira publisher’s by its manifest, whatever its name, with the clessira.* settings', () => {
      assert.deepEqual(clessira, {
        id: 'Clessira.clessira-vscode',
        branchSetting: 'clessira.enabled',
        activitySettings: ['clessira.showCurrentActivity', 'clessira.showElapsedTime'],
      });
      const renamed = recognizePeers([{ id: 'clessira.clessira', packageJSON: manifest('clessira') }], OWN_ID);
      assert.deepEqual(
        renamed.map((peer) => peer.id),
        ['clessira.clessira'],
      );
    });

    it('ignores this extension, other publishers, and a manifest without the branch switch', () => {
      const found = recognizePeers(
        [
          { id: OWN_ID, packageJSON: manifest('clessira') },
          { id: 'someone.nowdoing-vscode', packageJSON: manifest('nowdoing') },
          { id: 'NowDoing.other', packageJSON: manifest('nowdoing', ['showCurrentActivity']) },
          { id: 'NowDoing.broken', packageJSON: { contributes: 'nothing' } },
          { id: 'NowDoing.none', packageJSON: undefined },
        ],
        OWN_ID,
      );
      assert.deepEqual(found, []);
    });

    it('writes only the status bar switches its manifest declares', () => {
      const [peer] = recognizePeers([{ id: NOWDOING.id, packageJSON: manifest('nowdoing', ['enabled']) }], OWN_ID);
      assert.deepEqual(peer?.activitySettings, []);
    });

    it('reads a manifest whose configuration is a list of blocks', () => {
      const packageJSON = { contributes: { configuration: [manifest('nowdoing').contributes.configuration] } };
      assert.equal(recognizePeers([{ id: NOWDOING.id, packageJSON }], OWN_ID).length, 1);
    });
  });

  describe('coexistenceQuestions: the decision table', () => {
    const topics = (ours: Doing, peers: PeerFacts[], remembered: Remembered = {}) =>
      coexistenceQuestions({ ours, peers, remembered }).map((question) => question.topic);

    // [our branch reports, our activity in the status bar, theirs, theirs] → the topics asked about
    const table: readonly (readonly [boolean, boolean, boolean, boolean, readonly string[]])[] = [
      [true, true, true, true, ['branches', 'statusBar']],
      [true, true, true, false, ['branches']],
      [true, true, false, true, ['statusBar']],
      [true, true, false, false, []],
      [false, true, true, true, ['statusBar']],
      [true, false, true, true, ['branches']],
      [false, false, true, true, []],
      [false, true, true, false, []],
      [true, false, false, true, []],
    ];
    for (const [ourBranches, ourActivity, theirBranches, theirActivity, asked] of table) {
      it(`ours ${ourBranches ? 'reports' : 'is silent'}/${ourActivity ? 'shows' : 'hides'}, theirs ${theirBranches ? 'reports' : 'is silent'}/${theirActivity ? 'shows' : 'hides'} → ${asked.join(' and ') || 'nothing'}`, () => {
        const ours = { reportsBranches: ourBranches, showsActivity: ourActivity };
        const peer = facts(nowdoing, { reportsBranches: theirBranches, showsActivity: theirActivity });
        assert.deepEqual(topics(ours, [peer]), asked);
      });
    }

    it('says nothing when only this extension is installed', () => {
      assert.deepEqual(topics(both, []), []);
    });

    it('says nothing about a topic answered for the same extensions, whatever the answer', () => {
      const key = peerKey([nowdoing]);
      for (const answer of ['ours', 'theirs', 'dismissed'] as const) {
        assert.deepEqual(topics(both, [facts(nowdoing)], { branches: { answer, peers: key } }), ['statusBar']);
        assert.deepEqual(topics(both, [facts(nowdoing)], { statusBar: { answer, peers: key } }), ['branches']);
      }
    });

    it('asks again once the set of the app’s extensions changed', () => {
      const remembered: Remembered = { branches: { answer: 'ours', peers: peerKey([nowdoing]) } };
      assert.deepEqual(topics(both, [facts(nowdoing), facts(clessira, { reportsBranches: false })], remembered), [
        'branches',
        'statusBar',
      ]);
    });
  });

  describe('the questions’ words and writes', () => {
    const [branches, statusBar] = coexistenceQuestions({ ours: both, peers: [facts(nowdoing)], remembered: {} }) as [
      Question,
      Question,
    ];

    it('asks about branches in one sentence with two choices, writing each side’s own setting', () => {
      assert.equal(
        branches.message,
        "The app's own extension (NowDoing.nowdoing-vscode) reports branch switches too, so the app would ask you twice after each: which one should report them?",
      );
      assert.deepEqual(branches.choices, [
        {
          label: 'Let Clessira Time Tracker report branches',
          answer: 'ours',
          writes: [{ key: 'nowdoing.enabled', value: false }],
        },
        {
          label: "Keep the app's extension for branches",
          answer: 'theirs',
          writes: [{ key: 'timeTracker.git.reportBranchChanges', value: false }],
        },
      ]);
    });

    it('asks about the status bar the same way', () => {
      assert.deepEqual(statusBar.choices, [
        {
          label: 'Let Clessira Time Tracker show the activity',
          answer: 'ours',
          writes: [
            { key: 'nowdoing.showCurrentActivity', value: false },
            { key: 'nowdoing.showElapsedTime', value: false },
          ],
        },
        {
          label: "Keep the app's extension for the activity",
          answer: 'theirs',
          writes: [{ key: 'timeTracker.statusBar.format', value: '{today}' }],
        },
      ]);
    });

    it('names and turns off only the extensions that do it too', () => {
      const [question] = coexistenceQuestions({
        ours: both,
        peers: [facts(clessira, { showsActivity: false }), facts(nowdoing)],
        remembered: {},
      });
      assert.match(question?.message ?? '', /\(Clessira\.clessira-vscode, NowDoing\.nowdoing-vscode\)/);
      assert.deepEqual(question?.choices[0].writes, [
        { key: 'clessira.enabled', value: false },
        { key: 'nowdoing.enabled', value: false },
      ]);
    });
  });

  describe('remembering', () => {
    const [question] = coexistenceQuestions({ ours: both, peers: [facts(nowdoing)], remembered: {} });

    it('keeps a choice and a dismissal, each with the extensions it was about', () => {
      if (question === undefined) assert.fail('no question');
      assert.deepEqual(remember({}, question, question.choices[1]), {
        branches: { answer: 'theirs', peers: 'nowdoing.nowdoing-vscode' },
      });
      assert.deepEqual(remember({}, question, undefined), {
        branches: { answer: 'dismissed', peers: 'nowdoing.nowdoing-vscode' },
      });
    });

    it('reads back only what has the shape written', () => {
      const kept = { branches: { answer: 'ours', peers: 'a' }, statusBar: { answer: 'maybe', peers: 'a' } };
      assert.deepEqual(readRemembered(kept), { branches: { answer: 'ours', peers: 'a' } });
      for (const odd of [undefined, null, 'x', 3, { branches: 'ours' }, { statusBar: { answer: 'ours' } }])
        assert.deepEqual(readRemembered(odd), {});
    });
  });

  describe('showsActivity: our item with the activity’s name or time', () => {
    it('follows the format and the private status bar', () => {
      assert.equal(showsActivity('{activity} {elapsed} · {today}', false), true);
      assert.equal(showsActivity('{elapsed}', false), true);
      assert.equal(showsActivity('{today}', false), false);
      assert.equal(showsActivity('{group} {branchToday}', false), false);
      assert.equal(showsActivity('{activity}', true), false);
    });
  });
});
