/**
 * The client's errors keep their meaning when the code that made one is another loaded copy of
 * src/client/errors.ts than the code that checks it (another bundle, or a transport loaded later):
 * `instanceof`, `classify` and the client's own re-send all read an error of either copy. Two
 * copies of the built bundle dist/client.js are loaded under two module cache entries (the file
 * and a copy of it), and both are checked against the sources' own copy that tsc compiled.
 */
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import * as sources from '../../../src/client';
import { Transport, type WireResponse } from '../../../src/client/transport';
import { classify, type Failure } from '../../../src/tracker/model/classify';

const bundlePath = join(__dirname, '..', '..', '..', '..', 'dist', 'client.js');

const CLASS_NAMES = [
  'ServiceError',
  'ValidationError',
  'AuthenticationError',
  'NotFoundError',
  'ReplayError',
  'UnavailableError',
  'HttpError',
  'ConnectionError',
  'AnswerLostError',
  'ConfigurationError',
] as const;

type ClassName = (typeof CLASS_NAMES)[number];
/** As a test calls them: each example passes the arguments its class takes. */
type ErrorClass = new (...args: unknown[]) => Error & { readonly code?: unknown };
type ClientModule = Record<ClassName, ErrorClass>;

const CODES: Record<ClassName, sources.ServiceErrorCode> = {
  ServiceError: 'HTTP',
  ValidationError: 'VALIDATION',
  AuthenticationError: 'AUTHENTICATION',
  NotFoundError: 'NOT_FOUND',
  ReplayError: 'REPLAY',
  UnavailableError: 'UNAVAILABLE',
  HttpError: 'HTTP',
  ConnectionError: 'CONNECTION',
  AnswerLostError: 'ANSWER_LOST',
  ConfigurationError: 'CONFIGURATION',
};

/** One error of each class, made by `copy`, with what `classify` must read from it. */
function examples(
  copy: ClientModule,
): { className: ClassName; error: Error & { readonly code?: unknown }; failure: Failure }[] {
  const make = (className: ClassName, ...args: unknown[]): Error & { readonly code?: unknown } =>
    new copy[className](...args);
  return [
    {
      className: 'ServiceError',
      error: make('ServiceError', 'HTTP', 'odd', 502),
      failure: { kind: 'appFailed', message: 'odd', status: 502 },
    },
    {
      className: 'ValidationError',
      error: make('ValidationError', 'bad', 400),
      failure: { kind: 'invalid', message: 'bad' },
    },
    {
      className: 'AuthenticationError',
      error: make('AuthenticationError', 'clock', -300),
      failure: { kind: 'tokenRejected', message: 'clock', clockSkewSeconds: -300 },
    },
    {
      className: 'NotFoundError',
      error: make('NotFoundError', 'gone'),
      failure: { kind: 'notFound', message: 'gone' },
    },
    { className: 'ReplayError', error: make('ReplayError', 'again'), failure: { kind: 'replayed', message: 'again' } },
    {
      className: 'UnavailableError',
      error: make('UnavailableError', 'not wired'),
      failure: {
        kind: 'unavailable',
        message: 'This endpoint is not available in the application right now: not wired',
        reason: 'not wired',
      },
    },
    {
      className: 'HttpError',
      error: make('HttpError', 429, 'out', '{}', 42),
      failure: { kind: 'lockedOut', message: 'out', retryAfterSeconds: 42 },
    },
    {
      className: 'ConnectionError',
      error: make('ConnectionError', 'refused', false),
      failure: { kind: 'offline', message: 'refused' },
    },
    {
      className: 'AnswerLostError',
      error: make('AnswerLostError', 'lost'),
      failure: { kind: 'answerLost', message: 'lost' },
    },
    {
      className: 'ConfigurationError',
      error: make('ConfigurationError', 'no token'),
      failure: { kind: 'configuration', message: 'no token' },
    },
  ];
}

describe('client errors across loaded copies', () => {
  let folder: string;
  let bundle: ClientModule;
  let copy: ClientModule;

  before(() => {
    folder = mkdtempSync(join(tmpdir(), 'tt-client-copy-'));
    const copyPath = join(folder, 'client.js');
    copyFileSync(bundlePath, copyPath);
    const load = createRequire(__filename);
    bundle = load(bundlePath) as ClientModule;
    copy = load(copyPath) as ClientModule;
    assert.notEqual(bundle.ConnectionError, copy.ConnectionError, 'two copies of each class are loaded');
  });

  after(() => rmSync(folder, { recursive: true, force: true }));

  it('holds instanceof between copies: an error is its class and ServiceError in every copy, and no sibling', () => {
    const others = (): [string, ClientModule][] => [
      ['the copy', copy],
      ['the sources', sources as unknown as ClientModule],
    ];
    for (const { className, error } of examples(bundle)) {
      for (const [where, other] of others()) {
        for (const name of CLASS_NAMES) {
          const expected = name === className || name === 'ServiceError';
          assert.equal(
            error instanceof other[name],
            expected,
            `a ${className} of dist/client.js instanceof ${name} of ${where}`,
          );
        }
      }
    }
    for (const value of [new Error('plain'), { code: 'CONNECTION', sent: false }, null, undefined, 'CONNECTION', 42]) {
      assert.equal(value instanceof copy.ServiceError, false, inspect(value));
    }
  });

  it('classifies an error made by another copy by its code, with the fields its class adds', () => {
    for (const { className, error, failure } of examples(bundle)) {
      assert.deepEqual(classify(error), failure, className);
      assert.equal(error.code, CODES[className], className);
    }
    const sent = new copy.ConnectionError('reset', true);
    assert.deepEqual(classify(sent), { kind: 'mayHaveArrived', message: 'reset' });
  });

  describe('the client reading a transport failure of another copy', () => {
    const originalSend = Object.getOwnPropertyDescriptor(Transport.prototype, 'send')!;
    afterEach(() => Object.defineProperty(Transport.prototype, 'send', originalSend));

    it('re-sends a GET that surely was not sent, as it does its own ConnectionError', async () => {
      const attempts: string[] = [];
      const answers: (() => Promise<WireResponse>)[] = [
        () => Promise.reject(new bundle.ConnectionError('refused', false)),
        () =>
          Promise.resolve({
            status: 200,
            headers: { 'content-type': 'application/json' },
            text: '{"ok":true,"result":{"license":"valid"}}',
          }),
      ];
      Object.defineProperty(Transport.prototype, 'send', {
        configurable: true,
        writable: true,
        value: (request: { target: string }) => {
          attempts.push(request.target);
          return answers.shift()!();
        },
      });
      const client = new sources.ServiceClient({ token: 'copies-token', port: 39_999, headerPrefix: 'Clessira' });
      try {
        assert.deepEqual(await client.healthcheck(), { license: 'valid' });
        assert.deepEqual(attempts, ['/healthcheck', '/healthcheck']);
      } finally {
        await client.close();
      }
    });
  });
});
