import assert from 'node:assert/strict';
import {
  buildActivityPicks,
  KnownActivities,
  learnedAtLabel,
  MAX_KNOWN,
  MAX_RECENT,
  namedFirst,
  newNameLabel,
  pickerNotice,
  rememberRecent,
  typedTooLong,
  type KnownRecord,
  type PickerSituation,
} from '../../../../src/tracker/pickers/activityPicks';

const ref = (id: string, name: string): { activityID: string; activityName: string } => ({
  activityID: id,
  activityName: name,
});
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
    assert.equal(
      buildActivityPicks('DOCS', [docs], []).some((pick) => pick.kind === 'create'),
      false,
    );
    assert.deepEqual(buildActivityPicks('', [], []), []);
  });

  it('puts the activity of the very name typed first (trimmed, any case, as the app matches names), for Log Time to say where the entry lands', () => {
    const codeReview = ref('7', 'Code review');
    const picks = buildActivityPicks(
      ' code REVIEW ',
      [ref('8', 'Code review notes'), codeReview],
      [ref('8', 'Code review notes')],
    );
    const { picks: ordered, named } = namedFirst(picks, ' code REVIEW ');
    assert.deepEqual(named, { kind: 'existing', activity: codeReview, recent: false });
    assert.deepEqual(ordered[0], named);
    assert.equal(ordered.length, picks.length);
    assert.equal(
      ordered.some((pick) => pick.kind === 'create'),
      false,
    );
    assert.equal(
      namedFirst(buildActivityPicks('Code', [codeReview], []), 'Code').named,
      undefined,
      'a name only part of one is not it',
    );
    assert.equal(namedFirst(picks, '').named, undefined);
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
      picks.map((pick) =>
        pick.kind === 'existing'
          ? `${pick.activity.activityName} (${String(pick.activity.groupName)})${pick.recent ? ' recent' : ''}`
          : pick.name,
      ),
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
    assert.deepEqual(
      known.matching('deploy').map((activity) => activity.activityName),
      ['Deploy', 'Deploy docs', 'Redeploy'],
    );
    // Offered while the app may not be asked: a known name is not offered for creation again.
    assert.equal(
      buildActivityPicks('Deploy', known.matching('Deploy'), []).some((pick) => pick.kind === 'create'),
      false,
    );
    for (let i = 0; i < MAX_KNOWN + 10; i++) known.remember([ref(`k${i}`, `Known ${i}`)]);
    assert.deepEqual(known.matching('Docs renamed'), [], 'the oldest are forgotten');
  });

  it('offers Create only for a name nothing listed has: known from memory or recent, in any case, with spaces around', () => {
    const known = new KnownActivities({ stored: { learnedAtMs: 1, activities: [ref('7', 'Code review')] } });
    const offline = (query: string, recent: readonly { activityID: string; activityName: string }[] = []): string[] =>
      buildActivityPicks(query, known.matching(query), recent).map((pick) =>
        pick.kind === 'create' ? `create ${pick.name}` : pick.activity.activityName,
      );
    assert.deepEqual(offline('  code REVIEW '), ['Code review']);
    assert.deepEqual(offline('design', [design]), ['Design']);
    assert.deepEqual(offline('Code'), ['Code review', 'create Code']);
  });

  it('lists the running activity first and marks it, with the group a recent entry knew', () => {
    const running = ref('9', 'Meetings');
    const picks = buildActivityPicks('', [docs], [design, { ...running, groupName: 'Work' }], running);
    assert.deepEqual(picks, [
      { kind: 'existing', activity: { ...running, groupName: 'Work' }, recent: true, running: true },
      { kind: 'existing', activity: design, recent: true },
      { kind: 'existing', activity: docs, recent: false },
    ]);
    // Running but never picked here: still listed, marked, and not offered for creation.
    assert.deepEqual(buildActivityPicks('MEETINGS', [], [], running), [
      { kind: 'existing', activity: running, recent: false, running: true },
    ]);
  });

  it('keeps the group a recent entry knew when the activity comes back without one', () => {
    const grouped = { ...docs, groupName: 'Work' };
    assert.deepEqual(rememberRecent([design, grouped], docs), [grouped, design]);
    assert.deepEqual(rememberRecent([grouped], { ...docs, groupName: null }), [{ ...docs, groupName: null }]);
  });

  it('keeps what answers named, with when, and reads it back', () => {
    const saved: KnownRecord[] = [];
    let now = 1_000;
    const known = new KnownActivities({ save: (record) => saved.push(record), now: () => now });
    assert.equal(known.learnedAtMs, undefined);
    known.remember([docs, design]);
    now = 2_000;
    known.remember([docs]);
    assert.equal(saved.length, 1, 'an answer that adds nothing is not written again');
    assert.equal(known.learnedAtMs, 2_000);
    known.remember([ref('1', 'Docs renamed')]);
    assert.equal(saved.length, 2, 'a renamed activity is written');
    const again = new KnownActivities({ stored: JSON.parse(JSON.stringify(saved.at(-1))) });
    assert.equal(again.learnedAtMs, 2_000);
    assert.deepEqual(again.matching('d'), [ref('1', 'Docs renamed'), design]);
    known.remember([]);
    assert.equal(saved.length, 2);
  });

  it('ignores a stored value of the wrong shape, keeps the good entries of a mixed one, and stays bounded', () => {
    for (const stored of [
      undefined,
      null,
      'x',
      42,
      [],
      {},
      { learnedAtMs: 'today', activities: [] },
      { learnedAtMs: 1, activities: 'Docs' },
      { learnedAtMs: Number.NaN, activities: [docs] },
    ]) {
      const known = new KnownActivities({ stored });
      assert.deepEqual(known.matching(''), [], JSON.stringify(stored));
      assert.equal(known.learnedAtMs, undefined);
    }
    const mixed = new KnownActivities({
      stored: {
        learnedAtMs: 5,
        activities: [
          null,
          1,
          { activityID: 2, activityName: 'Two' },
          { activityID: '3', activityName: '  ' },
          { ...docs, groupName: 7 },
          { ...design, groupName: 'Work', extra: true },
        ],
      },
    });
    assert.deepEqual(mixed.matching(''), [{ ...design, groupName: 'Work' }]);
    const many = Array.from({ length: MAX_KNOWN + 50 }, (_, i) => ref(`m${i}`, `Many ${i}`));
    const bounded = new KnownActivities({ stored: { learnedAtMs: 1, activities: many } });
    assert.deepEqual(bounded.matching('Many 249'), [], 'no more than MAX_KNOWN are read back');
    assert.equal(bounded.matching('Many 199').length, 1);
  });

  it('says why the list is what it is, with the time the app named it, each part in a line of its own', () => {
    assert.equal(pickerNotice({ kind: 'answering' }, false, '10:42', false), undefined, 'a fresh answer needs no word');
    assert.deepEqual(pickerNotice({ kind: 'answering' }, true, '10:42', false), {
      reason: undefined,
      placeholder: undefined,
      separator: 'as of 10:42',
    });
    assert.equal(pickerNotice({ kind: 'answering' }, true, undefined, false), undefined);
    assert.deepEqual(pickerNotice({ kind: 'notAnswering' }, true, '10:42', true), {
      reason: 'The app is not answering',
      placeholder: 'Activities as of 10:42; a new name is created when the entry is sent',
      separator: 'The app is not answering · as of 10:42',
    });
    assert.equal(
      pickerNotice({ kind: 'notAnswering' }, true, '10:42', false)?.placeholder,
      'These are the activities it named at 10:42',
    );
    assert.equal(
      pickerNotice({ kind: 'notAnswering' }, true, undefined, false)?.placeholder,
      'It has named no activities yet',
    );
    assert.deepEqual(pickerNotice({ kind: 'refusing' }, true, '10:42', true), {
      reason: 'Not searching while the app refuses requests',
      placeholder: 'These are the activities it named at 10:42',
      separator: 'Not searching · as of 10:42',
    });
    assert.deepEqual(pickerNotice({ kind: 'searchFailed', message: 'The app failed (500).' }, true, undefined, false), {
      reason: 'The search failed: The app failed (500).',
      placeholder: undefined,
      separator: 'The search failed',
    });
    // The quick input cuts a line at its width (about 80 characters of its font): the reason and the way on both fit.
    const situations: PickerSituation[] = [
      { kind: 'notAnswering' },
      { kind: 'refusing' },
      { kind: 'licenseLocked' },
      { kind: 'searchFailed', message: 'x' },
    ];
    for (const situation of situations)
      for (const learnedAt of ['10:42', '25/11/2026, 10:42', undefined])
        for (const creates of [true, false]) {
          const notice = pickerNotice(situation, true, learnedAt, creates);
          for (const line of [notice?.reason, notice?.placeholder])
            assert.ok((line ?? '').length <= 80, `${line} (${JSON.stringify(situation)}, ${learnedAt}, ${creates})`);
        }
  });

  it('refuses, as it is typed, a name longer than the app takes, and offers nothing that could only fail', () => {
    const long = 'x'.repeat(500);
    assert.equal(typedTooLong(long), 'At most 200 characters: 500 typed');
    assert.equal(typedTooLong(`  ${'x'.repeat(200)}  `), undefined, 'counted once trimmed, as the app counts');
    assert.equal(typedTooLong('😀'.repeat(200)), undefined, 'an emoji counts once');
    assert.equal(typedTooLong('😀'.repeat(201)), 'At most 200 characters: 201 typed');
    assert.deepEqual(buildActivityPicks(long, [], []), [], 'no Create for a name the app would refuse');
    assert.deepEqual(buildActivityPicks('x'.repeat(200), [], []), [{ kind: 'create', name: 'x'.repeat(200) }]);
  });

  it('says before the first step that the license is locked, and where a queued entry lands', () => {
    assert.deepEqual(pickerNotice({ kind: 'licenseLocked' }, true, undefined, true), {
      reason: 'The license is locked',
      placeholder: 'The entry is queued and sent once the license is activated in the app',
      separator: 'License locked',
    });
    assert.match(pickerNotice({ kind: 'licenseLocked' }, true, '10:42', false)?.placeholder ?? '', /^Not searching/);
    assert.equal(
      newNameLabel('code review', { kind: 'notAnswering' }, true),
      'Log to “code review” (matched by name when the app is back)',
    );
    assert.equal(
      newNameLabel('code review', { kind: 'licenseLocked' }, true),
      'Log to “code review” (matched by name once the license is activated)',
    );
    assert.equal(newNameLabel('code review', { kind: 'notAnswering' }, false), 'Create “code review”');
    assert.equal(newNameLabel('code review', { kind: 'answering' }, true), 'Create “code review”');
  });

  it('gives the time of day for today, the date too before today', () => {
    const at = new Date(2026, 10, 25, 10, 42).getTime();
    assert.equal(learnedAtLabel(at, at + 3_600_000, 'en-GB'), '10:42');
    assert.match(learnedAtLabel(at, at + 2 * 86_400_000, 'en-GB'), /^25\/11\/2026, 10:42$/);
  });
});
