import assert from 'node:assert/strict';
import { AnswerLostError, AuthenticationError, ConnectionError, HttpError, UnavailableError } from '../../../src/client/errors';
import { adviceForError, diagnose } from '../../../src/tracker/advice';

const base = { port: 40001, defaultPort: 39847, hasToken: true };

describe('tracker/advice', () => {
  it('diagnoses each cause in one sentence, with the button that fixes it', () => {
    const cases: [Parameters<typeof diagnose>[0], RegExp, string | undefined][] = [
      [{ ...base, hasToken: false }, /^No token is set/, 'setToken'],
      [{ ...base, health: new ConnectionError('x', false) }, /not answering on 127\.0\.0\.1:40001: start the app and turn on its HTTP API switch/, 'openSettings'],
      [{ ...base, health: new ConnectionError('x', false), defaultPortAnswers: true }, /something does on 39847, the app's default: the port setting is probably wrong/, 'openSettings'],
      [{ ...base, health: new AuthenticationError('x') }, /rejected the token/, 'setToken'],
      [{ ...base, health: new AuthenticationError("This computer's clock is 300 s behind", 300) }, /clock is 300 s behind/, 'retry'],
      [{ ...base, health: { status: 'ok', license: 'locked', version: '1' } }, /license is locked/, 'retry'],
      [{ ...base, health: new HttpError(429, 'x', '', 37) }, /refusing requests for 37 s/, 'retry'],
      [{ ...base, health: { status: 'ok', license: 'valid', version: '1' }, statusError: new UnavailableError('x') }, /GET \/status answers 503/, 'showLog'],
      [{ ...base, health: { status: 'ok', license: 'valid', version: '1' } }, /^Connected to the time tracker on 127\.0\.0\.1:40001/, undefined],
    ];
    for (const [facts, pattern, action] of cases) {
      const advice = diagnose(facts);
      assert.match(advice.message, pattern);
      assert.equal(advice.action, action, advice.message);
    }
  });

  it('names an unwired feature once, in the app\'s own words', () => {
    const advice = adviceForError(new UnavailableError('The application has not wired up /entries; it is not available right now.'), 40001);
    assert.equal(
      advice.message,
      'This feature is not available in your version of the app (503): The application has not wired up /entries; it is not available right now.',
    );
    assert.equal(advice.action, 'showLog');
  });

  it('says plainly when an answer was lost rather than calling it a failure to send', () => {
    const advice = adviceForError(new AnswerLostError('POST /entries reached the service, but its answer was lost'), 40001);
    assert.equal(advice.severity, 'warning');
    assert.match(advice.message, /reached the service/);
  });
});
