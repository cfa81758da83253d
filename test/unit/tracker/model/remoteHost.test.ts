import assert from 'node:assert/strict';
import { chooseChannel, describeNoChannelForLog } from '../../../../src/tracker/model/channel';
import { nextPollDelayMs } from '../../../../src/tracker/model/poller';
import { decideHost, describeHostForLog, type ExtensionSide } from '../../../../src/tracker/model/remoteHost';

const capability = { version: 1, socketPath: '/tmp/app/api.sock', token: 'integration-token', pid: 4242 } as const;

describe('tracker/remoteHost: from where the extension may talk to the app', () => {
  it('allows a local window, and the local side of a remote one, whatever the opt-in says', () => {
    for (const side of ['ui', 'workspace'] as const) {
      for (const optedIn of [false, true]) {
        assert.deepEqual(decideHost({ remoteName: undefined, side, optedIn }), { allowed: true, why: 'localWindow' });
        assert.deepEqual(
          decideHost({ remoteName: '', side, optedIn }),
          { allowed: true, why: 'localWindow' },
          'an empty name is no remote',
        );
      }
    }
    for (const remoteName of ['ssh-remote', 'dev-container', 'wsl', 'codespaces']) {
      assert.deepEqual(decideHost({ remoteName, side: 'ui', optedIn: false }), { allowed: true, why: 'localSide' });
    }
  });

  it("refuses the remote machine's host of a remote window, unless the user opted in", () => {
    for (const remoteName of ['ssh-remote', 'dev-container', 'wsl', 'localhost:8080']) {
      assert.deepEqual(decideHost({ remoteName, side: 'workspace', optedIn: false }), {
        allowed: false,
        why: 'remoteWorkspaceHost',
      });
      assert.deepEqual(decideHost({ remoteName, side: 'workspace', optedIn: true }), { allowed: true, why: 'optedIn' });
    }
  });

  it('says in the log where it runs and why, nothing in a local window, and how to change it when refused', () => {
    const line = (remoteName: string | undefined, side: ExtensionSide, optedIn: boolean): string | undefined =>
      describeHostForLog(decideHost({ remoteName, side, optedIn }), remoteName);
    assert.equal(line(undefined, 'workspace', false), undefined);
    assert.match(
      line('ssh-remote', 'ui', false) ?? '',
      /^Remote window \(ssh-remote\): the extension runs on this computer's side/,
    );
    assert.match(
      line('ssh-remote', 'workspace', true) ?? '',
      /timeTracker\.remote\.allowWorkspaceHost is on in the user's settings; the token goes to whatever listens on that machine\.$/,
    );
    assert.match(
      line('ssh-remote', 'workspace', false) ?? '',
      /runs on the remote machine, .*so it sends nothing\. Install it locally, or set "remote\.extensionKind"/,
    );
  });

  it('chooses no channel on a refused host, over a running integration and a token alike, and never polls there', () => {
    const ready = { kind: 'ready', path: '/home/u/api-endpoint.json', capability } as const;
    for (const httpToken of [undefined, { token: 'stored-token', source: 'secretStorage' } as const]) {
      for (const reading of [ready, { kind: 'absent', path: '' } as const]) {
        const channel = chooseChannel({
          capability: reading,
          httpToken,
          port: 40001,
          integrationSeen: true,
          hostRefused: true,
        });
        assert.deepEqual(channel, { kind: 'none', route: { kind: 'http', port: 40001 }, reason: 'remoteHost' });
        assert.doesNotMatch(JSON.stringify(channel), /token/, 'no token is carried');
      }
    }
    assert.equal(
      chooseChannel({
        capability: ready,
        httpToken: undefined,
        port: 40001,
        integrationSeen: false,
        hostRefused: false,
      }).kind,
      'integration',
    );
    assert.match(describeNoChannelForLog('remoteHost'), /remote machine of this remote window, where it sends nothing/);
    assert.equal(
      nextPollDelayMs(
        { kind: 'remoteHost' },
        { intervalSeconds: 10, failuresInARow: 0, focused: true, active: true },
        0,
      ),
      undefined,
    );
  });
});
