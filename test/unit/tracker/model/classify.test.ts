/**
 * The one error classifier: every code of src/client/errors.ts, each way its class can be built,
 * and what the four readers (state, advice, queue, branch-report retry) make of each answer, so a
 * new code or kind cannot slip past one of them unnoticed.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AnswerLostError,
  AuthenticationError,
  ConfigurationError,
  ConnectionError,
  HttpError,
  NotFoundError,
  ReplayError,
  ServiceError,
  UnavailableError,
  ValidationError,
  type ServiceErrorCode,
} from '../../../../src/client/errors';
import { classify, type Failure, type FailureKind } from '../../../../src/tracker/model/classify';
import { retryable } from '../../../../src/tracker/model/reportRetry';
import { stateFromError, type TrackerStateKind } from '../../../../src/tracker/model/trackerState';
import { outcomeOfError, type SendOutcome } from '../../../../src/tracker/queue/entryQueue';
import { adviceForError, type FixAction } from '../../../../src/tracker/advice/advice';

/** One example per kind, built as the client builds it. */
const EXAMPLES: Record<FailureKind, { error: unknown; failure: Failure }> = {
  offline: { error: new ConnectionError('refused', false), failure: { kind: 'offline', message: 'refused' } },
  mayHaveArrived: { error: new ConnectionError('reset', true), failure: { kind: 'mayHaveArrived', message: 'reset' } },
  answerLost: { error: new AnswerLostError('lost'), failure: { kind: 'answerLost', message: 'lost' } },
  tokenRejected: {
    error: new AuthenticationError('clock', -300),
    failure: { kind: 'tokenRejected', message: 'clock', clockSkewSeconds: -300 },
  },
  licenseLocked: { error: new HttpError(423, 'locked', '{}'), failure: { kind: 'licenseLocked', message: 'locked' } },
  lockedOut: {
    error: new HttpError(429, 'out', '{}', 42),
    failure: { kind: 'lockedOut', message: 'out', retryAfterSeconds: 42 },
  },
  unavailable: {
    error: new UnavailableError('not wired'),
    failure: {
      kind: 'unavailable',
      message: 'This endpoint is not available in the application right now: not wired',
      reason: 'not wired',
    },
  },
  notFound: { error: new NotFoundError('gone'), failure: { kind: 'notFound', message: 'gone' } },
  invalid: { error: new ValidationError('bad', 400), failure: { kind: 'invalid', message: 'bad' } },
  replayed: { error: new ReplayError('again'), failure: { kind: 'replayed', message: 'again' } },
  configuration: { error: new ConfigurationError('no port'), failure: { kind: 'configuration', message: 'no port' } },
  refused: {
    error: new HttpError(413, 'too big', '{}'),
    failure: { kind: 'refused', message: 'too big', status: 413 },
  },
  appFailed: { error: new HttpError(500, 'boom', '{}'), failure: { kind: 'appFailed', message: 'boom', status: 500 } },
  unexpected: { error: new TypeError('odd'), failure: { kind: 'unexpected', message: 'odd' } },
};

describe('tracker: classify, the one error classifier', () => {
  for (const [kind, { error, failure }] of Object.entries(EXAMPLES)) {
    it(`classifies ${kind}`, () => assert.deepEqual(classify(error), failure));
  }

  it('has a kind for every code of the client, and nothing but a ServiceError is its kind', () => {
    const codes: Record<ServiceErrorCode, FailureKind[]> = {
      VALIDATION: ['invalid'],
      AUTHENTICATION: ['tokenRejected'],
      NOT_FOUND: ['notFound'],
      REPLAY: ['replayed'],
      UNAVAILABLE: ['unavailable'],
      HTTP: ['licenseLocked', 'lockedOut', 'refused', 'appFailed'],
      CONNECTION: ['offline', 'mayHaveArrived'],
      ANSWER_LOST: ['answerLost'],
      CONFIGURATION: ['configuration'],
    };
    for (const [code, kinds] of Object.entries(codes)) {
      for (const kind of kinds) {
        const { error } = EXAMPLES[kind];
        assert.ok(error instanceof ServiceError, kind);
        assert.equal(error.code, code, kind);
      }
    }
    const covered = Object.values(codes).flat().sort();
    assert.deepEqual(covered, (Object.keys(EXAMPLES) as FailureKind[]).filter((kind) => kind !== 'unexpected').sort());
  });

  it('reads the details a class leaves out as not said', () => {
    assert.deepEqual(classify(new AuthenticationError('bad token')), {
      kind: 'tokenRejected',
      message: 'bad token',
      clockSkewSeconds: undefined,
    });
    assert.deepEqual(classify(new HttpError(429, 'busy', '')), {
      kind: 'lockedOut',
      message: 'busy',
      retryAfterSeconds: undefined,
    });
    // Built with a code but not through its class: a connection error that does not say it was not sent may have been.
    assert.deepEqual(classify(new ServiceError('CONNECTION', 'odd')), { kind: 'mayHaveArrived', message: 'odd' });
    assert.deepEqual(classify(new ServiceError('UNAVAILABLE', 'off')), {
      kind: 'unavailable',
      message: 'off',
      reason: 'off',
    });
    assert.deepEqual(classify(new ServiceError('HTTP', 'no status')), {
      kind: 'appFailed',
      message: 'no status',
      status: undefined,
    });
  });

  it('splits the other statuses at 500', () => {
    assert.equal(classify(new HttpError(200, 'said nothing', '{}')).kind, 'refused');
    assert.equal(classify(new HttpError(405, 'method', '{}')).kind, 'refused');
    assert.equal(classify(new HttpError(499, 'x', '{}')).kind, 'refused');
    assert.equal(classify(new HttpError(502, 'x', '{}')).kind, 'appFailed');
  });

  it('reads an error of another loaded copy of the client the same: the core and the rest are two bundles', () => {
    // A second copy of errors.js, as the rest's bundle holds beside the core's.
    const folder = mkdtempSync(join(tmpdir(), 'tt-errors-copy-'));
    try {
      copyFileSync(require.resolve('../../../../src/client/errors'), join(folder, 'errors.js'));
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const other = require(join(folder, 'errors.js')) as typeof import('../../../../src/client/errors');
      assert.notEqual(other.ConnectionError, ConnectionError, 'a copy of its own');
      const error = new other.ConnectionError('Nothing answers.', false);
      assert.ok(error instanceof ServiceError && error instanceof ConnectionError);
      assert.equal(error instanceof AuthenticationError, false);
      assert.deepEqual(classify(error), { kind: 'offline', message: 'Nothing answers.' });
      assert.equal(new ConnectionError('x', true) instanceof other.ConnectionError, true);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('keeps the sentence of anything thrown that is not the client’s', () => {
    assert.deepEqual(classify('a string'), { kind: 'unexpected', message: 'a string' });
    assert.deepEqual(classify(undefined), { kind: 'unexpected', message: 'undefined' });
    assert.deepEqual(classify(new Error('plain')), { kind: 'unexpected', message: 'plain' });
  });

  it('gives state, advice, queue and retry one reading of every kind', () => {
    const route = { kind: 'http', port: 39847 } as const;
    const expected: Record<FailureKind, [TrackerStateKind, FixAction | undefined, SendOutcome['kind'], boolean]> = {
      offline: ['offline', 'openSettings', 'notSent', true],
      mayHaveArrived: ['failed', 'showLog', 'unknown', false],
      answerLost: ['failed', 'showLog', 'unknown', false],
      tokenRejected: ['tokenRejected', 'retry', 'blocked', false],
      licenseLocked: ['licenseLocked', 'retry', 'blocked', false],
      lockedOut: ['lockedOut', 'retry', 'blocked', true],
      unavailable: ['unavailable', 'showLog', 'blocked', true],
      notFound: ['failed', undefined, 'refused', false],
      invalid: ['failed', undefined, 'refused', false],
      replayed: ['failed', 'showLog', 'unknown', false],
      configuration: ['failed', 'openSettings', 'unknown', false],
      refused: ['failed', 'showLog', 'blocked', false],
      appFailed: ['failed', 'showLog', 'unknown', false],
      unexpected: ['failed', 'showLog', 'unknown', false],
    };
    for (const [kind, { error }] of Object.entries(EXAMPLES) as [FailureKind, { error: unknown }][]) {
      const actual = [
        stateFromError(error, 0).kind,
        adviceForError(error, route).action,
        outcomeOfError(error).kind,
        retryable(error),
      ];
      assert.deepEqual(actual, expected[kind], kind);
    }
  });
});
