/**
 * Start and Stop, and what they share with Log Time (./logTime.ts) and the Link commands: the
 * request from a keybinding's arguments (read by src/tracker/pickers/commandArguments.ts) or the
 * activity picker, and the recent list. Each sends through the shared `run()`; Stop tells an app
 * without Stop apart (a 404); an app without Stop (a first release) is told apart before anything is
 * sent. While the app rejects the token or locks us out (./pauseGate.ts) neither sends: Start's
 * picker says why and offers the fixes (src/tracker/pickers/startBlocked.ts), Stop says once why. With
 * the app not running and no way to it, Start says so and offers Log Time, which still works. Stop
 * says what stopped and for how long (from the last poll where the app's answer leaves it out), or
 * that nothing runs.
 */
import * as vscode from 'vscode';
import type { ServiceClient } from '../../client';
import type { StartAnswer, StopAnswer } from '../../client/answerTypes';
import { errorMessage } from '../../platform/errors';
import type { ActivitySelector } from '../../protocol/types';
import { COMMANDS } from '../../tracker/ids';
import { classify } from '../../tracker/model/classify';
import { withLinkedFirst } from '../../tracker/links/links';
import type { PickableActivity } from '../../tracker/pickers/activityPicks';
import type { Advice } from '../../tracker/advice/advice';
import { startedConfirmation, stoppedConfirmation } from '../../tracker/statusBar/confirmations';
import { blockedStart } from '../../tracker/pickers/startBlocked';
import { readCommandArguments, readStartArguments } from '../../tracker/pickers/commandArguments';
import { pickActivity, type PickerOptions } from '../pickers/activityPicker';
import { offerStartFixes } from '../pickers/startBlockedPicker';
import { PauseGate } from './pauseGate';
import { adviseWithoutClient, clientOrAdvice, run, tell, type CommandServices } from './services';

/** What a command sends, with what the picker knew of it: the name to show, the group to remember. */
export interface Chosen<T> {
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
  await offerStartFixes(blocked);
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
      if (said === undefined) void services.messages.info(vscode.l10n.t('Not tracking: there is nothing to stop.'));
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
export function notOffered(what: 'stop' | 'log'): Advice {
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

/**
 * Start's and Log Time's one way to their request: from the keybinding's arguments when there are
 * any (refused in one sentence when they are wrong), else from the user through `ask`.
 */
export async function requestFrom<T extends object>(
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
    // On a break the activity is paused, as the status bar says: not marked running.
    running: () => (session.state.kind === 'tracking' && !session.state.onBreak ? session.state.activity : undefined),
    maySearch: gate.maySearch,
    appAnswers: () => session.state.kind !== 'offline',
    licenseLocked: () => session.state.kind === 'licenseLocked',
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
    services.recent.list(),
    linked === undefined ? [] : services.known.matching(linked.activity),
  );
}

/** Only an activity the app named is remembered; the group comes from the picker (answers do not carry it). */
export async function remember(
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
    if (seenBefore || services.recent.list()[0]?.activityID.toLowerCase() === activity.activityID.toLowerCase()) return;
    remember(services, activity, undefined).catch((error: unknown) =>
      services.log.warn(`Could not remember the running activity as recent: ${errorMessage(error)}`),
    );
  });
}
