/* eslint-disable max-lines -- TEMPORARY: over 400 lines since the Prettier reformat; split in the house-3 work */
/**
 * Start, Stop and Log Time: from a keybinding's arguments (read by src/tracker/pickers/commandArguments.ts)
 * or through the activity picker and input boxes. Each sends through the shared `run()`; Stop tells
 * an app without Stop apart (a 404), Log Time queues the entry on disk when the app surely did not
 * get it; an app without Stop or entries (a first release) is told apart before anything is sent.
 * While the app rejects the token or locks us out (./pauseGate.ts) none of them sends: Start's
 * picker says why and offers the fixes (src/tracker/pickers/startBlocked.ts), Stop says once why, Log
 * Time queues the entry and says once why. With the app not running and no way to it, Start says
 * so and offers Log Time, which still works. Stop says what stopped and for
 * how long (from the last poll where the app's answer leaves it out), or that nothing runs.
 */
import * as vscode from 'vscode';
import type { ServiceClient } from '../../client';
import type { EntryAnswer, StartAnswer, StopAnswer } from '../../client/answerTypes';
import { errorMessage } from '../../platform/errors';
import { NOTE_MAX_LENGTH } from '../../protocol/constants';
import type { ActivitySelector, EntryRequest } from '../../protocol/types';
import type { QueuedEntry } from '../../tracker/queue/queueFormat';
import { COMMANDS } from '../../tracker/ids';
import { classify } from '../../tracker/model/classify';
import { withLinkedFirst } from '../../tracker/links/links';
import type { PickableActivity } from '../../tracker/pickers/activityPicks';
import type { Advice } from '../../tracker/advice/advice';
import { startedConfirmation, stoppedConfirmation, type QueueCause } from '../../tracker/statusBar/confirmations';
import { blockedStart } from '../../tracker/pickers/startBlocked';
import { readCommandArguments, readLogArguments, readStartArguments } from '../../tracker/pickers/commandArguments';
import { durationExamples, formatMinutes, parseDuration } from '../../tracker/duration';
import { pickActivity, type PickerOptions } from '../pickers/activityPicker';
import { offerStartFixes } from '../pickers/startBlockedPicker';
import { PauseGate } from './pauseGate';
import { adviseWithoutClient, clientOrAdvice, run, tell, type CommandServices } from './services';

/** What a command sends, with what the picker knew of it: the name to show, the group to remember. */
interface Chosen<T> {
  readonly request: T;
  readonly name?: string | undefined;
  readonly groupName?: string | null | undefined;
}

/** An activity picked from the list or created: its name is always known. */
type Picked = Chosen<ActivitySelector> & { readonly name: string };

export async function start(services: CommandServices, args: unknown): Promise<StartAnswer | undefined> {
  const client = await services.session.ready();
  if (!client) {
    adviseStartWithoutClient(services);
    return undefined;
  }
  const gate = new PauseGate(services, COMMANDS.start);
  const chosen = await requestFrom(services, args, readStartArguments, () => chooseStart(services, client, gate));
  if (!chosen) {
    gate.leftAfterLearning();
    return undefined;
  }
  if (gate.holdsBack(vscode.l10n.t('Tracking was not started.'), 'error')) return undefined;
  const { request, groupName } = chosen;
  return run(services, COMMANDS.start, async () => {
    const result = await client.startActivity(request);
    await remember(services, result, groupName);
    services.messages.status(
      startedConfirmation(result.activityName ?? chosen.name ?? request.name, services.settings().privateStatusBar),
    );
    return result;
  });
}

/**
 * Start's picker: the activities, or, where nothing can be started now (a rejected token, a
 * lockout, a locked license), why and the fixes, with nothing to choose that would only fail.
 */
async function chooseStart(
  services: CommandServices,
  client: ServiceClient,
  gate: PauseGate,
): Promise<Picked | undefined> {
  const title = vscode.l10n.t('Start Tracking');
  const { session } = services;
  const blocked = blockedStart(session.state, session.channel.route, Date.now());
  if (!blocked) return chooseActivity(services, client, gate, title);
  await offerStartFixes(title, blocked);
  return undefined;
}

/**
 * Start with no way to the app. The app quit (its integration's file gone or stale): nothing can
 * start it from here, but time can still be logged (it queues), so that is offered at once. Any
 * other reason has its own advice (a token to set, a file to fix, a remote window).
 */
function adviseStartWithoutClient(services: CommandServices): void {
  const { channel } = services.session;
  if (channel.kind !== 'none' || channel.reason !== 'appClosed') return adviseWithoutClient(services);
  const message = vscode.l10n.t('The app is not running: start it, or log the time instead.');
  services.log.warn(`${COMMANDS.start}: ${message}`);
  void services.messages.warn(message, services.messages.actions.logTime());
}

export async function stop(services: CommandServices): Promise<StopAnswer | undefined> {
  const client = await clientOrAdvice(services);
  if (!client) return undefined;
  if (services.session.firstRelease) return void services.messages.advise(notOffered('stop'));
  if (new PauseGate(services, COMMANDS.stop).holdsBack(vscode.l10n.t('Tracking was not stopped.'), 'error'))
    return undefined;
  // What the last poll saw running: what an answer that names nothing (`{"ok":true}`) stopped.
  const polled = services.session.state;
  return run(
    services,
    COMMANDS.stop,
    async () => {
      const result = await client.stopActivity();
      // On purpose: no window that opens on a linked folder starts tracking again today by itself.
      await services.links.userStopped();
      const said = stoppedConfirmation(
        result,
        polled,
        Date.now(),
        services.settings().privateStatusBar,
        services.settings().maxNameLength,
      );
      // Stop in the palette while nothing runs: said where the user looks, not as a passing status line.
      if (said === undefined) void services.messages.info(vscode.l10n.t('Nothing is running.'));
      else services.messages.status(said);
      return result;
    },
    (error) => {
      // On this endpoint a 404 can only mean that this version of the app does not offer it.
      if (classify(error).kind !== 'notFound') return false;
      tell(services, COMMANDS.stop, notOffered('stop'));
      return true;
    },
  );
}

/** An endpoint first releases of the app lack (PROTOCOL.md §8), said in one sentence. */
function notOffered(what: 'stop' | 'log'): Advice {
  return {
    severity: 'warning',
    message:
      what === 'stop'
        ? vscode.l10n.t(
            'This version of the app cannot be stopped from VS Code (it has no POST /activities/stop): stop in the app, or update the app.',
          )
        : vscode.l10n.t(
            'This version of the app does not take logged time (it has no POST /entries): log it in the app, or update the app.',
          ),
  };
}

export async function logTime(services: CommandServices, args: unknown): Promise<EntryAnswer | undefined> {
  const client = await services.session.ready();
  // Offline with no way to the app left (it quit, and its integration file went with it), the
  // entry queues all the same: logging is what works offline. Only then it goes on without one.
  if (!client && services.session.state.kind !== 'offline') {
    adviseWithoutClient(services);
    return undefined;
  }
  // Never asked for, never queued: the entry could not be delivered later either.
  if (services.session.firstRelease) return void services.messages.advise(notOffered('log'));
  const gate = new PauseGate(services, COMMANDS.log);
  const entry = await requestFrom(services, args, readLogArguments, () => askEntry(services, client, gate));
  if (!entry) {
    gate.leftAfterLearning();
    return undefined;
  }
  const pause = gate.pause;
  if (pause) {
    // Nothing a user logged is lost: it waits on disk and goes once the app takes requests again.
    await queueEntry(
      services,
      entry.request,
      entry.name,
      pause.kind === 'lockedOut' ? 'lockedOut' : 'refused',
      (duration, name, queued) =>
        gate.heldBack(
          pause,
          vscode.l10n.t('{duration} on {name} is queued; it is sent once the app accepts requests again.', {
            duration,
            name,
          }),
          'warning',
          services.queue.settled(queued.id),
        ),
    );
    return undefined;
  }
  if (!client) {
    await queueEntry(services, entry.request, entry.name, 'offline', toldQueuedOffline(services));
    return undefined;
  }
  return sendEntry(services, client, entry);
}

/** Log Time's three steps: the activity, how long, a note; undefined when the user leaves one. */
async function askEntry(
  services: CommandServices,
  client: ServiceClient | undefined,
  gate: PauseGate,
): Promise<Chosen<EntryRequest> | undefined> {
  const chosen = await chooseActivity(services, client, gate, vscode.l10n.t('Log Time (1/3): activity'));
  if (!chosen) return undefined;
  const { name } = chosen;
  const minutes = await askDuration(name);
  if (minutes === undefined) return undefined;
  const note = await askNote(name, minutes);
  if (note === undefined) return undefined;
  return {
    ...chosen,
    request: { ...chosen.request, durationMinutes: minutes, ...(note.trim() === '' ? {} : { note: note.trim() }) },
  };
}

/**
 * Step 2: the minutes to log on `name`, or undefined when the box is closed. VS Code refuses Enter
 * while validateInput answers an error, so an empty or unreadable duration keeps the step open with
 * its sentence; should one come through anyway, the step asks again rather than lose the activity.
 */
async function askDuration(name: string): Promise<number | undefined> {
  for (let typed = ''; ;) {
    const durationText = await vscode.window.showInputBox({
      title: vscode.l10n.t('Log Time (2/3): how long on {0}?', name),
      prompt: vscode.l10n.t('For example {0}', durationExamples()),
      placeHolder: '1h30m',
      value: typed,
      ignoreFocusOut: true,
      // What will be logged, in whole minutes, shown before it is sent (1.33h is 80 minutes).
      validateInput: (value) => {
        const parsed = parseDuration(value);
        if (!parsed.ok) return parsed.message;
        return {
          message: vscode.l10n.t('Logs {duration} ({minutes} minutes).', {
            duration: formatMinutes(parsed.minutes),
            minutes: parsed.minutes,
          }),
          severity: vscode.InputBoxValidationSeverity.Info,
        };
      },
    });
    if (durationText === undefined) return undefined;
    const duration = parseDuration(durationText);
    if (duration.ok) return duration.minutes;
    typed = durationText;
  }
}

/** Step 3: the note as typed (empty for none), or undefined when the box is closed. */
function askNote(name: string, minutes: number): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: vscode.l10n.t('Log Time (3/3): note for {duration} on {name} (optional)', {
      duration: formatMinutes(minutes),
      name,
    }),
    prompt: vscode.l10n.t('Press Enter to log without a note'),
    ignoreFocusOut: true,
    validateInput: (value) =>
      value.length > NOTE_MAX_LENGTH
        ? vscode.l10n.t('A note can be at most {0} characters.', NOTE_MAX_LENGTH)
        : undefined,
  });
}

/** Sends the entry; one the app surely did not get is queued instead (on disk first) and sent when it answers again. */
function sendEntry(
  services: CommandServices,
  client: ServiceClient,
  { request, name: chosenName, groupName }: Chosen<EntryRequest>,
): Promise<EntryAnswer | undefined> {
  return run(
    services,
    COMMANDS.log,
    async () => {
      const result = await client.logEntry(request);
      await remember(services, result, groupName);
      // What was sent, where the app does not repeat it: it accepted exactly that.
      const duration = formatMinutes(result.durationMinutes ?? request.durationMinutes);
      const name = result.activityName ?? chosenName ?? request.name;
      services.log.info(`Logged ${duration} on ${name ?? result.activityID ?? '?'}.`);
      void services.messages.info(
        name === undefined
          ? vscode.l10n.t('Logged {0}.', duration)
          : vscode.l10n.t('Logged {duration} to {name}.', { duration, name }),
      );
      return result;
    },
    async (error) => {
      if (classify(error).kind !== 'offline') return false;
      await queueEntry(services, request, chosenName, 'offline', toldQueuedOffline(services));
      return true;
    },
  );
}

/** How Log Time says that its entry waits because the app does not answer, with the way to the queue. */
function toldQueuedOffline(services: CommandServices): Queued {
  return (duration, name, queued) => {
    const message = vscode.l10n.t(
      'The time tracker is not answering, so {duration} on {name} is queued; it is sent as soon as the app answers.',
      { duration, name },
    );
    // Withdrawn once the entry is sent, so that it never stands beside "Sent …".
    services.messages.notice('queued', message, services.queue.settled(queued.id));
  };
}

/** Says that an entry is queued, with the duration and the name as the user reads them. */
type Queued = (duration: string, name: string, queued: QueuedEntry) => void;

/**
 * Log Time while the app surely did not get the entry (or must not be asked): on disk, then the
 * user is told, by `queued`, with the duration and the name as they read them.
 */
async function queueEntry(
  services: CommandServices,
  request: EntryRequest,
  chosenName: string | undefined,
  cause: QueueCause,
  queued: Queued,
): Promise<void> {
  const { messages } = services;
  const duration = formatMinutes(request.durationMinutes);
  // An entry picked from the list is sent by id: the picker's name is the one the user knows.
  const name = request.name ?? chosenName ?? request.activityID ?? vscode.l10n.t('the activity');
  let entry: QueuedEntry;
  try {
    entry = await services.queue.add(request, cause);
  } catch (queueError) {
    // Neither logged nor queued: the user must hear which entry, or it is lost unseen.
    services.log.error(
      `Could not queue ${duration} on ${name}${request.note === undefined ? '' : ` (note: ${request.note})`}: ${errorMessage(queueError)}`,
    );
    void messages.error(
      vscode.l10n.t(
        'The time tracker is not answering and {duration} on {name} could not be queued either: log it in the app by hand.',
        { duration, name },
      ),
      messages.actions.showLog(),
    );
    return;
  }
  queued(duration, name, entry);
}

/**
 * Start's and Log Time's one way to their request: from the keybinding's arguments when there are
 * any (refused in one sentence when they are wrong), else from the user through `ask`.
 */
async function requestFrom<T extends object>(
  services: CommandServices,
  args: unknown,
  read: (args: unknown) => T | string,
  ask: () => Promise<Chosen<T> | undefined>,
): Promise<Chosen<T> | undefined> {
  const given = readCommandArguments(args, read);
  switch (given.kind) {
    case 'none':
      return ask();
    case 'refused':
      void services.messages.advise({ severity: 'error', message: given.message });
      return undefined;
    case 'given':
      return { request: given.request };
  }
}

/**
 * The activity picker of Start, Log Time and the Link commands: what to send, and the name to show.
 * The activity linked here (timeTracker.links), where this window knows it by id, is listed first;
 * `refuseNew` says why a typed name is not offered as a new activity (the Link commands' placeholders).
 */
export async function chooseActivity(
  services: CommandServices,
  client: ServiceClient | undefined,
  gate: PauseGate,
  title: string,
  refuseNew?: PickerOptions['refuseNew'],
): Promise<Picked | undefined> {
  const { session } = services;
  const pick = await pickActivity(client, {
    title,
    placeholder: vscode.l10n.t('Type to search activities, or a new name to create it'),
    recent: await linkedFirst(services),
    known: services.known,
    running: () => (session.state.kind === 'tracking' ? session.state.activity : undefined),
    maySearch: gate.maySearch,
    appAnswers: () => session.state.kind !== 'offline',
    // Log Time queues what the app cannot take now, a new name with it.
    createsWhenSent: gate.command === COMMANDS.log,
    onError: gate.searchFailed,
    ...(refuseNew === undefined ? {} : { refuseNew }),
  });
  if (!pick) return undefined;
  return pick.kind === 'create'
    ? { request: { name: pick.name, createIfMissing: true }, name: pick.name }
    : {
        request: { activityID: pick.activity.activityID },
        name: pick.activity.activityName,
        groupName: pick.activity.groupName,
      };
}

/** The recent list with the activity linked here in front, when this window knows its id. */
async function linkedFirst(services: CommandServices): Promise<PickableActivity[]> {
  const linked = await services.links.decisionHere();
  return withLinkedFirst(
    linked,
    recent(services),
    linked === undefined ? [] : services.known.matching(linked.activity),
  );
}

/** What is stored, as far as it is a list of activities: a value of another shape must not break a picker or a poll. */
function recent(services: CommandServices): PickableActivity[] {
  return services.recent.list();
}

/** Only an activity the app named is remembered; the group comes from the picker (answers do not carry it). */
async function remember(
  services: CommandServices,
  activity: { readonly activityID: string | undefined; readonly activityName: string | undefined },
  groupName: string | null | undefined,
): Promise<void> {
  const { activityID, activityName } = activity;
  if (activityID === undefined || activityName === undefined) return;
  const reference = { activityID, activityName, ...(groupName === undefined ? {} : { groupName }) };
  await services.recent.use(reference);
}

/**
 * "Recent" is also what the app ran: each activity a poll shows running, anew, goes to the front of
 * the recent list (started in the app, by a keybinding, or in another window).
 */
export function rememberRunning(services: CommandServices): vscode.Disposable {
  let lastSeenID: string | undefined;
  return services.session.onDidChangeState((state) => {
    if (state.kind === 'idle') lastSeenID = undefined;
    if (state.kind !== 'tracking') return;
    const { activity } = state;
    const seenBefore = lastSeenID !== undefined && lastSeenID.toLowerCase() === activity.activityID.toLowerCase();
    lastSeenID = activity.activityID;
    if (seenBefore || recent(services)[0]?.activityID.toLowerCase() === activity.activityID.toLowerCase()) return;
    remember(services, activity, undefined).catch((error: unknown) =>
      services.log.warn(`Could not remember the running activity as recent: ${errorMessage(error)}`),
    );
  });
}
