/**
 * A refusal of what was sent, and any failure a picker names in a few words, said in the
 * extension's own translated words: the app's sentences are English and name fields of its API
 * (`q`, `name`), which the user never typed.
 */
import * as l10n from '@vscode/l10n';
import { NAME_MAX_LENGTH, NOTE_MAX_LENGTH } from '../../protocol/constants';
import { classify } from '../model/classify';

/** The app did not take the request as sent: an activity it does not know, or a value out of its bounds. */
export function refusalAdvice(kind: 'notFound' | 'invalid'): { readonly severity: 'error'; readonly message: string } {
  if (kind === 'notFound') {
    return {
      severity: 'error',
      message: l10n.t(
        'The time tracker does not know that activity (or this version of the app lacks the request): pick it again, or update the app.',
      ),
    };
  }
  return {
    severity: 'error',
    message: l10n.t(
      'The time tracker refused what was sent: an activity name is at most {name} characters, a note at most {note}.',
      { name: NAME_MAX_LENGTH, note: NOTE_MAX_LENGTH },
    ),
  };
}

/**
 * What a failure was, in a few of the extension's own words, for a sentence that says what failed
 * (a picker's failed search): never the app's English nor a field of its API; the log has those.
 */
export function failureInBrief(error: unknown): string {
  const failure = classify(error);
  switch (failure.kind) {
    case 'offline':
    case 'mayHaveArrived':
      return l10n.t('the app is not answering');
    case 'tokenRejected':
      return l10n.t('the app rejected the token');
    case 'lockedOut':
      return l10n.t('the app refuses requests for now');
    case 'licenseLocked':
      return l10n.t('the license is locked');
    case 'invalid':
      return l10n.t('the app refused what was sent');
    case 'notFound':
    case 'unavailable':
      return l10n.t('this version of the app does not offer it');
    case 'refused':
    case 'appFailed':
      return failure.status === undefined
        ? l10n.t('the app failed')
        : l10n.t('the app failed (HTTP {0})', failure.status);
    case 'answerLost':
    case 'replayed':
    case 'configuration':
    case 'unexpected':
      return l10n.t('it failed; the log says why');
  }
}
