/**
 * The activity pickers of Start Tracking and Log Time as a user meets them: the app's
 * running activity is marked and what it ran is recent; with the app gone, they list the activities
 * it named before, say in themselves that it is not answering and as of when, raise no notification
 * while open, and offer Create only for a name they do not list.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { TimeTrackerApi } from '../../../src/extension/extension';
import type { RequestRecord } from '../../../src/server/debugView';
import type { ReferenceServer } from '../../../src/server/server';
import { loggedEntries } from '../../support/server';
import { NotificationSpy } from '../soak/spy';
import { kind, until, untilQueued } from './states';
import { connectToNewServer } from './connected';
import { withWizardAnswers, type PickerSeen, type PickerView } from './wizardAnswers';

const TOKEN = 'pickers-test-token-5b2e';
const DISMISS = 'no such item: dismiss';
/** A time of day as the locale writes it: 10:42, 10.42, 10:42 AM. */
const TIME = '\\d{1,2}[:.]\\d\\d(\\s?[AP]M)?';
const labels = (view: PickerView): string[] => view.items.filter((item) => !item.separator).map((item) => item.label);
const creates = (view: PickerView): string[] => labels(view).filter((label) => label.startsWith('$(add)'));

/** Opens `command`'s picker, types `text` (if any) and accepts `pick`; what the picker showed. */
async function pickerOf(
  command: 'timeTracker.start' | 'timeTracker.log',
  pick: string,
  text?: string,
  typed: readonly string[] = [],
): Promise<PickerSeen> {
  const seen: PickerSeen[] = [];
  await withWizardAnswers(
    { pick, typed, seen, ...(text === undefined ? {} : { pickerTyping: { text, keystrokeMs: 40 } }) },
    () => vscode.commands.executeCommand(command),
  );
  assert.equal(seen.length, 1, 'one picker was shown');
  return seen[0]!;
}

for (const answers of ['full', 'minimal'] as const) {
  describe(`the activity pickers (${answers} answers)`, function () {
    this.timeout(40_000);
    // Names of their own: the other style's run leaves its activities known and recent.
    const codeReview = `Code review ${answers}`;
    const designReview = `Design review ${answers}`;
    let api: TimeTrackerApi;
    let server: ReferenceServer;
    let port: number;
    /** Every request the server answered, in order. */
    const requests: RequestRecord[] = [];

    before(async () => {
      ({ api, server, port } = await connectToNewServer(TOKEN, {
        answers,
        seedActivities: [codeReview, designReview, `Deploy ${answers}`],
        onRequest: (_line, record) => requests.push(record),
      }));
    });

    after(async () => {
      await server.close();
      await vscode.commands.executeCommand('timeTracker.clearToken');
    });

    it('marks the activity the app runs, and lists what it ran as recent', async () => {
      server.controls.state.start({ name: designReview });
      await until(
        api,
        (state) => state.kind === 'tracking' && state.activity.activityName === designReview,
        `tracking ${designReview}`,
      );
      const running = (await pickerOf('timeTracker.start', DISMISS)).opened.items.find(
        (item) => item.label === designReview,
      );
      assert.match(
        running?.description ?? '',
        /running/,
        `the running activity is listed and marked: ${JSON.stringify(running)}`,
      );

      // On a break the status bar says "On break": the picker does not call the paused activity running.
      server.controls.setBreak(true);
      try {
        await until(api, (state) => state.kind === 'tracking' && state.onBreak, 'on a break');
        const paused = (await pickerOf('timeTracker.start', DISMISS)).opened.items.find(
          (item) => item.label === designReview,
        );
        assert.doesNotMatch(paused?.description ?? '', /running/, `on a break: ${JSON.stringify(paused)}`);
      } finally {
        server.controls.setBreak(false);
      }

      server.controls.state.stop();
      await until(api, kind('idle'), 'idle after the app stopped');
      const recent = (await pickerOf('timeTracker.start', DISMISS)).opened.items.find(
        (item) => item.label === designReview,
      );
      assert.match(
        recent?.description ?? '',
        /recent/,
        `what the app ran is recent, though this window never started it: ${JSON.stringify(recent)}`,
      );
    });

    it('lists in Start Tracking, with the app gone, what it named, says so and as of when, and raises no notification', async () => {
      // A search while the app answers: what the pickers know from now on.
      await pickerOf('timeTracker.start', DISMISS, 'rev');
      await server.close();
      await until(api, kind('offline'), 'offline');
      const spy = new NotificationSpy();
      let picker: PickerSeen;
      try {
        picker = await pickerOf('timeTracker.start', DISMISS, ` ${codeReview.toUpperCase()} `);
      } finally {
        spy.dispose();
      }
      assert.equal(picker.opened.title, 'Start Tracking · The app is not answering');
      assert.match(picker.opened.placeholder ?? '', new RegExp(`^These are the activities it named at ${TIME}$`));
      for (const name of [codeReview, designReview])
        assert.ok(labels(picker.opened).includes(name), `${name} is listed: ${JSON.stringify(picker.opened)}`);
      assert.ok(
        labels(picker.chosenFrom).includes(codeReview),
        `the typed name is listed: ${JSON.stringify(picker.chosenFrom)}`,
      );
      assert.deepEqual(creates(picker.chosenFrom), [], 'no Create for a name the list shows');
      assert.match(picker.chosenFrom.items.find((item) => item.separator)?.label ?? '', /not answering · as of/);
      assert.deepEqual(picker.notificationsWhileOpen, [], 'nothing behind the open picker');
      assert.deepEqual(spy.shown, [], 'the picker said why; leaving it needs no more words');
    });

    it('offers a new name typed into Log Time with the app gone as where the entry lands, not as Create', async () => {
      const picker = await pickerOf('timeTracker.log', DISMISS, `Unheard of ${answers}`);
      assert.ok(
        labels(picker.chosenFrom).includes(
          `$(add) Log to “Unheard of ${answers}” (matched by name when the app is back)`,
        ),
        JSON.stringify(picker.chosenFrom),
      );
      assert.deepEqual(
        labels(picker.chosenFrom).filter((label) => label.includes('Create')),
        [],
        'nothing promises to create',
      );
    });

    it('takes an existing name typed into Log Time with the app gone, and queues the entry, with no notification while open', async () => {
      const queuedBefore = api.queuedEntries;
      const spy = new NotificationSpy();
      let picker: PickerSeen;
      try {
        picker = await pickerOf('timeTracker.log', `Log to “${codeReview}”`, codeReview.toLowerCase(), ['30m', '']);
      } finally {
        spy.dispose();
      }
      const queued = api.queuedEntries;
      // The app comes back before anything is asserted: a failed assertion must leave no entry queued for the next
      // tests.
      await server.listen(port);
      await untilQueued(api, 0, 'the queued entry to be sent', 20_000);
      assert.equal(picker.opened.title, 'Log Time (1/3): activity · The app is not answering');
      assert.match(
        picker.opened.placeholder ?? '',
        new RegExp(`^Activities as of ${TIME}; a new name is created when the entry is sent$`),
      );
      assert.deepEqual(creates(picker.chosenFrom), []);
      assert.deepEqual(picker.notificationsWhileOpen, []);
      assert.deepEqual(
        spy.shown.map(({ message }) => message),
        [`30m on ${codeReview} is queued until the app answers.`],
      );
      assert.equal(queued, queuedBefore + 1);
      assert.deepEqual(loggedEntries(server).at(-1), [codeReview, 30]);
    });
    it('refuses a 500-character name in Start and Log Time as it is typed, offers nothing that fails, and stays open', async () => {
      await until(api, kind('idle'), 'idle');
      const before = requests.length;
      for (const command of ['timeTracker.start', 'timeTracker.log'] as const) {
        const seen: PickerSeen[] = [];
        const spy = new NotificationSpy();
        try {
          await withWizardAnswers(
            {
              pick: '$(circle-slash) At most 200 characters: 500 typed',
              typed: [],
              seen,
              dismissIfOpen: true,
              pickerTyping: { text: 'n'.repeat(500), keystrokeMs: 1 },
            },
            () => vscode.commands.executeCommand(command),
          );
        } finally {
          spy.dispose();
        }
        const [picker] = seen;
        assert.ok(picker, `${command}'s picker opened`);
        assert.deepEqual(labels(picker.chosenFrom), ['$(circle-slash) At most 200 characters: 500 typed'], command);
        assert.equal(picker.stayedOpen, true, `${command}'s picker stays open on Enter, with the name typed`);
        assert.deepEqual(spy.shown, [], `${command} says nothing after the picker`);
      }
      const refused = requests.slice(before).filter((record) => record.status >= 400);
      assert.deepEqual(refused, [], 'no search the app would refuse was sent');
    });

    it('says in Log Time before the first step that the license is locked, then queues the entry until it is activated', async () => {
      server.controls.setLicense('locked');
      try {
        await until(api, kind('licenseLocked'), 'license locked');
        const queuedBefore = api.queuedEntries;
        const before = requests.length;
        const spy = new NotificationSpy();
        let picker: PickerSeen;
        try {
          picker = await pickerOf(
            'timeTracker.log',
            `$(add) Log to “Locked ${answers}” (matched by name once the license is activated)`,
            `Locked ${answers}`,
            ['30m', ''],
          );
        } finally {
          spy.dispose();
        }
        assert.equal(picker.opened.title, 'Log Time (1/3): activity · The license is locked');
        assert.equal(
          picker.opened.placeholder,
          'The entry is queued and sent once the license is activated in the app',
        );
        assert.deepEqual(
          requests.slice(before).filter((record) => record.path === '/activities/search'),
          [],
          'no search that could only be refused',
        );
        assert.deepEqual(picker.notificationsWhileOpen, []);
        assert.deepEqual(
          spy.shown.map(({ message }) => message),
          [`30m on Locked ${answers} is queued until the license is activated in the app.`],
        );
        assert.equal(api.queuedEntries, queuedBefore + 1, 'queued, not lost');
      } finally {
        server.controls.setLicense('valid');
      }
      await untilQueued(api, 0, 'the entry to be sent once the license is valid', 20_000);
      assert.deepEqual(loggedEntries(server).at(-1), [`Locked ${answers}`, 30]);
    });
  });
}
