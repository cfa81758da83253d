import assert from 'node:assert/strict';
import {
  AnswerLostError,
  AuthenticationError,
  ConnectionError,
  HttpError,
  NotFoundError,
  UnavailableError,
  ValidationError,
} from '../../../../src/client/errors';
import type { CapabilityReading } from '../../../../src/client/capabilityReader';
import { adviceForError, diagnose } from '../../../../src/tracker/advice/advice';
import { failureInBrief } from '../../../../src/tracker/advice/refusals';
import type { Route } from '../../../../src/tracker/model/channel';

const http: Route = { kind: 'http', port: 40001 };
const absent: CapabilityReading = {
  kind: 'absent',
  path: '/home/u/Library/Containers/com.mattes.nowdoing/Data/api-endpoint.json',
};
const base = { channel: { kind: 'http', route: http }, capability: absent, defaultPort: 39847 } as const;
const integration = { kind: 'integration', route: { kind: 'integration', socketPath: '/tmp/app/api.sock' } } as const;
const none = (reason: 'noToken' | 'appClosed' | 'integrationUnusable') =>
  ({ kind: 'none', route: http, reason }) as const;
const capability = { version: 1, socketPath: '/tmp/app/api.sock', token: 'capability-token', pid: 4242 } as const;

describe('tracker/advice', () => {
  it('diagnoses each cause in one sentence, with the button that fixes it', () => {
    const cases: [Parameters<typeof diagnose>[0], RegExp, string | undefined][] = [
      [
        { ...base, channel: none('noToken') },
        /^Not connected: in the time-tracking app, turn on Settings → Integrations → VSCode \(nothing else to set up\)\. Or turn on its HTTP API/,
        'setToken',
      ],
      [{ ...base, channel: none('appClosed') }, /is not running, or its VS Code integration is off/, 'retry'],
      [
        { ...base, channel: none('appClosed'), capability: { kind: 'stale', path: absent.path, capability } },
        /not running \(its VS Code integration file names process 4242, which has ended\): start the app/,
        'retry',
      ],
      [
        {
          ...base,
          channel: none('integrationUnusable'),
          capability: { kind: 'invalid', path: absent.path, message: '"pid" must be a whole number, not "x".' },
        },
        /api-endpoint\.json is not valid: "pid" must be a whole number, not "x"\. Turn Settings → Integrations → VSCode off and on/,
        'showLog',
      ],
      [
        {
          ...base,
          channel: none('integrationUnusable'),
          capability: { kind: 'unreadable', path: absent.path, message: 'this user may not read it.' },
        },
        /cannot be read: this user may not read it\./,
        'showLog',
      ],
      [
        {
          ...base,
          channel: none('integrationUnusable'),
          capability: { kind: 'unreadable', path: absent.path, message: 'declined', privacy: true },
        },
        /macOS did not let VS Code read .* System Settings › Privacy & Security .* Check Connection\. Or turn on the app's HTTP API/,
        'setToken',
      ],
      [
        {
          ...base,
          channel: none('integrationUnusable'),
          capability: { kind: 'newer', path: absent.path, message: 'it has version 2' },
        },
        /app is newer than this extension/,
        'setToken',
      ],
      [
        { ...base, channel: integration, health: new ConnectionError('x', false) },
        /not answering through its VS Code integration \(socket refused\)/,
        'retry',
      ],
      [
        { ...base, channel: integration, health: new ConnectionError('x', false), defaultPortAnswers: true },
        /not answering through its VS Code integration/,
        'retry',
      ],
      [
        { ...base, channel: integration, health: new AuthenticationError('x') },
        /refused the token of its own VS Code integration file/,
        'retry',
      ],
      [
        { ...base, channel: integration, health: { status: 'ok', license: 'valid', version: '1' } },
        /^Connected to the time tracker through the app's VS Code integration: the license is valid\.$/,
        undefined,
      ],
      [
        { ...base, health: new ConnectionError('x', false) },
        /not answering on 127\.0\.0\.1:40001: start the app and turn on its HTTP API switch/,
        'openSettings',
      ],
      [
        { ...base, health: new ConnectionError('x', false), defaultPortAnswers: true },
        /something does on 39847, the app's default: the port setting is probably wrong/,
        'openSettings',
      ],
      [{ ...base, health: new AuthenticationError('x') }, /rejected the token/, 'setToken'],
      [
        { ...base, health: new AuthenticationError("This computer's clock is 300 s behind", 300) },
        /clock is 300 s behind/,
        'retry',
      ],
      [{ ...base, health: { status: 'ok', license: 'locked', version: '1' } }, /license is locked/, 'retry'],
      [{ ...base, health: new HttpError(429, 'x', '', 37) }, /refusing requests for 37 s/, 'retry'],
      [
        { ...base, health: { status: 'ok', license: 'valid', version: '1' }, statusError: new UnavailableError('x') },
        /GET \/status answers 503/,
        'showLog',
      ],
      [
        { ...base, health: { status: 'ok', license: 'valid', version: '1' } },
        /^Connected to the time tracker through the HTTP API on 127\.0\.0\.1:40001: the token works/,
        undefined,
      ],
    ];
    for (const [facts, pattern, action] of cases) {
      const advice = diagnose(facts);
      assert.match(advice.message, pattern);
      assert.doesNotMatch(advice.message, /capability-token/, "the integration's token is never shown");
      assert.equal(advice.action, action, advice.message);
    }
  });

  it("speaks of no token through the app's VS Code integration, where the user never saw one", () => {
    const valid = { status: 'ok', license: 'valid', version: '1' } as const;
    const unnamed = { status: 'ok', version: '1' } as const;
    assert.deepEqual(diagnose({ ...base, channel: integration, health: valid }), {
      severity: 'info',
      message: "Connected to the time tracker through the app's VS Code integration: the license is valid.",
    });
    assert.deepEqual(diagnose({ ...base, channel: integration, health: unnamed }), {
      severity: 'info',
      message: "Connected to the time tracker through the app's VS Code integration.",
    });
    // Over the HTTP API the user pasted the token: that it works is news.
    assert.equal(
      diagnose({ ...base, health: unnamed }).message,
      'Connected to the time tracker through the HTTP API on 127.0.0.1:40001: the token works.',
    );
  });

  it('says which integration file is not trusted, why and what to do, and never shows the token', () => {
    const message =
      'the socket it names, /tmp/app/api.sock, belongs to user 4321, not to you (user 501): the token would go to another user.';
    const advice = diagnose({
      ...base,
      channel: none('integrationUnusable'),
      capability: { kind: 'untrusted', path: absent.path, message },
    });
    assert.equal(
      advice.message,
      `The app's VS Code integration file ${absent.path} is not used: ${message} Remove it, then turn Settings → Integrations → VSCode off and on in the app to write it again, for you alone.`,
    );
    assert.deepEqual([advice.severity, advice.action], ['error', 'showLog']);
  });

  it("names an unwired feature once, in the app's own words", () => {
    const advice = adviceForError(
      new UnavailableError('The application has not wired up /entries; it is not available right now.'),
      http,
    );
    assert.equal(
      advice.message,
      'This feature is not available in your version of the app (503): The application has not wired up /entries; it is not available right now.',
    );
    assert.equal(advice.action, 'showLog');
  });

  it('says plainly when an answer was lost rather than calling it a failure to send', () => {
    const advice = adviceForError(
      new AnswerLostError('POST /entries reached the service, but its answer was lost'),
      http,
    );
    assert.equal(advice.severity, 'warning');
    assert.match(advice.message, /reached the service/);
  });

  it("says a refusal in the extension's own words, never the app's English or a field of the API", () => {
    const refusals = [
      new ValidationError('name must be at most 200 characters.'),
      new ValidationError('The service refused the request: q must be at most 200 characters.', 400),
      new NotFoundError('Activity not found.'),
    ];
    for (const error of refusals) {
      for (const said of [adviceForError(error, http).message, failureInBrief(error)]) {
        assert.doesNotMatch(said, /must be|not found|\bq\b/, said);
        assert.ok(said.length > 0);
      }
    }
    assert.match(adviceForError(refusals[0], http).message, /at most 200 characters/);
    assert.equal(failureInBrief(new HttpError(500, 'Internal error (kaputt).', '{}')), 'the app failed (HTTP 500)');
  });
});
