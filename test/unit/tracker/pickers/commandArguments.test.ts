/** Start's and Log Time's arguments from a keybinding: each good form as a request, each bad one as its sentence. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as l10n from '@vscode/l10n';
import {
  readCommandArguments,
  readLogArguments,
  readStartArguments,
} from '../../../../src/tracker/pickers/commandArguments';

describe('tracker/commandArguments', () => {
  describe('either command', () => {
    it('asks the user when there are no arguments, without reading them', () => {
      const read = (): never => assert.fail('no arguments were there to read');
      assert.deepEqual(readCommandArguments(undefined, read), { kind: 'none' });
    });

    it('gives the request the arguments make, or refuses them with their sentence', () => {
      assert.deepEqual(readCommandArguments({ name: 'Review' }, readStartArguments), {
        kind: 'given',
        request: { name: 'Review' },
      });
      assert.deepEqual(readCommandArguments({ activityID: 'A1', durationMinutes: 5 }, readLogArguments), {
        kind: 'given',
        request: { activityID: 'A1', durationMinutes: 5 },
      });
      assert.deepEqual(readCommandArguments(null, readStartArguments), {
        kind: 'refused',
        message: 'timeTracker.start takes { "name": "…", "createIfMissing": true } or { "activityID": "…" }.',
      });
      assert.deepEqual(readCommandArguments({ name: 'Review' }, readLogArguments), {
        kind: 'refused',
        message: 'timeTracker.log needs "durationMinutes" (a number of minutes, or text such as "1h30m").',
      });
    });
  });

  describe('Start', () => {
    it('reads a name, an id, and whether to create the activity', () => {
      assert.deepEqual(readStartArguments({ name: 'Review' }), { name: 'Review' });
      assert.deepEqual(readStartArguments({ name: 'Review', createIfMissing: true }), {
        name: 'Review',
        createIfMissing: true,
      });
      assert.deepEqual(readStartArguments({ activityID: 'A1B2' }), { activityID: 'A1B2' });
      // Fields it does not know are left behind, not sent on.
      assert.deepEqual(readStartArguments({ name: 'Review', colour: 'red' }), { name: 'Review' });
    });

    it('says which form it takes when the arguments are no object', () => {
      const sentence = 'timeTracker.start takes { "name": "…", "createIfMissing": true } or { "activityID": "…" }.';
      for (const args of ['Review', 42, null, true]) assert.equal(readStartArguments(args), sentence, String(args));
    });

    it('names the field that has the wrong type', () => {
      assert.equal(readStartArguments({ name: 7 }), 'timeTracker.start: "name" must be text.');
      assert.equal(readStartArguments({ activityID: 7 }), 'timeTracker.start: "activityID" must be text.');
      assert.equal(
        readStartArguments({ name: 'Review', createIfMissing: 'yes' }),
        'timeTracker.start: "createIfMissing" must be true or false.',
      );
    });

    it('needs a name that is not blank, or an id', () => {
      for (const args of [{}, { name: '  ' }, { createIfMissing: true }]) {
        assert.equal(readStartArguments(args), 'timeTracker.start needs "name" or "activityID".', JSON.stringify(args));
      }
    });
  });

  describe('Log Time', () => {
    it('reads minutes as a whole number or as a duration in text, and a note', () => {
      assert.deepEqual(readLogArguments({ name: 'Review', durationMinutes: 25 }), {
        name: 'Review',
        durationMinutes: 25,
      });
      assert.deepEqual(
        readLogArguments({ name: 'Review', durationMinutes: '1h30m', note: 'PR 7', createIfMissing: true }),
        {
          name: 'Review',
          createIfMissing: true,
          durationMinutes: 90,
          note: 'PR 7',
        },
      );
      assert.deepEqual(readLogArguments({ activityID: 'A1', durationMinutes: '1.33h' }), {
        activityID: 'A1',
        durationMinutes: 80,
      });
    });

    it('says which form it takes, naming Log Time', () => {
      assert.equal(
        readLogArguments('Review'),
        'timeTracker.log takes { "name": "…", "durationMinutes": 30, "note": "…" } or { "activityID": "…" }.',
      );
      assert.equal(readLogArguments({ durationMinutes: 5 }), 'timeTracker.log needs "name" or "activityID".');
    });

    it('refuses a missing, fractional or unreadable duration, and a note that is no text', () => {
      assert.equal(
        readLogArguments({ name: 'Review' }),
        'timeTracker.log needs "durationMinutes" (a number of minutes, or text such as "1h30m").',
      );
      assert.equal(
        readLogArguments({ name: 'Review', durationMinutes: true }),
        'timeTracker.log needs "durationMinutes" (a number of minutes, or text such as "1h30m").',
      );
      assert.equal(
        readLogArguments({ name: 'Review', durationMinutes: 1.5 }),
        'timeTracker.log: "durationMinutes" must be a whole number of minutes; write other durations as text, such as "1h30m".',
      );
      assert.equal(
        readLogArguments({ name: 'Review', durationMinutes: '0' }),
        'timeTracker.log: The duration must be at least 1 minute.',
      );
      assert.equal(
        readLogArguments({ name: 'Review', durationMinutes: 'soon' }),
        'timeTracker.log: "soon" is not a duration; write it as 90, 90m, 1h30m, 1.5h or 1:30.',
      );
      assert.equal(
        readLogArguments({ name: 'Review', durationMinutes: 30, note: 5 }),
        'timeTracker.log: "note" must be text.',
      );
    });

    it('says it in the display language', () => {
      const bundle = JSON.parse(
        readFileSync(join(__dirname, '..', '..', '..', '..', '..', 'l10n', 'bundle.l10n.de.json'), 'utf8'),
      ) as Record<string, string>;
      l10n.config({ contents: bundle });
      try {
        assert.equal(readStartArguments({ name: 7 }), 'timeTracker.start: „name“ muss Text sein.');
      } finally {
        l10n.config({ contents: {} });
      }
    });
  });
});
