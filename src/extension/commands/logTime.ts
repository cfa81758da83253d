/**
 * Log Time: from a keybinding's arguments (read by src/tracker/pickers/commandArguments.ts) or through
 * three steps (the activity picker, how long, a note), then sent apart from the asking. An entry the
 * app surely did not get is queued on disk first and sent when it answers again; while the app
 * rejects the token or locks us out (./pauseGate.ts), or its license is locked (the picker says so
 * before the first step), it is queued and the user told once why. An app without entries (a first
 * release) is told apart before anything is asked or queued.
 */
import * as vscode from 'vscode';
import type { ServiceClient } from '../../client';
import type { EntryAnswer } from '../../client/answerTypes';
import { errorMessage } from '../../platform/errors';
import type { EntryRequest } from '../../protocol/types';
import type { QueuedEntry } from '../../tracker/queue/queueFormat';
import { COMMANDS } from '../../tracker/ids';
import { classify } from '../../tracker/model/classify';
import type { QueueCause } from '../../tracker/statusBar/confirmations';
import { readLogArguments } from '../../tracker/pickers/commandArguments';
import { noteStepLine } from '../../tracker/pickers/noteStep';
import { durationExamples, formatMinutes, parseDuration } from '../../tracker/duration';
import { offeredNote, type OfferedNote } from './commitNotes';
import { PauseGate } from './pauseGate';
import { adviseWithoutClient, run, type CommandServices } from './services';
import { chooseActivity, notOffered, remember, requestFrom, type Chosen } from './tracking';

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
      (duration, name) =>
        gate.heldBack(
          pause,
          vscode.l10n.t('{duration} on {name} is queued; it is sent once the app accepts requests again.', {
            duration,
            name,
          }),
          'warning',
        ),
    );
    return undefined;
  }
  if (!client) {
    await queueEntry(services, entry.request, entry.name, 'offline', toldQueued(services, 'offline'));
    return undefined;
  }
  // The app takes the entry once its license is activated: it waits on disk until then, as offline.
  if (services.session.state.kind === 'licenseLocked') {
    await queueEntry(services, entry.request, entry.name, 'licenseLocked', toldQueued(services, 'licenseLocked'));
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
  const note = await askNote(name, minutes, await offeredNote(services, minutes));
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

/**
 * Step 3: the note as typed (empty for none), or undefined when the box is closed. The subjects of the span's commits,
 * when there are some, are in the box already, selected: typing replaces them, Enter logs them.
 */
function askNote(name: string, minutes: number, offered: OfferedNote | undefined): Thenable<string | undefined> {
  return vscode.window.showInputBox({
    title: vscode.l10n.t('Log Time (3/3): note for {duration} on {name} (optional)', {
      duration: formatMinutes(minutes),
      name,
    }),
    value: offered?.note ?? '',
    prompt:
      offered === undefined
        ? vscode.l10n.t('Press Enter to log without a note')
        : vscode.l10n.t(
            'The subjects of {count} commits on {branch} in the last {duration}: edit them, or clear them.',
            {
              count: offered.commits,
              branch: offered.branch,
              duration: formatMinutes(minutes),
            },
          ),
    ignoreFocusOut: true,
    validateInput: (value) => {
      const line = noteStepLine(value);
      if (line === undefined) return undefined;
      return {
        message: line.message,
        severity: line.refused ? vscode.InputBoxValidationSeverity.Error : vscode.InputBoxValidationSeverity.Info,
      };
    },
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
      const { kind } = classify(error);
      if (kind !== 'offline' && kind !== 'licenseLocked') return false;
      await queueEntry(
        services,
        request,
        chosenName,
        kind === 'offline' ? 'offline' : 'refused',
        toldQueued(services, kind),
      );
      return true;
    },
  );
}

/** How Log Time says that its entry waits because the app does not answer, or its license is locked. */
function toldQueued(services: CommandServices, why: 'offline' | 'licenseLocked'): Queued {
  return (duration, name, queued) => {
    // A progress notification shows one line: what happened comes first, before a long name can cut it.
    const message =
      why === 'offline'
        ? vscode.l10n.t('{duration} on {name} is queued until the app answers.', { duration, name })
        : vscode.l10n.t('{duration} on {name} is queued until the license is activated in the app.', {
            duration,
            name,
          });
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
