import assert from 'node:assert/strict';
import type { CapabilityReading } from '../../../../src/client/capabilityReader';
import {
  capabilityProblem,
  channelKey,
  chooseChannel,
  describeRoute,
  describeRouteForLog,
  type ChannelInputs,
} from '../../../../src/tracker/model/channel';

const path = '/Users/u/Library/Containers/com.mattes.nowdoing/Data/api-endpoint.json';
const capability = { version: 1, socketPath: '/tmp/app/api.sock', token: 'integration-token', pid: 4242 } as const;
const ready: CapabilityReading = { kind: 'ready', path, capability };
const stale: CapabilityReading = { kind: 'stale', path, capability };
const absent: CapabilityReading = { kind: 'absent', path };
const invalid: CapabilityReading = { kind: 'invalid', path, message: 'it is not JSON.' };
const stored = { token: 'stored-token', source: 'secretStorage' } as const;
const inputs = (overrides: Partial<ChannelInputs>): ChannelInputs => ({
  capability: absent,
  httpToken: undefined,
  port: 39847,
  integrationSeen: false,
  ...overrides,
});

describe('tracker/channel: which way to the app', () => {
  it('prefers the VS Code integration whenever its app runs, over any token', () => {
    for (const httpToken of [undefined, stored, { token: 'env-token', source: '$CLESSIRA_TOKEN' } as const]) {
      assert.deepEqual(chooseChannel(inputs({ capability: ready, httpToken })), {
        kind: 'integration',
        route: { kind: 'integration', socketPath: '/tmp/app/api.sock' },
        token: 'integration-token',
        pid: 4242,
        file: path,
      });
    }
  });

  it('falls back to the HTTP API with a token, whatever the file says', () => {
    for (const capability of [absent, stale, invalid, { kind: 'newer', path, message: 'newer' } as const]) {
      assert.deepEqual(chooseChannel(inputs({ capability, httpToken: stored, port: 40001 })), {
        kind: 'http',
        route: { kind: 'http', port: 40001 },
        token: 'stored-token',
        tokenSource: 'secretStorage',
      });
    }
  });

  it('without either, tells a new user from a quit app from a broken file', () => {
    assert.deepEqual(chooseChannel(inputs({})), {
      kind: 'none',
      route: { kind: 'http', port: 39847 },
      reason: 'noToken',
    });
    assert.deepEqual(
      chooseChannel(inputs({ integrationSeen: true })),
      { kind: 'none', route: { kind: 'integration', socketPath: '' }, reason: 'appClosed' },
      'the file gone after the integration was in use: the app quit',
    );
    const quit = chooseChannel(inputs({ capability: stale }));
    assert.deepEqual(
      quit,
      { kind: 'none', route: { kind: 'integration', socketPath: '/tmp/app/api.sock' }, reason: 'appClosed' },
      'a stale file is a quit app, not a broken one',
    );
    for (const broken of [
      invalid,
      { kind: 'unreadable', path, message: 'it is not a regular file.' } as const,
      { kind: 'newer', path, message: 'newer' } as const,
    ]) {
      const channel = chooseChannel(inputs({ capability: broken }));
      assert.equal(channel.kind === 'none' && channel.reason, 'integrationUnusable', broken.kind);
    }
  });

  it('needs a new client exactly when the route, the token, the app process or the prefix changes', () => {
    const integration = chooseChannel(inputs({ capability: ready }));
    const same = chooseChannel(inputs({ capability: { ...ready }, httpToken: stored }));
    assert.equal(
      channelKey(integration, 'auto'),
      channelKey(same, 'auto'),
      'a token for the HTTP API does not matter while the integration is used',
    );
    const changes = [
      chooseChannel(inputs({ capability: { kind: 'ready', path, capability: { ...capability, pid: 4243 } } })),
      chooseChannel(
        inputs({
          capability: { kind: 'ready', path, capability: { ...capability, socketPath: '/tmp/app/other.sock' } },
        }),
      ),
      chooseChannel(inputs({ capability: { kind: 'ready', path, capability: { ...capability, token: 'rotated' } } })),
      chooseChannel(inputs({ httpToken: stored })),
    ];
    const keys = new Set([channelKey(integration, 'auto'), ...changes.map((channel) => channelKey(channel, 'auto'))]);
    assert.equal(keys.size, 5);
    assert.notEqual(channelKey(integration, 'auto'), channelKey(integration, 'NowDoing'));
    const http = chooseChannel(inputs({ httpToken: stored }));
    assert.notEqual(
      channelKey(http, 'auto'),
      channelKey(chooseChannel(inputs({ httpToken: stored, port: 40001 })), 'auto'),
    );
    assert.equal(channelKey(http, 'auto'), channelKey(chooseChannel(inputs({ httpToken: { ...stored } })), 'auto'));
  });

  it('names the route for the user and for the log, and describes a file that cannot be used without its token', () => {
    assert.equal(
      describeRoute({ kind: 'integration', socketPath: '/tmp/app/api.sock' }),
      "through the app's VS Code integration",
    );
    assert.equal(describeRoute({ kind: 'http', port: 39847 }), 'through the HTTP API on 127.0.0.1:39847');
    assert.equal(
      describeRouteForLog({ kind: 'integration', socketPath: '/tmp/app/api.sock' }),
      "through the app's VS Code integration (socket /tmp/app/api.sock)",
    );
    assert.equal(capabilityProblem(ready), undefined);
    assert.equal(capabilityProblem(absent), undefined);
    assert.match(capabilityProblem(stale) ?? '', /names process 4242, which is not running: the app has quit\.$/);
    assert.match(capabilityProblem(invalid) ?? '', /api-endpoint\.json is not valid: it is not JSON\.$/);
    assert.doesNotMatch(capabilityProblem(stale) ?? '', /integration-token/);
  });

  it('takes a file another user could have written for unusable, and says so in one sentence without the token', () => {
    const untrusted: CapabilityReading = {
      kind: 'untrusted',
      path,
      message: 'group or others may write it (mode 0666), so another user could have written it.',
    };
    const channel = chooseChannel(inputs({ capability: untrusted }));
    assert.equal(channel.kind === 'none' && channel.reason, 'integrationUnusable');
    assert.equal(
      chooseChannel(inputs({ capability: untrusted, httpToken: stored })).kind,
      'http',
      'a token for the HTTP API still works',
    );
    assert.equal(
      capabilityProblem(untrusted),
      `The app's VS Code integration file ${path} is not used: group or others may write it (mode 0666), so another user could have written it.`,
    );
  });
});
