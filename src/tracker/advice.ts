/**
 * A failure turned into what the user reads: one sentence saying what happened and what to do,
 * and the button that fixes it where one exists. Commands and Check Connection share it.
 * The sentences are translated; a message the client or the app wrote (a clock off, an answer
 * lost, the app's own refusal) is quoted as it came, in English.
 */
import * as l10n from '@vscode/l10n';
import {
  AnswerLostError,
  AuthenticationError,
  ConfigurationError,
  ConnectionError,
  HttpError,
  NotFoundError,
  UnavailableError,
  ValidationError,
} from '../client/errors';
import type { HealthcheckResult } from '../protocol/types';

export type FixAction = 'setToken' | 'openSettings' | 'showLog' | 'retry';

export interface Advice {
  readonly severity: 'info' | 'warning' | 'error';
  readonly message: string;
  readonly action?: FixAction;
}

export function adviceForError(error: unknown, port: number): Advice {
  const address = `127.0.0.1:${port}`;
  if (error instanceof ConnectionError) {
    if (!error.sent) {
      return {
        severity: 'error',
        message: l10n.t(
          'The time tracker is not answering on {address}: start the app and turn on its HTTP API switch (Settings → Integrations), and check that it uses port {port}.',
          { address, port },
        ),
        action: 'openSettings',
      };
    }
    return { severity: 'error', message: l10n.t('{0} Check the app before you try again.', error.message), action: 'showLog' };
  }
  if (error instanceof AnswerLostError) {
    return { severity: 'warning', message: error.message, action: 'showLog' };
  }
  if (error instanceof AuthenticationError) {
    if (error.clockSkewSeconds !== undefined) {
      return { severity: 'error', message: error.message, action: 'retry' };
    }
    return {
      severity: 'error',
      message: l10n.t('The time tracker rejected the token: copy it again from the app (Settings → Integrations → HTTP API) and set it.'),
      action: 'setToken',
    };
  }
  if (error instanceof HttpError && error.licenseLocked) {
    return { severity: 'error', message: l10n.t("The time tracker's license is locked: activate or renew it in the app, then try again."), action: 'retry' };
  }
  if (error instanceof HttpError && error.status === 429) {
    const wait = error.retryAfterSeconds === undefined ? l10n.t('a minute') : l10n.t('{0} s', error.retryAfterSeconds);
    return {
      severity: 'error',
      message: l10n.t('The time tracker is refusing requests for {0} after too many failed sign-ins; check that every tool uses the current token.', wait),
      action: 'retry',
    };
  }
  if (error instanceof UnavailableError) {
    return { severity: 'error', message: l10n.t('This feature is not available in your version of the app (503): {0}', error.reason), action: 'showLog' };
  }
  if (error instanceof NotFoundError) return { severity: 'error', message: error.message };
  if (error instanceof ValidationError) return { severity: 'error', message: error.message };
  if (error instanceof ConfigurationError) return { severity: 'error', message: error.message, action: 'openSettings' };
  const message = error instanceof Error ? error.message : String(error);
  return { severity: 'error', message: l10n.t('The time tracker failed: {0}', message), action: 'showLog' };
}

export interface ConnectionFacts {
  readonly port: number;
  readonly hasToken: boolean;
  /** The health check's answer, or the error it failed with; undefined when not tried (no token). */
  readonly health?: unknown;
  /** Whether GET /status failed, and how, once the health check passed. */
  readonly statusError?: unknown;
  /** Something listens on the default port while the setting names another one. */
  readonly defaultPortAnswers?: boolean;
  readonly defaultPort: number;
}

/** Check Connection's verdict: one sentence, with the button that fixes it. */
export function diagnose(facts: ConnectionFacts): Advice {
  if (!facts.hasToken) {
    return {
      severity: 'warning',
      message: l10n.t("No token is set: copy it from the app's settings (Integrations → HTTP API) and set it here."),
      action: 'setToken',
    };
  }
  const health = facts.health;
  if (health instanceof ConnectionError && !health.sent && facts.defaultPortAnswers === true && facts.port !== facts.defaultPort) {
    return {
      severity: 'error',
      message: l10n.t("Nothing answers on port {port}, but something does on {defaultPort}, the app's default: the port setting is probably wrong.", {
        port: facts.port,
        defaultPort: facts.defaultPort,
      }),
      action: 'openSettings',
    };
  }
  if (health instanceof Error) return adviceForError(health, facts.port);
  if (isHealth(health) && health.license === 'locked') {
    return { severity: 'error', message: l10n.t("Connected, but the time tracker's license is locked: activate or renew it in the app."), action: 'retry' };
  }
  if (facts.statusError !== undefined) {
    if (facts.statusError instanceof UnavailableError) {
      return {
        severity: 'error',
        message: l10n.t('Connected, but this version of the app does not offer its status (GET /status answers 503): update the app.'),
        action: 'showLog',
      };
    }
    return adviceForError(facts.statusError, facts.port);
  }
  return { severity: 'info', message: l10n.t('Connected to the time tracker on {0}: the token works and the license is valid.', `127.0.0.1:${facts.port}`) };
}

function isHealth(value: unknown): value is HealthcheckResult {
  return typeof value === 'object' && value !== null && 'license' in value;
}
