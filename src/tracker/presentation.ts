/**
 * State → what the status bar item shows: text with a codicon, a Markdown tooltip with command
 * links, what a click does, and a tone. Pure, so every state is unit-tested as a user sees it.
 */
import { formatMinutes } from './duration';
import type { TrackerState } from './trackerState';

export const COMMANDS = {
  start: 'timeTracker.start',
  stop: 'timeTracker.stop',
  log: 'timeTracker.log',
  setToken: 'timeTracker.setToken',
  clearToken: 'timeTracker.clearToken',
  checkConnection: 'timeTracker.checkConnection',
  showLog: 'timeTracker.showLog',
  showMenu: 'timeTracker.showMenu',
  showQueue: 'timeTracker.showQueue',
} as const;

export type CommandId = (typeof COMMANDS)[keyof typeof COMMANDS];

export interface PresentationSettings {
  readonly showTodayTotal: boolean;
  readonly port: number;
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
const OPEN_PORT_SETTING = '[port setting](command:workbench.action.openSettings?%5B%22timeTracker.port%22%5D)';

/**
 * The state's presentation, plus the number of logged entries waiting in the offline queue:
 * a waiting entry is shown in every state, because it is the user's time that is not yet logged.
 */
export function present(state: TrackerState, settings: PresentationSettings, nowMs: number, queued = 0): Presentation {
  const base = presentState(state, settings, nowMs);
  if (queued <= 0) return base;
  const entries = queued === 1 ? '1 logged entry waits' : `${queued} logged entries wait`;
  return {
    ...base,
    text: `${base.text} · $(inbox) ${queued} queued`,
    tooltip: `${base.tooltip}

---

**${entries} to be sent** once the app answers. ${link('Show Queued Entries', COMMANDS.showQueue)}`,
    accessibilityLabel: `${base.accessibilityLabel} ${entries} to be sent.`,
  };
}

function presentState(state: TrackerState, settings: PresentationSettings, nowMs: number): Presentation {
  const address = `127.0.0.1:${settings.port}`;
  switch (state.kind) {
    case 'starting':
      return plain('$(sync~spin) Time Tracker', 'Time Tracker: connecting', 'Asking the time tracker what is running…', COMMANDS.showMenu);
    case 'noToken':
      return {
        text: '$(key) Time Tracker: set token',
        accessibilityLabel: 'Time Tracker: no token set. Activate to set the token.',
        tooltip: `**No token set.** Copy the token from the application's settings (Integrations, HTTP API) and ${link('set it here', COMMANDS.setToken)}.`,
        command: COMMANDS.setToken,
        tone: 'warning',
      };
    case 'offline':
      return {
        text: '$(debug-disconnect) Time Tracker offline',
        accessibilityLabel: `Time Tracker offline: the app is not answering on ${address}. Activate to check the connection.`,
        tooltip:
          `**The app is not answering on ${address}.** Start the time-tracking application and turn on the ` +
          `**HTTP API** switch in its settings (Integrations); if it shows another port, change the ${OPEN_PORT_SETTING}.\n\n` +
          link('Check Connection', COMMANDS.checkConnection),
        command: COMMANDS.checkConnection,
        tone: 'warning',
      };
    case 'tokenRejected': {
      if (state.clockSkewSeconds !== undefined) {
        const seconds = Math.abs(state.clockSkewSeconds);
        const direction = state.clockSkewSeconds > 0 ? 'behind' : 'ahead of';
        return {
          text: `$(error) Time Tracker: your clock is off by ${seconds} s`,
          accessibilityLabel: `Time Tracker: requests refused because this computer's clock is ${seconds} seconds ${direction} the app's.`,
          tooltip: `**Your clock is off by ${seconds} s** (${direction} the app's clock). The app refuses requests more than 60 s off; set the system clock right, then ${link('check the connection', COMMANDS.checkConnection)}.`,
          command: COMMANDS.checkConnection,
          tone: 'error',
        };
      }
      return {
        text: '$(error) Time Tracker: token rejected',
        accessibilityLabel: 'Time Tracker: the app rejected the token. Activate to set the token again.',
        tooltip: `**The app rejected the token.** Copy it again from the application's settings and ${link('set it', COMMANDS.setToken)}. Polling is paused so that retries cannot lock you out.`,
        command: COMMANDS.setToken,
        tone: 'error',
      };
    }
    case 'licenseLocked':
      return {
        text: '$(lock) Time Tracker: license locked',
        accessibilityLabel: 'Time Tracker: the application has no valid license.',
        tooltip: `**The application's license is locked.** Activate or renew the license in the application; tracking works again right after. ${link('Check Connection', COMMANDS.checkConnection)}`,
        command: COMMANDS.checkConnection,
        tone: 'warning',
      };
    case 'lockedOut': {
      const seconds = Math.max(1, Math.ceil((state.untilMs - nowMs) / 1000));
      return {
        text: `$(circle-slash) Time Tracker: locked out (${seconds} s)`,
        accessibilityLabel: `Time Tracker: locked out after too many failed sign-ins, ${seconds} seconds left.`,
        tooltip: `**Locked out for ${seconds} s more.** The app refuses every request for 60 s after more than 10 failed authentications in 30 s (a wrong token in some tool?). Polling waits until then.`,
        command: COMMANDS.checkConnection,
        tone: 'error',
      };
    }
    case 'unavailable':
      return {
        text: '$(warning) Time Tracker: status not available',
        accessibilityLabel: 'Time Tracker: the app does not offer its status right now.',
        tooltip: `**The app does not offer this endpoint right now (503).** Update the application or restart it. ${link('Check Connection', COMMANDS.checkConnection)}`,
        command: COMMANDS.checkConnection,
        tone: 'warning',
      };
    case 'failed':
      return {
        text: '$(warning) Time Tracker: error',
        accessibilityLabel: `Time Tracker error: ${state.message}`,
        tooltip: `**${escapeMarkdown(state.message)}**\n\n${link('Show Log', COMMANDS.showLog)} · ${link('Check Connection', COMMANDS.checkConnection)}`,
        command: COMMANDS.showLog,
        tone: 'warning',
      };
    case 'idle': {
      const today = todayText(state.todaySeconds, settings);
      if (state.onBreak) return onBreak(undefined, today);
      return {
        text: `$(clock) Not tracking${today.inline}`,
        accessibilityLabel: `Time Tracker: not tracking${today.spoken}. Activate for the menu.`,
        tooltip: `**Not tracking.**${today.line}\n\n${link('Start', COMMANDS.start)} · ${link('Log Time', COMMANDS.log)}`,
        command: COMMANDS.showMenu,
        tone: 'normal',
      };
    }
    case 'tracking': {
      const sinceObserved = Math.max(0, Math.floor((nowMs - state.observedAtMs) / 1000));
      const elapsed = formatElapsed(state.elapsedSeconds + sinceObserved);
      const today = todayText(state.todaySeconds + sinceObserved, settings);
      const name = state.activity.activityName;
      if (state.onBreak) return onBreak(name, today);
      return {
        text: `$(record) ${escapeIcons(name)} ${elapsed}${today.inline}`,
        accessibilityLabel: `Time Tracker: tracking ${name} for ${elapsed}${today.spoken}. Activate for the menu.`,
        tooltip: `**Tracking ${escapeMarkdown(name)}** for ${elapsed}.${today.line}\n\n${link('Stop', COMMANDS.stop)} · ${link('Switch Activity', COMMANDS.start)} · ${link('Log Time', COMMANDS.log)}`,
        command: COMMANDS.showMenu,
        tone: 'normal',
      };
    }
  }
}

function plain(text: string, accessibilityLabel: string, tooltip: string, command: CommandId): Presentation {
  return { text, accessibilityLabel, tooltip, command, tone: 'normal' };
}

function onBreak(name: string | undefined, today: TodayText): Presentation {
  const what = name === undefined ? '' : ` (${escapeIcons(name)})`;
  return {
    text: `$(coffee) On break${what}${today.inline}`,
    accessibilityLabel: `Time Tracker: on break${name === undefined ? '' : `, ${name} paused`}${today.spoken}.`,
    tooltip: `**On break.**${name === undefined ? '' : ` ${escapeMarkdown(name)} continues when you start it again.`}${today.line}\n\n${link('Start', COMMANDS.start)} · ${link('Log Time', COMMANDS.log)}`,
    command: COMMANDS.showMenu,
    tone: 'normal',
  };
}

interface TodayText {
  readonly inline: string;
  readonly spoken: string;
  readonly line: string;
}

function todayText(seconds: number, settings: PresentationSettings): TodayText {
  const total = formatMinutes(Math.floor(seconds / 60));
  return {
    inline: settings.showTodayTotal ? ` · today ${total}` : '',
    spoken: settings.showTodayTotal ? `, ${total} today` : '',
    line: `\n\nToday: ${total}.`,
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
