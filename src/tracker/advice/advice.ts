/**
 * A failure turned into what the user reads: one sentence saying what happened and what to do,
 * and the button that fixes it where one exists. Commands and Check Connection share it.
 * The sentences are translated; a message the client wrote (a clock off, an answer lost) or the
 * app's reason for a feature it lacks is quoted as it came, in English. A refusal of what was sent
 * is said in the extension's own words: the app's sentence names fields of its API.
 */
import * as l10n from '@vscode/l10n';
import type { CapabilityReading } from '../../client/capabilityReader';
import type { HealthAnswer } from '../../client/answerTypes';
import { describeRoute, httpAddress, type Channel, type Route } from '../model/channel';
import { classify } from '../model/classify';
import { RUN_LOCALLY_SETTING } from '../statusBar/warningFacts';
import { refusalAdvice } from './refusals';

/** `runLocally`: the user settings at `remote.extensionKind`, where the extension is told to run on the user's side. */
export type FixAction = 'setToken' | 'openSettings' | 'showLog' | 'retry' | 'runLocally';

export interface Advice {
  readonly severity: 'info' | 'warning' | 'error';
  readonly message: string;
  readonly action?: FixAction;
}

export function adviceForError(error: unknown, route: Route): Advice {
  const failure = classify(error);
  switch (failure.kind) {
    case 'offline':
      return offlineAdvice(route);
    case 'mayHaveArrived':
      return {
        severity: 'error',
        message: l10n.t('{0} Check the app before you try again.', failure.message),
        action: 'showLog',
      };
    case 'answerLost':
      return { severity: 'warning', message: failure.message, action: 'showLog' };
    case 'tokenRejected':
      if (failure.clockSkewSeconds !== undefined)
        return { severity: 'error', message: failure.message, action: 'retry' };
      return tokenRejectedAdvice(route);
    case 'licenseLocked':
      return {
        severity: 'error',
        message: l10n.t("The time tracker's license is locked: activate or renew it in the app, then try again."),
        action: 'retry',
      };
    case 'lockedOut': {
      const wait =
        failure.retryAfterSeconds === undefined ? l10n.t('a minute') : l10n.t('{0} s', failure.retryAfterSeconds);
      return {
        severity: 'error',
        message: l10n.t(
          'The time tracker is refusing requests for {0} after too many failed sign-ins; check that every tool uses the current token.',
          wait,
        ),
        action: 'retry',
      };
    }
    case 'unavailable':
      return {
        severity: 'error',
        message: l10n.t('This feature is not available in your version of the app (503): {0}', failure.reason),
        action: 'showLog',
      };
    case 'notFound':
    case 'invalid':
      return refusalAdvice(failure.kind);
    case 'configuration':
      return { severity: 'error', message: failure.message, action: 'openSettings' };
    case 'replayed':
    case 'refused':
    case 'appFailed':
    case 'unexpected':
      return { severity: 'error', message: l10n.t('The time tracker failed: {0}', failure.message), action: 'showLog' };
  }
}

/** Nothing answers: through the integration the fix is in the app; over HTTP, its switch or the port. */
function offlineAdvice(route: Route): Advice {
  if (route.kind === 'integration') {
    return {
      severity: 'error',
      message: [
        l10n.t(
          'The time tracker is not answering through its VS Code integration (socket refused): the app may be quitting or restarting.',
        ),
        l10n.t('If it runs, turn Settings → Integrations → VSCode off and on in the app.'),
      ].join(' '),
      action: 'retry',
    };
  }
  return {
    severity: 'error',
    message: [
      l10n.t(
        'The time tracker is not answering on {address}: start the app and turn on its HTTP API switch (Settings → Integrations),',
        { address: httpAddress(route.port) },
      ),
      l10n.t('and check that it uses port {port}.', { port: route.port }),
    ].join(' '),
    action: 'openSettings',
  };
}

/** A wrong token: the integration's own is renewed in the app; the HTTP API's is set here. */
function tokenRejectedAdvice(route: Route): Advice {
  if (route.kind === 'integration') {
    return {
      severity: 'error',
      message: [
        l10n.t('The time tracker refused the token of its own VS Code integration file:'),
        l10n.t('turn Settings → Integrations → VSCode off and on in the app, then check again.'),
      ].join(' '),
      action: 'retry',
    };
  }
  return {
    severity: 'error',
    message: l10n.t(
      'The time tracker rejected the token: copy it again from the app (Settings → Integrations → HTTP API) and set it.',
    ),
    action: 'setToken',
  };
}

export interface ConnectionFacts {
  /** The channel in use, or why there is none. */
  readonly channel: Pick<Channel, 'kind' | 'route'> & {
    readonly reason?: Extract<Channel, { kind: 'none' }>['reason'];
  };
  /** What the capability file of the app's VS Code integration said, last time it was read. */
  readonly capability: CapabilityReading;
  /** The health check's answer, or the error it failed with; undefined when not tried (no channel). */
  readonly health?: unknown;
  /** Whether GET /status failed, and how, once the health check passed. */
  readonly statusError?: unknown;
  /** Something listens on the default port while the setting names another one. */
  readonly defaultPortAnswers?: boolean;
  readonly defaultPort: number;
}

/** Check Connection's verdict: one sentence, with the button that fixes it. */
export function diagnose(facts: ConnectionFacts): Advice {
  const { channel, capability } = facts;
  if (channel.kind === 'none') return adviceWithoutChannel(channel.reason ?? 'noToken', capability);
  const route = channel.route;
  const health = facts.health;
  if (
    route.kind === 'http' &&
    classify(health).kind === 'offline' &&
    facts.defaultPortAnswers === true &&
    route.port !== facts.defaultPort
  ) {
    return {
      severity: 'error',
      message: l10n.t(
        "Nothing answers on port {port}, but something does on {defaultPort}, the app's default: the port setting is probably wrong.",
        { port: route.port, defaultPort: facts.defaultPort },
      ),
      action: 'openSettings',
    };
  }
  if (health instanceof Error) return adviceForError(health, route);
  if (isHealth(health) && health.license === 'locked') {
    return {
      severity: 'error',
      message: l10n.t("Connected, but the time tracker's license is locked: activate or renew it in the app."),
      action: 'retry',
    };
  }
  if (facts.statusError !== undefined) {
    const failure = classify(facts.statusError);
    if (failure.kind === 'notFound') {
      // PROTOCOL.md §8: a 404 on GET /status only means that this version of the app does not offer it.
      return {
        severity: 'info',
        message: [
          l10n.t('Connected to the time tracker {0}, a first release of the app:', describeRoute(route)),
          l10n.t('it shows what runs, but has no total for today, no Stop and no Log Time. Update the app for them.'),
        ].join(' '),
      };
    }
    if (failure.kind === 'unavailable') {
      return {
        severity: 'error',
        message: l10n.t(
          'Connected, but this version of the app does not offer its status (GET /status answers 503): update the app.',
        ),
        action: 'showLog',
      };
    }
    return adviceForError(facts.statusError, route);
  }
  return connectedAdvice(route, isHealth(health) && health.license === 'valid');
}

/**
 * All is well. The license is only named when the app named it: its first releases do not.
 * Through the app's VS Code integration the user never saw a token, so none is spoken of.
 */
function connectedAdvice(route: Route, licenseValid: boolean): Advice {
  if (route.kind === 'integration') {
    const message = licenseValid
      ? l10n.t("Connected to the time tracker through the app's VS Code integration: the license is valid.")
      : l10n.t("Connected to the time tracker through the app's VS Code integration.");
    return { severity: 'info', message };
  }
  const message = licenseValid
    ? l10n.t('Connected to the time tracker {0}: the token works and the license is valid.', describeRoute(route))
    : l10n.t('Connected to the time tracker {0}: the token works.', describeRoute(route));
  return { severity: 'info', message };
}

/**
 * No way to the app: why, in one sentence, the VS Code switch first (it needs no setup), the
 * HTTP API second. Also the status bar's sentence for a capability file that cannot be used.
 */
export function adviceWithoutChannel(
  reason: Extract<Channel, { kind: 'none' }>['reason'],
  capability: CapabilityReading,
): Advice {
  if (reason === 'remoteHost') return remoteHostAdvice();
  const fileProblem = capabilityFileAdvice(capability);
  if (fileProblem !== undefined) return fileProblem;
  if (reason === 'appClosed') {
    return {
      severity: 'warning',
      message: [
        l10n.t('The time-tracking app is not running, or its VS Code integration is off:'),
        l10n.t('start the app and check Settings → Integrations → VSCode.'),
      ].join(' '),
      action: 'retry',
    };
  }
  return {
    severity: 'warning',
    message: [
      l10n.t(
        'Not connected: in the time-tracking app, turn on Settings → Integrations → VSCode (nothing else to set up).',
      ),
      l10n.t('Or turn on its HTTP API switch and set the token it shows here.'),
    ].join(' '),
    action: 'setToken',
  };
}

/** What a capability file that cannot be used (or names an app that quit) says; undefined for none, or a good one. */
function capabilityFileAdvice(capability: CapabilityReading): Advice | undefined {
  switch (capability.kind) {
    case 'unreadable':
      return capability.privacy === true ? macPrivacyAdvice(capability.path) : unusableFileAdvice(capability);
    case 'invalid':
    case 'untrusted':
      return unusableFileAdvice(capability);
    case 'newer':
      return {
        severity: 'error',
        message: [
          l10n.t('The time-tracking app is newer than this extension'),
          l10n.t('(its VS Code integration file {0} has a version this extension does not know):', capability.path),
          l10n.t("update the extension, or set a token for the app's HTTP API meanwhile."),
        ].join(' '),
        action: 'setToken',
      };
    case 'stale':
      return {
        severity: 'warning',
        message: l10n.t(
          'The time-tracking app is not running (its VS Code integration file names process {0}, which has ended): start the app.',
          capability.capability.pid,
        ),
        action: 'retry',
      };
    case 'absent':
    case 'ready':
      return undefined;
  }
}

function unusableFileAdvice(
  capability: Extract<CapabilityReading, { kind: 'unreadable' | 'invalid' | 'untrusted' }>,
): Advice {
  return { severity: 'error', message: unusableFileMessage(capability), action: 'showLog' };
}

/**
 * macOS asked whether VS Code may read another app's data (the app's container) and the user
 * declined: nothing is wrong with the file, and it is not read again until Check Connection.
 */
function macPrivacyAdvice(path: string): Advice {
  return {
    severity: 'warning',
    message: [
      l10n.t("macOS did not let VS Code read the app's VS Code integration file {0}:", path),
      l10n.t("it asks before VS Code reads another app's data, and the answer was no,"),
      l10n.t('so the extension does not look there again until Check Connection.'),
      l10n.t(
        'To use the integration, allow Visual Studio Code in System Settings › Privacy & Security (Full Disk Access),',
      ),
      l10n.t('then run Check Connection.'),
      l10n.t("Or turn on the app's HTTP API and set the token it shows here."),
    ].join(' '),
    action: 'setToken',
  };
}

/** A capability file that is there but cannot be used: where it is, what is wrong, and how the app writes it again. */
function unusableFileMessage(
  capability: Extract<CapabilityReading, { kind: 'unreadable' | 'invalid' | 'untrusted' }>,
): string {
  const words = { path: capability.path, problem: capability.message };
  switch (capability.kind) {
    case 'unreadable':
      return [
        l10n.t("The app's VS Code integration file {path} cannot be read: {problem}", words),
        l10n.t('Check its permissions, or turn Settings → Integrations → VSCode off and on in the app.'),
      ].join(' ');
    case 'invalid':
      return [
        l10n.t("The app's VS Code integration file {path} is not valid: {problem}", words),
        l10n.t('Turn Settings → Integrations → VSCode off and on in the app to write it again.'),
      ].join(' ');
    case 'untrusted':
      return [
        l10n.t("The app's VS Code integration file {path} is not used: {problem}", words),
        l10n.t(
          'Remove it, then turn Settings → Integrations → VSCode off and on in the app to write it again, for you alone.',
        ),
      ].join(' ');
  }
}

/**
 * The extension runs on the remote machine of a remote window: what every command that would
 * talk to the app says instead, and the one message at start. Nothing was sent.
 */
export function remoteHostAdvice(): Advice {
  return {
    severity: 'warning',
    message: [
      l10n.t(
        "Time Tracker runs on the remote machine of this window, where 127.0.0.1 and the app's files are that machine's:",
      ),
      l10n.t('it sends nothing from there, so that your token cannot go to whatever listens on it.'),
      l10n.t('Let it run on your computer: choose Install Locally in the Extensions view,'),
      l10n.t('or add {0} to your user settings, then reload the window.', RUN_LOCALLY_SETTING),
    ].join(' '),
    action: 'runLocally',
  };
}

function isHealth(value: unknown): value is HealthAnswer {
  return typeof value === 'object' && value !== null && 'license' in value;
}
