/**
 * The facts of the states that warn: the app cannot be reached, refuses the token or the clock,
 * has no valid license, locks requests out, lacks GET /status, or failed. Each says what is the
 * matter and what to do, worded for the way to the app where the fix differs (the VS Code
 * integration's token and switch are fixed in the app, the HTTP API's token and port here).
 */
import * as l10n from '@vscode/l10n';
import { COMMANDS, EXTENSION_ID } from '../ids';
import { httpAddress, type Route } from '../model/channel';
import { escapeMarkdown, link } from '../markup';
import type { StatusFacts, StatusLink } from './factTypes';

const checkConnection = (): StatusLink => ({ label: l10n.t('Check Connection'), command: COMMANDS.checkConnection });
/** Log Time where the app cannot take the entry now: the entry waits in the queue, as the menu says. */
const queuedLogTime = (): StatusLink => ({ label: l10n.t('Log Time (queued)'), command: COMMANDS.log });
const openPortSetting = (): string =>
  `[${l10n.t('port setting')}](command:workbench.action.openSettings?%5B%22timeTracker.port%22%5D)`;
const linkTo = ({ label, command }: StatusLink): string => link(label, command);

export function noTokenFacts(): StatusFacts {
  return {
    text: { icon: 'key', state: l10n.t('Time Tracker: set token') },
    spoken: l10n.t(
      "Time Tracker: not connected. Turn on the app's VS Code integration, or set a token for its HTTP API. Activate for the menu.",
    ),
    tooltip: {
      headline: [
        l10n.t(
          '**Not connected.** In the time-tracking app, turn on **Settings → Integrations → VSCode**: nothing else to set up.',
        ),
        l10n.t('Or turn on its HTTP API switch and {0}.', link(l10n.t('set its token here'), COMMANDS.setToken)),
      ],
    },
    tone: 'warning',
  };
}

/** The user settings' line that makes the extension run on the user's side of a remote window. */
export const RUN_LOCALLY_SETTING = `"remote.extensionKind": { "${EXTENSION_ID}": ["ui"] }`;

/**
 * A remote window's extension host on the remote machine: nothing is sent from there, and the
 * tooltip says the two ways to run the extension on the user's side.
 */
export function remoteHostFacts(): StatusFacts {
  const userSettings = `[${l10n.t('user settings')}](command:workbench.action.openSettings?%5B%22remote.extensionKind%22%5D)`;
  return {
    text: { icon: 'remote', state: l10n.t('Time Tracker: runs remotely') },
    spoken: [
      l10n.t(
        'Time Tracker runs on the remote machine of this window and sends nothing from there: it must run on your computer.',
      ),
      l10n.t('Activate for the menu.'),
    ].join(' '),
    tooltip: {
      headline: [
        l10n.t('**Time Tracker runs on the remote machine of this window.**'),
        l10n.t("The app and 127.0.0.1 there are that machine's, not your computer's, so it sends nothing:"),
        l10n.t('your token would go to whatever listens there.'),
        l10n.t('Let it run on your computer: **Install Locally** in the Extensions view,'),
        l10n.t('or add {setting} to your {userSettings}, then reload the window.', {
          setting: `\`${RUN_LOCALLY_SETTING}\``,
          userSettings,
        }),
      ],
      links: [checkConnection(), { label: l10n.t('Show Log'), command: COMMANDS.showLog }],
    },
    tone: 'warning',
  };
}

/** Offline, worded for the way the app is expected: its integration has no port to name. */
export function offlineFacts(route: Route): StatusFacts {
  const shared = {
    text: { icon: 'debug-disconnect', state: l10n.t('Time Tracker offline') },
    tone: 'warning',
  } as const;
  if (route.kind === 'integration') {
    return {
      ...shared,
      spoken: l10n.t(
        'Time Tracker offline: the app is not answering through its VS Code integration. Activate for the menu.',
      ),
      tooltip: {
        headline: [
          l10n.t('**The app is not answering through its VS Code integration.**'),
          l10n.t(
            'Start the time-tracking application; if it runs, turn **Settings → Integrations → VSCode** off and on.',
          ),
        ],
        links: [queuedLogTime(), checkConnection()],
      },
    };
  }
  const address = httpAddress(route.port);
  return {
    ...shared,
    spoken: l10n.t('Time Tracker offline: the app is not answering on {0}. Activate for the menu.', address),
    tooltip: {
      headline: [
        l10n.t('**The app is not answering on {address}.**', { address }),
        l10n.t(
          'Start the time-tracking application and turn on the **HTTP API** switch in its settings (Integrations);',
        ),
        l10n.t('if it shows another port, change the {portSetting}.', { portSetting: openPortSetting() }),
      ],
      links: [queuedLogTime(), checkConnection()],
    },
  };
}

/** The app refuses requests signed on a clock more than 60 s off: no token would help. */
export function clockSkewFacts(skewSeconds: number): StatusFacts {
  const seconds = Math.abs(skewSeconds);
  const behind = skewSeconds > 0;
  return {
    text: { icon: 'error', state: l10n.t('Time Tracker: your clock is off by {0} s', seconds) },
    spoken: behind
      ? l10n.t(
          "Time Tracker: requests refused because this computer's clock is {0} seconds behind the app's. Activate for the menu.",
          seconds,
        )
      : l10n.t(
          "Time Tracker: requests refused because this computer's clock is {0} seconds ahead of the app's. Activate for the menu.",
          seconds,
        ),
    tooltip: {
      headline: [
        l10n.t('**Your clock is off by {seconds} s** ({direction}).', {
          seconds,
          direction: behind ? l10n.t("behind the app's clock") : l10n.t("ahead of the app's clock"),
        }),
        l10n.t('The app refuses requests more than 60 s off; set the system clock right, then {link}.', {
          link: link(l10n.t('check the connection'), COMMANDS.checkConnection),
        }),
      ],
    },
    tone: 'error',
  };
}

/** A rejected token, worded for the way it came: the integration's own is fixed in the app, not here. */
export function tokenRejectedFacts(route: Route): StatusFacts {
  const text = { icon: 'error', state: l10n.t('Time Tracker: token rejected') };
  if (route.kind === 'integration') {
    return {
      text,
      spoken: l10n.t('Time Tracker: the app rejected the token of its VS Code integration. Activate for the menu.'),
      tooltip: {
        headline: [
          l10n.t('**The app rejected the token of its own VS Code integration file.**'),
          l10n.t(
            'Turn **Settings → Integrations → VSCode** off and on in the app, then {0}.',
            link(l10n.t('check the connection'), COMMANDS.checkConnection),
          ),
          l10n.t('Polling is paused so that retries cannot lock you out.'),
        ],
      },
      tone: 'error',
    };
  }
  return {
    text,
    spoken: l10n.t('Time Tracker: the app rejected the token. Activate for the menu to set it again.'),
    tooltip: {
      headline: [
        l10n.t(
          "**The app rejected the token.** Copy it again from the application's settings and {0}.",
          link(l10n.t('set it'), COMMANDS.setToken),
        ),
        l10n.t('Polling is paused so that retries cannot lock you out.'),
      ],
    },
    tone: 'error',
  };
}

export function licenseLockedFacts(): StatusFacts {
  return {
    text: { icon: 'lock', state: l10n.t('Time Tracker: license locked') },
    spoken: l10n.t('Time Tracker: the application has no valid license. Activate for the menu.'),
    tooltip: {
      headline: [
        l10n.t(
          "**The application's license is locked.** Activate or renew the license in the application; tracking works again right after.",
        ),
        linkTo(checkConnection()),
      ],
    },
    tone: 'warning',
  };
}

/** Too many failed sign-ins: `seconds` until the app accepts requests again. */
export function lockedOutFacts(seconds: number): StatusFacts {
  return {
    text: { icon: 'circle-slash', state: l10n.t('Time Tracker: locked out ({0} s)', seconds) },
    spoken: l10n.t(
      'Time Tracker: locked out after too many failed sign-ins, {0} seconds left. Activate for the menu.',
      seconds,
    ),
    tooltip: {
      headline: [
        l10n.t('**Locked out for {0} s more.**', seconds),
        l10n.t(
          'The app refuses every request for 60 s after more than 10 failed authentications in 30 s (a wrong token in some tool?).',
        ),
        l10n.t('Polling waits until then; logged time waits in the queue.'),
      ],
      links: [queuedLogTime(), checkConnection()],
    },
    tone: 'error',
  };
}

export function unavailableFacts(): StatusFacts {
  return {
    text: { icon: 'warning', state: l10n.t('Time Tracker: status not available') },
    spoken: l10n.t('Time Tracker: the app does not offer its status right now. Activate for the menu.'),
    tooltip: {
      headline: [
        l10n.t('**The app does not offer this endpoint right now (503).** Update the application or restart it.'),
        linkTo(checkConnection()),
      ],
    },
    tone: 'warning',
  };
}

/** Any other failure: its own sentence, quoted as it came. */
export function failedFacts(message: string): StatusFacts {
  return {
    text: { icon: 'warning', state: l10n.t('Time Tracker: error') },
    spoken: l10n.t('Time Tracker error: {0}', message),
    tooltip: {
      headline: [`**${escapeMarkdown(message)}**`],
      links: [{ label: l10n.t('Show Log'), command: COMMANDS.showLog }, checkConnection()],
    },
    tone: 'warning',
  };
}
