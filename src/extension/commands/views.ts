/**
 * The status bar menu, Show Queued Entries and the private status bar's switch: what the
 * user opens to look and decide, and what they hide before sharing their screen.
 */
import * as vscode from 'vscode';
import { COMMANDS } from '../../tracker/ids';
import { longSession } from '../../tracker/model/longSession';
import { leadWithStop, linkQuestionEntry, menuFor, menuPlaceholder } from '../../tracker/pickers/menu';
import { formatMinutes } from '../../tracker/duration';
import { privateToggle } from '../../tracker/statusBar/privateToggle';
import { SECTION } from '../settings';
import { PauseGate } from './pauseGate';
import type { CommandServices } from './services';

/**
 * The status bar item's click in every state: what works in the state, under a placeholder saying what the menu is for.
 */
export async function showMenu(services: CommandServices): Promise<void> {
  const { state } = services.session;
  const undo = services.links.undo;
  const nowMs = Date.now();
  const long = longSession(state, nowMs, services.settings().longSessionHours);
  const offered = [
    ...(services.links.waiting?.kind === 'question' ? [linkQuestionEntry()] : []),
    ...menuFor(
      state,
      services.session.tokenStored,
      services.queue.waiting,
      undo && { started: undo.started.activityName, previous: undo.previous?.activityName },
      services.session.channel.route.kind,
    ),
  ];
  const entries = long === undefined ? offered : leadWithStop(offered, long, nowMs);
  const chosen = await vscode.window.showQuickPick(
    entries.map((entry) => ({
      label: entry.label,
      ...(entry.detail === undefined ? {} : { detail: entry.detail }),
      command: entry.command,
      args: entry.args ?? [],
    })),
    { title: vscode.l10n.t('Time Tracker'), placeHolder: menuPlaceholder(state) },
  );
  if (chosen) await vscode.commands.executeCommand(chosen.command, ...chosen.args);
}

/**
 * timeTracker.statusBar.private on or off in the user's settings, never a repository's
 * (src/tracker/statusBar/privateToggle.ts). The status bar follows the settings change at once.
 */
export async function togglePrivateStatusBar(services: CommandServices): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const key = 'statusBar.private';
  const toggle = privateToggle(config.inspect<boolean>(key));
  await config.update(key, toggle.value, vscode.ConfigurationTarget.Global);
  services.log.info(
    `Private status bar ${toggle.value ? 'on' : 'off'} (user settings` +
      `${toggle.message === undefined ? '' : "; the repository's value is not used"}).`,
  );
  if (toggle.message !== undefined) void services.messages.info(toggle.message);
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
  delivered: vscode.l10n.t('logged by the app; still to be removed from the queue'),
});

/** Lists the queued entries; each can be sent now or discarded. */
export async function showQueue(services: CommandServices): Promise<void> {
  const entries = await services.queue.list();
  const words = statusWords();
  if (entries.length === 0) {
    void services.messages.info(vscode.l10n.t('No logged time waits to be sent.'));
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
        ...(entry.reason === undefined && entry.request.note === undefined
          ? {}
          : { detail: [entry.request.note, entry.reason].filter(Boolean).join(' — ') }),
      };
    }),
    {
      title: vscode.l10n.t('Queued Entries'),
      placeHolder: vscode.l10n.t('Pick an entry to send it now or discard it'),
    },
  );
  if (!picked) return;
  if (picked.status === 'delivered') {
    await removeDelivered(services, picked);
    return;
  }
  const { warning, sendLabel, modal } = sendOrDiscard(picked);
  const discardLabel = vscode.l10n.t('Discard');
  const choice = await services.messages.ask(warning, { modal }, sendLabel, discardLabel);
  if (choice === discardLabel) {
    await services.queue.discard(picked.id);
    services.log.info(`Discarded the queued ${picked.logText}.`);
  } else if (choice === sendLabel) {
    await services.queue.retry(picked.id);
    // While the app rejects the token or locks us out, each entry sent would be refused (and count).
    const gate = new PauseGate(services, COMMANDS.showQueue);
    if (
      !gate.holdsBack(
        vscode.l10n.t('The entry stays queued; it is sent once the app accepts requests again.'),
        'warning',
      )
    ) {
      await services.queue.flush(await services.session.ready());
    }
  }
  void services.session.refreshUnlessPaused();
}

/**
 * What the user is asked about a picked entry. One the app may already have (its fate unknown,
 * or another window is sending it) goes again only on "Send Anyway", after a modal warning.
 */
function sendOrDiscard(picked: QueuePick): {
  readonly warning: string;
  readonly sendLabel: string;
  readonly modal: boolean;
} {
  if (picked.status === 'unknown') {
    const warning = [
      vscode.l10n.t('The app may already have logged this entry (the connection broke while it was sent).'),
      vscode.l10n.t('Check the app first: sending it again may log it twice.'),
    ].join(' ');
    return { warning, sendLabel: vscode.l10n.t('Send Anyway'), modal: true };
  }
  if (picked.status === 'sending') {
    const warning = vscode.l10n.t(
      'An editor window is sending this entry right now, or was when it closed. Check the app first: sending it again may log it twice.',
    );
    return { warning, sendLabel: vscode.l10n.t('Send Anyway'), modal: true };
  }
  return {
    warning: vscode.l10n.t('Send or discard {0}?', picked.label),
    sendLabel: vscode.l10n.t('Send Now'),
    modal: false,
  };
}

/** The app has it: sending it again is not offered; removing it from the queue file is. */
async function removeDelivered(services: CommandServices, picked: QueuePick): Promise<void> {
  const removeLabel = vscode.l10n.t('Remove from Queue');
  const choice = await services.messages.ask(
    [
      vscode.l10n.t(
        'The app has logged {0}; only removing it from the queue failed, so it is not sent again.',
        picked.label,
      ),
      vscode.l10n.t('It leaves the queue with the next change that can be written.'),
    ].join(' '),
    { modal: false },
    removeLabel,
  );
  if (choice !== removeLabel) return;
  await services.queue.discard(picked.id);
  services.log.info(`Removed the queued ${picked.logText}, which the app had logged, from the queue.`);
}
