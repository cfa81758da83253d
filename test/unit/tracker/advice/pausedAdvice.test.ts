import assert from 'node:assert/strict';
import type { Route } from '../../../../src/tracker/model/channel';
import { pausedAdvice } from '../../../../src/tracker/advice/pausedAdvice';

const http: Route = { kind: 'http', port: 40001 };
const integration: Route = { kind: 'integration', socketPath: '/tmp/app/api.sock' };

describe('tracker/pausedAdvice: what a command says when it sends nothing', () => {
  it('says what was not done, why, and offers the fix for the way to the app', () => {
    const rejected = { kind: 'tokenRejected', clockSkewSeconds: undefined } as const;
    const lockedOut = { kind: 'lockedOut', secondsLeft: 42 } as const;
    const cases: [ReturnType<typeof pausedAdvice>, RegExp, string][] = [
      [
        pausedAdvice(rejected, http, 'Tracking was not started.', 'error'),
        /^Tracking was not started\. The app rejected the token: copy it again .* and set it\. Until then nothing is sent/,
        'setToken',
      ],
      [
        pausedAdvice(rejected, integration, 'Tracking was not started.', 'error'),
        /^Tracking was not started\. The app rejected the token of its VS Code integration: turn Settings → Integrations → VSCode off and on/,
        'retry',
      ],
      [
        pausedAdvice({ kind: 'tokenRejected', clockSkewSeconds: -300 }, http, undefined, 'error'),
        /^The app refuses requests signed on this computer's clock, which is 300 s off/,
        'retry',
      ],
      [
        pausedAdvice(lockedOut, http, undefined, 'warning'),
        /^The app refuses every request for 42 s more after too many failed sign-ins .*If this editor's token is the wrong one, set it again\.$/,
        'setToken',
      ],
      [
        pausedAdvice(lockedOut, integration, undefined, 'warning'),
        /^The app refuses every request for 42 s more .*nothing is sent until then\.$/,
        'retry',
      ],
    ];
    for (const [advice, message, action] of cases) {
      assert.match(advice.message, message);
      assert.equal(advice.action, action, advice.message);
    }
    assert.equal(pausedAdvice(lockedOut, http, '30m on Docs is queued.', 'warning').severity, 'warning');
  });
});
