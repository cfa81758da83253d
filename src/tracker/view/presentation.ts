/**
 * State → what the status bar item shows: text with a codicon, a Markdown tooltip with command
 * links, what a click does, and a tone. Pure, so every state is unit-tested as a user sees it.
 * Every word goes through `l10n.t` (the bundle is set once at activation); codicons, numbers
 * and activity names stay outside the messages, so a translation cannot break them.
 */
import * as l10n from '@vscode/l10n';
import { COMMANDS, type CommandId } from '../ids';
import { describeRoute, httpAddress, type Route } from '../model/channel';
import { formatMinutes } from './duration';
import { elapsedSecondsAt, type TrackerState } from '../model/trackerState';

export interface PresentationSettings {
  readonly showTodayTotal: boolean;
  /** The way to the app in use (or expected): the tooltip names it, and offline says where. */
  readonly route: Route;
}

export interface Presentation {
  readonly text: string;
  /** Markdown; command links use the ids of COMMANDS. */
  readonly tooltip: string;
  /** What a click on the item runs in this state. */
  readonly command: CommandId;
  readonly tone: 'normal' | 'warning' | 'error';
  /** Read by screen readers instead of the codicon text. */
  readonly accessibilityLabel: string;
}

const link = (label: string, command: CommandId): string => `[${label}](command:${command})`;
const openPortSetting = (): string => `[${l10n.t('port setting')}](command:workbench.action.openSettings?%5B%22timeTracker.port%22%5D)`;

/**
 * The state's presentation, plus the number of logged entries waiting in the offline queue:
 * a waiting entry is shown in every state, because it is the user's time that is not yet logged.
 */
export function present(state: TrackerState, settings: PresentationSettings, nowMs: number, queued = 0): Presentation {
  const base = presentState(state, settings, nowMs);
  if (queued <= 0) return base;
  const one = queued === 1;
  return {
    ...base,
    text: `${base.text} · $(inbox) ${l10n.t('{0} queued', queued)}`,
    tooltip: `${base.tooltip}

---

${one ? l10n.t('**1 logged entry waits to be sent** once the app answers.') : l10n.t('**{0} logged entries wait to be sent** once the app answers.', queued)} ${link(l10n.t('Show Queued Entries'), COMMANDS.showQueue)}`,
    accessibilityLabel: `${base.accessibilityLabel} ${one ? l10n.t('1 logged entry waits to be sent.') : l10n.t('{0} logged entries wait to be sent.', queued)}`,
  };
}

function presentState(state: TrackerState, settings: PresentationSettings, nowMs: number): Presentation {
  const checkConnection = (): string => link(l10n.t('Check Connection'), COMMANDS.checkConnection);
  switch (state.kind) {
    case 'starting':
      return plain('$(sync~spin) Time Tracker', l10n.t('Time Tracker: connecting'), l10n.t('Asking the time tracker what is running…'), COMMANDS.showMenu);
    case 'noToken':
      return {
        text: `$(key) ${l10n.t('Time Tracker: set token')}`,
        accessibilityLabel: l10n.t("Time Tracker: not connected. Turn on the app's VS Code integration, or activate to set a token for its HTTP API."),
        tooltip: l10n.t(
          "**Not connected.** In the time-tracking app, turn on **Settings → Integrations → VSCode**: nothing else to set up. Or turn on its HTTP API switch and {0}.",
          link(l10n.t('set its token here'), COMMANDS.setToken),
        ),
        command: COMMANDS.setToken,
        tone: 'warning',
      };
    case 'offline': {
      if (settings.route.kind === 'integration') {
        return {
          text: `$(debug-disconnect) ${l10n.t('Time Tracker offline')}`,
          accessibilityLabel: l10n.t("Time Tracker offline: the app is not answering through its VS Code integration. Activate to check the connection."),
          tooltip: `${l10n.t(
            "**The app is not answering through its VS Code integration.** Start the time-tracking application; if it runs, turn **Settings → Integrations → VSCode** off and on.",
          )}\n\n${checkConnection()}`,
          command: COMMANDS.checkConnection,
          tone: 'warning',
        };
      }
      const address = httpAddress(settings.route.port);
      return {
        text: `$(debug-disconnect) ${l10n.t('Time Tracker offline')}`,
        accessibilityLabel: l10n.t('Time Tracker offline: the app is not answering on {0}. Activate to check the connection.', address),
        tooltip: `${l10n.t(
          '**The app is not answering on {address}.** Start the time-tracking application and turn on the **HTTP API** switch in its settings (Integrations); if it shows another port, change the {portSetting}.',
          { address, portSetting: openPortSetting() },
        )}\n\n${checkConnection()}`,
        command: COMMANDS.checkConnection,
        tone: 'warning',
      };
    }
    case 'tokenRejected': {
      if (state.clockSkewSeconds !== undefined) {
        const seconds = Math.abs(state.clockSkewSeconds);
        const behind = state.clockSkewSeconds > 0;
        return {
          text: `$(error) ${l10n.t('Time Tracker: your clock is off by {0} s', seconds)}`,
          accessibilityLabel: behind
            ? l10n.t("Time Tracker: requests refused because this computer's clock is {0} seconds behind the app's.", seconds)
            : l10n.t("Time Tracker: requests refused because this computer's clock is {0} seconds ahead of the app's.", seconds),
          tooltip: l10n.t('**Your clock is off by {seconds} s** ({direction}). The app refuses requests more than 60 s off; set the system clock right, then {link}.', {
            seconds,
            direction: behind ? l10n.t("behind the app's clock") : l10n.t("ahead of the app's clock"),
            link: link(l10n.t('check the connection'), COMMANDS.checkConnection),
          }),
          command: COMMANDS.checkConnection,
          tone: 'error',
        };
      }
      if (settings.route.kind === 'integration') {
        return {
          text: `$(error) ${l10n.t('Time Tracker: token rejected')}`,
          accessibilityLabel: l10n.t("Time Tracker: the app rejected the token of its VS Code integration. Activate to check the connection."),
          tooltip: l10n.t(
            "**The app rejected the token of its own VS Code integration file.** Turn **Settings → Integrations → VSCode** off and on in the app, then {0}. Polling is paused so that retries cannot lock you out.",
            link(l10n.t('check the connection'), COMMANDS.checkConnection),
          ),
          command: COMMANDS.checkConnection,
          tone: 'error',
        };
      }
      return {
        text: `$(error) ${l10n.t('Time Tracker: token rejected')}`,
        accessibilityLabel: l10n.t('Time Tracker: the app rejected the token. Activate to set the token again.'),
        tooltip: l10n.t(
          "**The app rejected the token.** Copy it again from the application's settings and {0}. Polling is paused so that retries cannot lock you out.",
          link(l10n.t('set it'), COMMANDS.setToken),
        ),
        command: COMMANDS.setToken,
        tone: 'error',
      };
    }
    case 'licenseLocked':
      return {
        text: `$(lock) ${l10n.t('Time Tracker: license locked')}`,
        accessibilityLabel: l10n.t('Time Tracker: the application has no valid license.'),
        tooltip: `${l10n.t("**The application's license is locked.** Activate or renew the license in the application; tracking works again right after.")} ${checkConnection()}`,
        command: COMMANDS.checkConnection,
        tone: 'warning',
      };
    case 'lockedOut': {
      const seconds = Math.max(1, Math.ceil((state.untilMs - nowMs) / 1000));
      return {
        text: `$(circle-slash) ${l10n.t('Time Tracker: locked out ({0} s)', seconds)}`,
        accessibilityLabel: l10n.t('Time Tracker: locked out after too many failed sign-ins, {0} seconds left.', seconds),
        tooltip: l10n.t(
          '**Locked out for {0} s more.** The app refuses every request for 60 s after more than 10 failed authentications in 30 s (a wrong token in some tool?). Polling waits until then.',
          seconds,
        ),
        command: COMMANDS.checkConnection,
        tone: 'error',
      };
    }
    case 'unavailable':
      return {
        text: `$(warning) ${l10n.t('Time Tracker: status not available')}`,
        accessibilityLabel: l10n.t('Time Tracker: the app does not offer its status right now.'),
        tooltip: `${l10n.t('**The app does not offer this endpoint right now (503).** Update the application or restart it.')} ${checkConnection()}`,
        command: COMMANDS.checkConnection,
        tone: 'warning',
      };
    case 'failed':
      return {
        text: `$(warning) ${l10n.t('Time Tracker: error')}`,
        accessibilityLabel: l10n.t('Time Tracker error: {0}', state.message),
        tooltip: `**${escapeMarkdown(state.message)}**\n\n${link(l10n.t('Show Log'), COMMANDS.showLog)} · ${checkConnection()}`,
        command: COMMANDS.showLog,
        tone: 'warning',
      };
    case 'idle': {
      const today = todayText(state.todaySeconds, settings, state.firstRelease === true);
      if (state.onBreak) return onBreak(undefined, today, settings.route, state);
      return {
        text: `$(clock) ${l10n.t('Not tracking')}${today.inline}`,
        accessibilityLabel:
          today.total === undefined
            ? l10n.t('Time Tracker: not tracking. Activate for the menu.')
            : l10n.t('Time Tracker: not tracking, {0} today. Activate for the menu.', today.total),
        tooltip: `${l10n.t('**Not tracking.**')}${today.line}\n\n${actions(state)}${connectedLine(settings.route)}`,
        command: COMMANDS.showMenu,
        tone: 'normal',
      };
    }
    case 'tracking': {
      const sinceObserved = Math.max(0, Math.floor((nowMs - state.observedAtMs) / 1000));
      const seconds = elapsedSecondsAt(state, nowMs);
      const today = todayText(state.todaySeconds === undefined ? undefined : state.todaySeconds + sinceObserved, settings, state.firstRelease === true);
      const name = state.activity.activityName;
      if (state.onBreak) return onBreak(name, today, settings.route, state);
      const tail = `${today.line}\n\n${actions(state)}${connectedLine(settings.route)}`;
      if (seconds === undefined) {
        // The app did not say when it started: the name alone, rather than a time made up.
        return {
          text: `$(record) ${escapeIcons(name)}${today.inline}`,
          accessibilityLabel:
            today.total === undefined
              ? l10n.t('Time Tracker: tracking {0}. Activate for the menu.', name)
              : l10n.t('Time Tracker: tracking {name}, {today} today. Activate for the menu.', { name, today: today.total }),
          tooltip: `${l10n.t('**Tracking {0}.**', escapeMarkdown(name))}${tail}`,
          command: COMMANDS.showMenu,
          tone: 'normal',
        };
      }
      const elapsed = formatElapsed(seconds);
      return {
        text: `$(record) ${escapeIcons(name)} ${elapsed}${today.inline}`,
        accessibilityLabel:
          today.total === undefined
            ? l10n.t('Time Tracker: tracking {name} for {elapsed}. Activate for the menu.', { name, elapsed })
            : l10n.t('Time Tracker: tracking {name} for {elapsed}, {today} today. Activate for the menu.', { name, elapsed, today: today.total }),
        tooltip: `${l10n.t('**Tracking {name}** for {elapsed}.', { name: escapeMarkdown(name), elapsed })}${tail}`,
        command: COMMANDS.showMenu,
        tone: 'normal',
      };
    }
  }
}

function plain(text: string, accessibilityLabel: string, tooltip: string, command: CommandId): Presentation {
  return { text, accessibilityLabel, tooltip, command, tone: 'normal' };
}

/** The tooltip's last line while the app answers: which way it is reached. */
function connectedLine(route: Route): string {
  return `\n\n${l10n.t('Connected {0}.', describeRoute(route))}`;
}

/**
 * The tooltip's actions. An app without GET /status (a first release) has no stop and no
 * entries either, so those links are left out there.
 */
function actions(state: Extract<TrackerState, { kind: 'idle' | 'tracking' }>): string {
  const full = state.firstRelease !== true;
  const links =
    state.kind === 'tracking' && !state.onBreak
      ? [full && link(l10n.t('Stop'), COMMANDS.stop), link(l10n.t('Switch Activity'), COMMANDS.start), full && link(l10n.t('Log Time'), COMMANDS.log)]
      : [link(l10n.t('Start'), COMMANDS.start), full && link(l10n.t('Log Time'), COMMANDS.log)];
  return links.filter((entry): entry is string => entry !== false).join(' · ');
}

function onBreak(name: string | undefined, today: TodayText, route: Route, state: Extract<TrackerState, { kind: 'idle' | 'tracking' }>): Presentation {
  let accessibilityLabel: string;
  if (name === undefined) {
    accessibilityLabel = today.total === undefined ? l10n.t('Time Tracker: on break.') : l10n.t('Time Tracker: on break, {0} today.', today.total);
  } else {
    accessibilityLabel =
      today.total === undefined
        ? l10n.t('Time Tracker: on break, {0} paused.', name)
        : l10n.t('Time Tracker: on break, {name} paused, {today} today.', { name, today: today.total });
  }
  const resumes = name === undefined ? '' : ` ${l10n.t('{0} continues when you start it again.', escapeMarkdown(name))}`;
  return {
    text: `$(coffee) ${name === undefined ? l10n.t('On break') : l10n.t('On break ({0})', escapeIcons(name))}${today.inline}`,
    accessibilityLabel,
    tooltip: `${l10n.t('**On break.**')}${resumes}${today.line}\n\n${actions(state)}${connectedLine(route)}`,
    command: COMMANDS.showMenu,
    tone: 'normal',
  };
}

interface TodayText {
  /** `· today 3h 20m` after the status bar text, or nothing when the setting hides it. */
  readonly inline: string;
  /** The total for spoken sentences, or undefined when the setting hides it. */
  readonly total: string | undefined;
  /** The tooltip's line, always there. */
  readonly line: string;
}

function todayText(seconds: number | undefined, settings: PresentationSettings, firstRelease: boolean): TodayText {
  if (firstRelease) {
    return { inline: '', total: undefined, line: `\n\n${l10n.t("This version of the app does not report today's total, nor offer Stop and Log Time: update it for them.")}` };
  }
  // A full app that left the total out: no number made up, and no advice to update.
  if (seconds === undefined) return { inline: '', total: undefined, line: `\n\n${l10n.t("Today's total: not said by the app.")}` };
  const total = formatMinutes(Math.floor(seconds / 60));
  return {
    inline: settings.showTodayTotal ? ` · ${l10n.t('today {0}', total)}` : '',
    total: settings.showTodayTotal ? total : undefined,
    line: `\n\n${l10n.t('Today: {0}.', total)}`,
  };
}

/** `12:05` under an hour, `1:02:05` from an hour on. */
export function formatElapsed(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const two = (n: number): string => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${m}:${two(s)}`;
}

/** A name like "$(bug) fix" must show as typed, not as an icon. */
function escapeIcons(text: string): string {
  return text.replace(/\$\(/g, '\\$(');
}

function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>$]/g, (character) => `\\${character}`);
}
