/**
 * The activity picker alone (src/extension/pickers/activityPicker.ts), with a real client of the
 * reference server, known activities kept in a record the test reads, and the window's quick pick
 * answered as a user typing and picking would (../wizardAnswers.ts): what it searches, what it
 * answers, what it keeps, and that it sends nothing while a search may not be signed.
 */
import * as assert from 'node:assert/strict';
import { ServiceClient } from '../../../../src/client';
import { pickActivity, type PickerOptions } from '../../../../src/extension/pickers/activityPicker';
import { ENDPOINTS } from '../../../../src/protocol/types';
import { KnownActivities, type KnownRecord } from '../../../../src/tracker/pickers/activityPicks';
import { withWizardAnswers, type PickerSeen } from '../wizardAnswers';
import { useReferenceApp } from './sessionFakes';

const TOKEN = 'activity-picker-part-token-5f90';
const PLACEHOLDER = 'Pick or type an activity';

describe('parts: activityPicker', function () {
  this.timeout(20_000);
  const app = useReferenceApp({ token: TOKEN, seedActivities: ['Deploy Release', 'Review'] });
  let saved: KnownRecord[];
  let errors: unknown[];

  const optionsWith = (known: KnownActivities, maySearch = true): PickerOptions => ({
    title: 'Start Tracking',
    placeholder: PLACEHOLDER,
    recent: [],
    known,
    running: () => undefined,
    maySearch: () => maySearch,
    appAnswers: () => true,
    licenseLocked: () => false,
    createsWhenSent: false,
    onError: (error) => errors.push(error),
  });
  const searches = (): number => app.requests.filter((path) => path === ENDPOINTS.search.path).length;

  beforeEach(() => {
    saved = [];
    errors = [];
    app.requests.length = 0;
  });

  it('searches as the user types, answers the activity picked and keeps what the app named', async () => {
    const known = new KnownActivities({ save: (record) => saved.push(record) });
    const client = new ServiceClient({ token: TOKEN, port: app.port });

    // A letter each 300 ms, past the picker's 250 ms pause in typing: each letter's search goes out.
    const pick = await withWizardAnswers(
      { pick: 'Deploy Release', typed: [], pickerTyping: { text: 'De', keystrokeMs: 300 } },
      () => pickActivity(client, optionsWith(known)),
    );

    assert.ok(pick?.kind === 'existing', JSON.stringify(pick));
    assert.equal(pick.activity.activityName, 'Deploy Release');
    assert.ok(searches() >= 2 && searches() <= 3, `one search at opening, one a letter: ${app.requests.join(', ')}`);
    assert.ok(
      saved.some((record) => record.activities.some((activity) => activity.activityName === 'Deploy Release')),
      'the named activity is kept for the next picker',
    );
    assert.deepEqual(errors, []);
  });

  it('offers to create a name the app does not know', async () => {
    const client = new ServiceClient({ token: TOKEN, port: app.port });

    const pick = await withWizardAnswers(
      { pick: '$(add) Create “Brand New”', typed: [], pickerTyping: { text: 'Brand New', keystrokeMs: 5 } },
      () => pickActivity(client, optionsWith(new KnownActivities())),
    );

    assert.deepEqual(pick, { kind: 'create', name: 'Brand New' });
  });

  it('while a search may not be signed, sends none, says why in itself and offers what is known', async () => {
    const known = new KnownActivities();
    known.remember([{ activityID: 'known-1', activityName: 'Known Work' }]);
    const client = new ServiceClient({ token: TOKEN, port: app.port });
    const seen: PickerSeen[] = [];

    // Typed slower than the pause in typing, so that any search the picker sent would be answered before it closes.
    const pick = await withWizardAnswers(
      { pick: 'Known Work', typed: [], seen, pickerTyping: { text: 'Kn', keystrokeMs: 300 } },
      () => pickActivity(client, optionsWith(known, false)),
    );

    assert.ok(pick?.kind === 'existing' && pick.activity.activityID === 'known-1', JSON.stringify(pick));
    assert.equal(searches(), 0, app.requests.join(', '));
    // The reason in the title, read whole; what to do in the placeholder.
    const opened = seen[0]?.opened;
    assert.equal(opened?.title, 'Start Tracking · Not searching while the app refuses requests');
    assert.match(opened.placeholder ?? '', /^These are the activities it named at /);
  });
});
