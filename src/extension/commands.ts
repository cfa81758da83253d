import { connect } from 'node:net';
import * as vscode from 'vscode';
import type { ServiceClient } from '../client';
import { DEFAULT_PORT } from '../protocol/constants';
import type { EntryAnswer, StartAnswer, StopAnswer } from '../client/answers';
import { rememberRecent, type PickableActivity } from '../tracker/view/activityPicks';
import { adviceForError, diagnose, type Advice, type FixAction } from '../tracker/view/advice';
import { describeRouteForLog } from '../tracker/model/channel';
import { classify } from '../tracker/model/classify';
import { durationExamples, formatMinutes, parseDuration } from '../tracker/view/duration';
import { menuFor } from '../tracker/view/menu';
import { COMMANDS, type CommandId } from '../tracker/view/presentation';
import { pickActivity } from './activityPicker';
import type { OfflineQueue } from './offlineQueue';
import type { Session } from './session';
import type { StatusBarController } from './statusBar';

const RECENT_KEY = 'timeTracker.recentActivities';

export interface CommandServices {
  /** The owner of the connection: the client, the state, the token. */
  readonly session: Session;
  readonly statusBar: StatusBarController;
  readonly log: vscode.LogOutputChannel;
  readonly memento: vscode.Memento;
  readonly queue: OfflineQueue;
}

/** `{ name, createIfMissing }` (or `activityID`) from a keybinding or task. */
interface StartArgs {
  readonly activityID?: string;
  readonly name?: string;
  readonly createIfMissing?: boolean;
}

/** `{ name, durationMinutes, note }` (or `activityID`, `createIfMissing`) from a keybinding or task. */
interface LogArgs extends StartArgs {
  readonly durationMinutes: number;
  readonly note?: string;
}

export function registerCommands(services: CommandServices): vscode.Disposable[] {
  const commands: Record<CommandId, (...args: unknown[]) => unknown> = {
    [COMMANDS.start]: (args) => start(services, args),
    [COMMANDS.stop]: () => stop(services),
    [COMMANDS.log]: (args) => logTime(services, args),
    [COMMANDS.setToken]: (token) => setToken(services, token),
    [COMMANDS.clearToken]: () => clearToken(services),
    [COMMANDS.checkConnection]: () => checkConnection(services),
    [COMMANDS.showLog]: () => services.log.show(),
    [COMMANDS.showMenu]: () => showMenu(services),
    [COMMANDS.showQueue]: () => showQueue(services),
  };
  return Object.entries(commands).map(([id, run]) => vscode.commands.registerCommand(id, run));
}

async function start(services: CommandServices, args: unknown): Promise<StartAnswer | undefined> {
  const client = await clientOrAdvice(services);
  if (!client) return undefined;
  let request: StartArgs;
  let chosenName: string | undefined;
  let groupName: string | null | undefined;
  if (args !== undefined) {
    const parsed = readStartArgs(args, 'timeTracker.start', START_SHAPE);
    if (typeof parsed === 'string') return void showAdvice(services, { severity: 'error', message: parsed });
    request = parsed;
  } else {
    const chosen = await chooseActivity(services, client, vscode.l10n.t('Start Tracking'));
    if (!chosen) return undefined;
    ({ selector: request, name: chosenName, groupName } = chosen);
  }
  return run(services, async () => {
    const result = await client.startActivity(request);
    await remember(services, result, groupName);
    const name = result.activityName ?? chosenName ?? request.name;
    vscode.window.setStatusBarMessage(`$(record) ${name === undefined ? vscode.l10n.t('Tracking') : vscode.l10n.t('Tracking {0}', name)}`, 3_000);
    return result;
  });
}

async function stop(services: CommandServices): Promise<StopAnswer | undefined> {
  const client = await clientOrAdvice(services);
  if (!client) return undefined;
  if (services.session.firstRelease) return void showAdvice(services, notOffered('stop'));
  try {
    const result = await client.stopActivity();
    // Say only what the app said: the duration and even the name may be left out.
    let stopped: string;
    if (result.stopped && result.durationSeconds !== undefined) {
      stopped = vscode.l10n.t('Stopped {name} after {duration}', { name: result.stopped.activityName, duration: formatMinutes(result.durationSeconds / 60) });
    } else if (result.stopped) {
      stopped = vscode.l10n.t('Stopped {0}', result.stopped.activityName);
    } else {
      stopped = result.stopped === null ? vscode.l10n.t('Nothing was running') : vscode.l10n.t('Stopped');
    }
    vscode.window.setStatusBarMessage(`$(debug-stop) ${stopped}`, 3_000);
    return result;
  } catch (error) {
    // On this endpoint a 404 can only mean that this version of the app does not offer it.
    report(services, classify(error).kind === 'notFound' ? notOffered('stop') : error);
    return undefined;
  } finally {
    void services.session.refreshUnlessPaused();
  }
}

/** An endpoint first releases of the app lack (PROTOCOL.md §8), said in one sentence. */
function notOffered(what: 'stop' | 'log'): Advice {
  return {
    severity: 'warning',
    message:
      what === 'stop'
        ? vscode.l10n.t('This version of the app cannot be stopped from VS Code (it has no POST /activities/stop): stop in the app, or update the app.')
        : vscode.l10n.t('This version of the app does not take logged time (it has no POST /entries): log it in the app, or update the app.'),
  };
}

async function logTime(services: CommandServices, args: unknown): Promise<EntryAnswer | undefined> {
  const client = await clientOrAdvice(services);
  if (!client) return undefined;
  // Never asked for, never queued: the entry could not be delivered later either.
  if (services.session.firstRelease) return void showAdvice(services, notOffered('log'));
  let request: LogArgs;
  let chosenName: string | undefined;
  let groupName: string | null | undefined;
  if (args !== undefined) {
    const parsed = readLogArgs(args);
    if (typeof parsed === 'string') return void showAdvice(services, { severity: 'error', message: parsed });
    request = parsed;
  } else {
    const chosen = await chooseActivity(services, client, vscode.l10n.t('Log Time (1/3): activity'));
    if (!chosen) return undefined;
    const { name } = chosen;
    chosenName = name;
    groupName = chosen.groupName;
    const durationText = await vscode.window.showInputBox({
      title: vscode.l10n.t('Log Time (2/3): how long on {0}?', name),
      prompt: vscode.l10n.t('For example {0}', durationExamples()),
      placeHolder: '1h30m',
      ignoreFocusOut: true,
      // What will be logged, in whole minutes, shown before it is sent (1.33h is 80 minutes).
      validateInput: (value) => {
        if (value.trim() === '') return undefined;
        const parsed = parseDuration(value);
        if (!parsed.ok) return parsed.message;
        return { message: vscode.l10n.t('Logs {duration} ({minutes} minutes).', { duration: formatMinutes(parsed.minutes), minutes: parsed.minutes }), severity: vscode.InputBoxValidationSeverity.Info };
      },
    });
    if (durationText === undefined) return undefined;
    const duration = parseDuration(durationText);
    if (!duration.ok) return undefined;
    const note = await vscode.window.showInputBox({
      title: vscode.l10n.t('Log Time (3/3): note for {duration} on {name} (optional)', { duration: formatMinutes(duration.minutes), name }),
      prompt: vscode.l10n.t('Press Enter to log without a note'),
      ignoreFocusOut: true,
      validateInput: (value) => (value.length > 2000 ? vscode.l10n.t('A note can be at most 2000 characters.') : undefined),
    });
    if (note === undefined) return undefined;
    request = { ...chosen.selector, durationMinutes: duration.minutes, ...(note.trim() === '' ? {} : { note: note.trim() }) };
  }
  try {
    const result = await client.logEntry(request);
    await remember(services, result, groupName);
    // What was sent, where the app does not repeat it: it accepted exactly that.
    const duration = formatMinutes(result.durationMinutes ?? request.durationMinutes);
    const name = result.activityName ?? chosenName ?? request.name;
    void vscode.window.showInformationMessage(
      name === undefined ? vscode.l10n.t('Logged {0}.', duration) : vscode.l10n.t('Logged {duration} to {name}.', { duration, name }),
    );
    return result;
  } catch (error) {
    // Surely not received: keep it, on disk first, and send it when the app answers again.
    if (classify(error).kind === 'offline') {
      const duration = formatMinutes(request.durationMinutes);
      const name = request.name ?? chosenName ?? request.activityID ?? vscode.l10n.t('the activity');
      try {
        await services.queue.add(request);
      } catch (queueError) {
        // Neither logged nor queued: the user must hear which entry, or it is lost unseen.
        services.log.error(`Could not queue ${duration} on ${name}${request.note === undefined ? '' : ` (note: ${request.note})`}: ${queueError instanceof Error ? queueError.message : String(queueError)}`);
        const showLog = vscode.l10n.t('Show Log');
        void vscode.window
          .showErrorMessage(vscode.l10n.t('The time tracker is not answering and {duration} on {name} could not be queued either: log it in the app by hand.', { duration, name }), showLog)
          .then((choice) => choice === showLog && services.log.show());
        return undefined;
      }
      const message = vscode.l10n.t('The time tracker is not answering, so {duration} on {name} is queued; it is sent as soon as the app answers.', {
        duration,
        name: request.name ?? vscode.l10n.t('the activity'),
      });
      void vscode.window
        .showWarningMessage(message, vscode.l10n.t('Show Queued Entries'))
        .then((choice) => choice && vscode.commands.executeCommand(COMMANDS.showQueue))
        .then(undefined, (showError: unknown) => services.log.error(`Show Queued Entries failed: ${showError instanceof Error ? showError.message : String(showError)}`));
      return undefined;
    }
    report(services, error);
    return undefined;
  } finally {
    void services.session.refreshUnlessPaused();
  }
}

interface QueuePick extends vscode.QuickPickItem {
  readonly id: string;
  readonly status: string;
  /** The entry in English, for the log. */
  readonly logText: string;
}

const statusWords = (): Record<string, string> => ({
  waiting: vscode.l10n.t('waits for the app'),
  sending: vscode.l10n.t('being sent'),
  unknown: vscode.l10n.t('may have been logged: decide'),
  refused: vscode.l10n.t('refused by the app'),
});

/** Lists the queued entries; each can be sent now or discarded. */
async function showQueue(services: CommandServices): Promise<void> {
  const entries = await services.queue.list();
  const words = statusWords();
  if (entries.length === 0) {
    void vscode.window.showInformationMessage(vscode.l10n.t('No logged time waits to be sent.'));
    return;
  }
  const picked = await vscode.window.showQuickPick<QueuePick>(
    entries.map((entry) => {
      const duration = formatMinutes(entry.request.durationMinutes);
      const activity = entry.request.name ?? entry.request.activityID ?? '?';
      return {
        id: entry.id,
        status: entry.status,
        logText: `${duration} on ${activity}`,
        label: vscode.l10n.t('{duration} on {activity}', { duration, activity }),
        description: `${words[entry.status] ?? entry.status} · ${vscode.l10n.t('queued {0}', new Date(entry.queuedAt).toLocaleString())}`,
        ...(entry.reason === undefined && entry.request.note === undefined ? {} : { detail: [entry.request.note, entry.reason].filter(Boolean).join(' — ') }),
      };
    }),
    { title: vscode.l10n.t('Queued Entries'), placeHolder: vscode.l10n.t('Pick an entry to send it now or discard it') },
  );
  if (!picked) return;
  const sendLabel = picked.status === 'unknown' ? vscode.l10n.t('Send Anyway') : vscode.l10n.t('Send Now');
  const discardLabel = vscode.l10n.t('Discard');
  const warning =
    picked.status === 'unknown'
      ? vscode.l10n.t('The app may already have logged this entry (the connection broke while it was sent). Check the app first: sending it again may log it twice.')
      : vscode.l10n.t('Send or discard {0}?', picked.label);
  const choice = await vscode.window.showWarningMessage(warning, { modal: picked.status === 'unknown' }, sendLabel, discardLabel);
  if (choice === discardLabel) {
    await services.queue.discard(picked.id);
    services.log.info(`Discarded the queued ${picked.logText}.`);
  } else if (choice === sendLabel) {
    await services.queue.retry(picked.id);
    await services.queue.flush(await services.session.ready());
  }
  void services.session.refreshUnlessPaused();
}

async function setToken(services: CommandServices, given: unknown): Promise<boolean> {
  // A token passed as an argument (scripts, tests) skips the input box; it is never echoed.
  const token =
    typeof given === 'string'
      ? given
      : await vscode.window.showInputBox({
          title: vscode.l10n.t('Time Tracker: Set Token'),
          prompt: vscode.l10n.t("Paste the token shown in the app's settings (Integrations → HTTP API). It is kept in VS Code's secret storage."),
          password: true,
          ignoreFocusOut: true,
          validateInput: (value) => (value.trim() === '' ? vscode.l10n.t('The token must not be empty.') : undefined),
        });
  if (token === undefined || token.trim() === '') return false;
  // Done means in use: a report or a command right after Set Token goes out with the new token.
  await services.session.setToken(token.trim());
  if (services.session.channel.kind === 'integration') {
    void vscode.window.showInformationMessage(
      vscode.l10n.t("Token stored. The app's VS Code integration is in use now; the token is for the HTTP API, when the integration is off."),
    );
  }
  return true;
}

async function clearToken(services: CommandServices): Promise<void> {
  await services.session.clearToken();
}

async function checkConnection(services: CommandServices): Promise<Advice> {
  const { session } = services;
  // A capability file that appeared or went stale a moment ago counts: read it now.
  await session.recheckIntegration();
  const client = await session.ready();
  const facts = { channel: session.channel, capability: session.capability, defaultPort: DEFAULT_PORT };
  let advice: Advice;
  if (!client) {
    advice = diagnose(facts);
  } else {
    let health: unknown;
    let statusError: unknown;
    try {
      const answer = await client.healthcheck();
      health = answer;
      // Not said (the app's first releases answer `{"ok": true}`) is not locked: look at the status.
      if (answer.license !== 'locked') {
        await client.getStatus().catch((error: unknown) => {
          statusError = error;
        });
      }
    } catch (error) {
      health = error;
    }
    const route = session.channel.route;
    const defaultPortAnswers = route.kind === 'http' && route.port !== DEFAULT_PORT && (await somethingListens(DEFAULT_PORT));
    advice = diagnose({ ...facts, health, statusError, defaultPortAnswers });
  }
  services.log.info(`Check Connection (${describeRouteForLog(session.channel.route)}): ${advice.message}`);
  void session.refresh();
  void showAdvice(services, advice);
  return advice;
}

async function showMenu(services: CommandServices): Promise<void> {
  const entries = menuFor(services.session.state, services.session.tokenStored, services.queue.waiting);
  const chosen = await vscode.window.showQuickPick(
    entries.map((entry) => ({ label: entry.label, ...(entry.detail === undefined ? {} : { detail: entry.detail }), command: entry.command })),
    { title: vscode.l10n.t('Time Tracker'), placeHolder: services.statusBar.presentation.accessibilityLabel },
  );
  if (chosen) await vscode.commands.executeCommand(chosen.command);
}

// ---- helpers ---------------------------------------------------------------------------------------

/** The activity picker of Start and Log Time: what to send, and the name to show. */
async function chooseActivity(
  services: CommandServices,
  client: ServiceClient,
  title: string,
): Promise<{ selector: StartArgs; name: string; groupName?: string | null | undefined } | undefined> {
  const pick = await pickActivity(client, {
    title,
    placeholder: vscode.l10n.t('Type to search activities, or a new name to create it'),
    recent: recent(services),
    onError: (error) => report(services, error),
  });
  if (!pick) return undefined;
  return pick.kind === 'create'
    ? { selector: { name: pick.name, createIfMissing: true }, name: pick.name }
    : { selector: { activityID: pick.activity.activityID }, name: pick.activity.activityName, groupName: pick.activity.groupName };
}

async function clientOrAdvice(services: CommandServices): Promise<ServiceClient | undefined> {
  const { session } = services;
  const client = await session.ready();
  if (!client) void showAdvice(services, diagnose({ channel: session.channel, capability: session.capability, defaultPort: DEFAULT_PORT }));
  return client;
}

/** Runs a call, reports its failure in one sentence, and refreshes the status bar either way. */
async function run<T>(services: CommandServices, call: () => Promise<T>): Promise<T | undefined> {
  try {
    return await call();
  } catch (error) {
    report(services, error);
    return undefined;
  } finally {
    void services.session.refreshUnlessPaused();
  }
}

/** Logs and shows the failure; the command does not wait for the notification to be closed. */
function report(services: CommandServices, error: unknown): void {
  const advice = adviceForError(error, services.session.channel.route);
  services.log.error(advice.message);
  void showAdvice(services, advice);
}

const actionLabels = (): Record<FixAction, string> => ({
  setToken: vscode.l10n.t('Set Token'),
  openSettings: vscode.l10n.t('Open Settings'),
  showLog: vscode.l10n.t('Show Log'),
  retry: vscode.l10n.t('Check Again'),
});

async function showAdvice(services: CommandServices, advice: Advice): Promise<void> {
  const show =
    advice.severity === 'info'
      ? vscode.window.showInformationMessage
      : advice.severity === 'warning'
        ? vscode.window.showWarningMessage
        : vscode.window.showErrorMessage;
  const label = advice.action === undefined ? undefined : actionLabels()[advice.action];
  const chosen = await (label === undefined ? show(advice.message) : show(advice.message, label));
  if (chosen === undefined || advice.action === undefined) return;
  switch (advice.action) {
    case 'setToken':
      await vscode.commands.executeCommand(COMMANDS.setToken);
      return;
    case 'openSettings':
      await vscode.commands.executeCommand('workbench.action.openSettings', 'timeTracker');
      return;
    case 'showLog':
      services.log.show();
      return;
    case 'retry':
      await vscode.commands.executeCommand(COMMANDS.checkConnection);
      return;
  }
}

function recent(services: CommandServices): PickableActivity[] {
  return services.memento.get<PickableActivity[]>(RECENT_KEY, []);
}

/** Only an activity the app named is remembered; the group comes from the picker (answers do not carry it). */
async function remember(services: CommandServices, activity: { readonly activityID: string | undefined; readonly activityName: string | undefined }, groupName: string | null | undefined): Promise<void> {
  const { activityID, activityName } = activity;
  if (activityID === undefined || activityName === undefined) return;
  const reference = { activityID, activityName, ...(groupName === undefined ? {} : { groupName }) };
  await services.memento.update(RECENT_KEY, rememberRecent(recent(services), reference));
}

/** A TCP connect only: no request, so nothing can count as a failed authentication. */
function somethingListens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', timeout: 500 });
    const finish = (answer: boolean): void => {
      socket.destroy();
      resolve(answer);
    };
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
    socket.once('timeout', () => finish(false));
  });
}

/** The argument forms each command names when its arguments are wrong. */
const START_SHAPE = '{ "name": "…", "createIfMissing": true }';
const LOG_SHAPE = '{ "name": "…", "durationMinutes": 30, "note": "…" }';

function readStartArgs(args: unknown, command: string, shape: string): StartArgs | string {
  if (typeof args !== 'object' || args === null) {
    return vscode.l10n.t('{command} takes {shape} or {alternative}.', { command, shape, alternative: '{ "activityID": "…" }' });
  }
  const { name, activityID, createIfMissing } = args as Record<string, unknown>;
  if (name !== undefined && typeof name !== 'string') return vscode.l10n.t('{command}: "{field}" must be text.', { command, field: 'name' });
  if (activityID !== undefined && typeof activityID !== 'string') return vscode.l10n.t('{command}: "{field}" must be text.', { command, field: 'activityID' });
  if (createIfMissing !== undefined && typeof createIfMissing !== 'boolean') {
    return vscode.l10n.t('{command}: "{field}" must be true or false.', { command, field: 'createIfMissing' });
  }
  if ((name === undefined || name.trim() === '') && activityID === undefined) {
    return vscode.l10n.t('{0} needs "name" or "activityID".', command);
  }
  return {
    ...(name === undefined ? {} : { name }),
    ...(activityID === undefined ? {} : { activityID }),
    ...(createIfMissing === undefined ? {} : { createIfMissing }),
  };
}

function readLogArgs(args: unknown): LogArgs | string {
  const command = 'timeTracker.log';
  const base = readStartArgs(args, command, LOG_SHAPE);
  if (typeof base === 'string') return base;
  const { durationMinutes, note } = args as Record<string, unknown>;
  let minutes: number;
  if (typeof durationMinutes === 'number') {
    if (!Number.isInteger(durationMinutes)) {
      return vscode.l10n.t('{command}: "{field}" must be a whole number of minutes; write other durations as text, such as "1h30m".', { command, field: 'durationMinutes' });
    }
    minutes = durationMinutes;
  }
  else if (typeof durationMinutes === 'string') {
    const parsed = parseDuration(durationMinutes);
    if (!parsed.ok) return `${command}: ${parsed.message}`;
    minutes = parsed.minutes;
  } else return vscode.l10n.t('{0} needs "durationMinutes" (a number of minutes, or text such as "1h30m").', command);
  if (note !== undefined && typeof note !== 'string') return vscode.l10n.t('{command}: "{field}" must be text.', { command, field: 'note' });
  return { ...base, durationMinutes: minutes, ...(note === undefined ? {} : { note }) };
}
