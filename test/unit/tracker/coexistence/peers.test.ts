import assert from 'node:assert/strict';
import {
  besideSentences,
  readSaid,
  recognizePeers,
  reportingPeer,
  type Peer,
  type PeerDoing,
} from '../../../../src/tracker/coexistence/peers';

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
const doing = (peer: Peer, reportsBranches: boolean, showsActivity = true): PeerDoing => ({
  peer,
  reportsBranches,
  showsActivity,
});

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

    it('reads only the status bar switches its manifest declares', () => {
      const [peer] = recognizePeers([{ id: NOWDOING.id, packageJSON: manifest('nowdoing', ['enabled']) }], OWN_ID);
      assert.deepEqual(peer?.activitySettings, []);
    });

    it('reads a manifest whose configuration is a list of blocks', () => {
      const packageJSON = { contributes: { configuration: [manifest('nowdoing').contributes.configuration] } };
      assert.equal(recognizePeers([{ id: NOWDOING.id, packageJSON }], OWN_ID).length, 1);
    });
  });

  describe('reportingPeer', () => {
    it('is the app’s extension that reports branch switches, so this one steps aside', () => {
      assert.equal(reportingPeer([doing(clessira, false), doing(nowdoing, true)], false), nowdoing);
    });

    it('is none where the other’s reports are off, or none is installed', () => {
      assert.equal(reportingPeer([doing(nowdoing, false)], false), undefined);
      assert.equal(reportingPeer([], false), undefined);
    });

    it('is none when the user’s own reportBranchChanges is "always": both report', () => {
      assert.equal(reportingPeer([doing(nowdoing, true)], true), undefined);
    });
  });

  describe('besideSentences', () => {
    it('says once that the other reports branch switches, and once that both show in the status bar', () => {
      const first = besideSentences({ reporting: nowdoing, wouldReport: true, showing: nowdoing, said: {} });
      assert.deepEqual(
        first.sentences.map(({ topic }) => topic),
        ['branches', 'statusBar'],
      );
      assert.match(first.sentences[0]?.text ?? '', /NowDoing\.nowdoing-vscode\) reports branch switches.*"always"/);
      assert.match(first.sentences[1]?.text ?? '', /status bar too\. To hide either item, right-click the status bar/);
      assert.deepEqual(first.said, { branches: nowdoing.id, statusBar: nowdoing.id });
      const again = besideSentences({ reporting: nowdoing, wouldReport: true, showing: nowdoing, said: first.said });
      assert.deepEqual(again.sentences, []);
      assert.deepEqual(again.said, first.said);
    });

    it('says nothing of branches where this extension would not report anyway', () => {
      const said = besideSentences({ reporting: nowdoing, wouldReport: false, showing: undefined, said: {} });
      assert.deepEqual(said, { sentences: [], said: {} });
    });

    it('says it again of another of the app’s extensions', () => {
      const said = { branches: nowdoing.id, statusBar: nowdoing.id };
      const next = besideSentences({ reporting: clessira, wouldReport: true, showing: undefined, said });
      assert.deepEqual(
        next.sentences.map(({ topic }) => topic),
        ['branches'],
      );
      assert.deepEqual(next.said, { branches: clessira.id, statusBar: nowdoing.id });
    });

    it('reads back only what it wrote', () => {
      assert.deepEqual(readSaid({ branches: 'a', statusBar: 7, other: 'x' }), { branches: 'a' });
      for (const value of [undefined, null, 'text', 3]) assert.deepEqual(readSaid(value), {});
    });
  });
});
