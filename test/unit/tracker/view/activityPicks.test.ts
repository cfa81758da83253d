import assert from 'node:assert/strict';
import { buildActivityPicks, KnownActivities, MAX_KNOWN, MAX_RECENT, rememberRecent } from '../../../../src/tracker/view/activityPicks';

const ref = (id: string, name: string): { activityID: string; activityName: string } => ({ activityID: id, activityName: name });
const docs = ref('1', 'Docs');
const design = ref('2', 'Design');
const deploy = ref('3', 'Deploy');

describe('tracker/activityPicks', () => {
  it('puts matching recent activities first, then the service results, without repeats', () => {
    const picks = buildActivityPicks('d', [deploy, design, docs], [docs, ref('9', 'Meetings')]);
    assert.deepEqual(picks, [
      { kind: 'existing', activity: docs, recent: true },
      { kind: 'existing', activity: deploy, recent: false },
      { kind: 'existing', activity: design, recent: false },
      { kind: 'create', name: 'd' },
    ]);
  });

  it('offers to create a new name, but never one that exists in any case', () => {
    assert.deepEqual(buildActivityPicks('  Research ', [], []), [{ kind: 'create', name: 'Research' }]);
    assert.equal(buildActivityPicks('DOCS', [docs], []).some((pick) => pick.kind === 'create'), false);
    assert.deepEqual(buildActivityPicks('', [], []), []);
  });

  it('keeps the recent list short and the last used first', () => {
    let recent = [docs, design];
    recent = rememberRecent(recent, design);
    assert.deepEqual(recent, [design, docs]);
    for (let i = 0; i < 20; i++) recent = rememberRecent(recent, ref(`x${i}`, `X${i}`));
    assert.equal(recent.length, MAX_RECENT);
    assert.equal(recent[0]?.activityName, 'X19');
  });

  it('carries the group, from the answer also for a recent activity, and takes ids in either case as one', () => {
    const work = { activityID: 'e621e1f8-c36c-495a-93fc-0c247a3e6e5f', activityName: 'Review', groupName: 'Work' };
    const home = { activityID: '0B0F2B55-33A8-4E0D-9F7E-3A6C1B1D2E3F', activityName: 'Review', groupName: 'Home' };
    const recentWork = { activityID: work.activityID.toUpperCase(), activityName: 'Review' };
    const picks = buildActivityPicks('rev', [work, home], [recentWork]);
    assert.deepEqual(
      picks.map((pick) => (pick.kind === 'existing' ? `${pick.activity.activityName} (${String(pick.activity.groupName)})${pick.recent ? ' recent' : ''}` : pick.name)),
      ['Review (Work) recent', 'Review (Home)', 'rev'],
    );
    assert.deepEqual(rememberRecent([recentWork], work), [work], 'one activity, whatever the case of its id');
  });

  it('knows what earlier answers named, newest first, and lists those a query matches as the app orders them', () => {
    const known = new KnownActivities();
    known.remember([docs, design]);
    known.remember([deploy, ref('1', 'Docs renamed')]);
    assert.deepEqual(known.matching('d'), [deploy, ref('1', 'Docs renamed'), design]);
    assert.deepEqual(known.matching('DESIGN'), [design]);
    assert.deepEqual(known.matching('sign'), [design]);
    // An exact name comes first, then names starting with it, then the rest.
    known.remember([ref('4', 'Redeploy'), ref('5', 'Deploy docs')]);
    assert.deepEqual(known.matching('deploy').map((activity) => activity.activityName), ['Deploy', 'Deploy docs', 'Redeploy']);
    // Offered while the app may not be asked: a known name is not offered for creation again.
    assert.equal(buildActivityPicks('Deploy', known.matching('Deploy'), []).some((pick) => pick.kind === 'create'), false);
    for (let i = 0; i < MAX_KNOWN + 10; i++) known.remember([ref(`k${i}`, `Known ${i}`)]);
    assert.deepEqual(known.matching('Docs renamed'), [], 'the oldest are forgotten');
  });
});
