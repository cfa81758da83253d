import assert from 'node:assert/strict';
import { COMMANDS } from '../../../../src/tracker/ids';
import type { Route } from '../../../../src/tracker/model/channel';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';
import { blockedStart } from '../../../../src/tracker/pickers/startBlocked';

const http: Route = { kind: 'http', port: 39847 };
const integration: Route = { kind: 'integration', socketPath: '/tmp/app.sock' };
const NOW = 1_700_000_000_000;
const commands = (state: TrackerState, route: Route): string[] | undefined =>
  blockedStart(state, route, NOW)?.fixes.map((fix) => fix.command);

describe('tracker/startBlocked', () => {
  it('says a rejected token before anything is typed, with Set Token first, then Check Connection', () => {
    const blocked = blockedStart({ kind: 'tokenRejected', clockSkewSeconds: undefined }, http, NOW);
    assert.equal(blocked?.title, 'Nothing can be started: the app rejected the token');
    assert.equal(blocked.placeholder, 'Set the token the app shows in Settings → Integrations → HTTP API');
    assert.deepEqual(
      blocked.fixes.map((fix) => fix.label),
      ['$(key) Set Token…', '$(plug) Check Connection'],
    );
    assert.deepEqual(commands({ kind: 'tokenRejected', clockSkewSeconds: undefined }, http), [
      COMMANDS.setToken,
      COMMANDS.checkConnection,
    ]);
  });

  it("offers no Set Token where a token set here would not help: the integration's own, a clock off, a license", () => {
    assert.deepEqual(commands({ kind: 'tokenRejected', clockSkewSeconds: undefined }, integration), [
      COMMANDS.checkConnection,
    ]);
    assert.deepEqual(commands({ kind: 'tokenRejected', clockSkewSeconds: -125 }, http), [COMMANDS.checkConnection]);
    assert.match(blockedStart({ kind: 'tokenRejected', clockSkewSeconds: -125 }, http, NOW)?.title ?? '', /125 s off/);
    assert.deepEqual(commands({ kind: 'licenseLocked' }, http), [COMMANDS.checkConnection]);
  });

  it('says a lockout with its seconds left, Check Connection first (the token may be right), and nothing once it ended', () => {
    const blocked = blockedStart({ kind: 'lockedOut', untilMs: NOW + 41_500 }, http, NOW);
    assert.match(blocked?.title ?? '', /42 s more/);
    assert.deepEqual(commands({ kind: 'lockedOut', untilMs: NOW + 41_500 }, http), [
      COMMANDS.checkConnection,
      COMMANDS.setToken,
    ]);
    assert.deepEqual(commands({ kind: 'lockedOut', untilMs: NOW + 41_500 }, integration), [COMMANDS.checkConnection]);
    assert.equal(blockedStart({ kind: 'lockedOut', untilMs: NOW }, http, NOW), undefined);
  });

  it('says the reason in the title and the way out in the placeholder, each short enough to be read whole', () => {
    const states: [TrackerState, Route][] = [
      [{ kind: 'tokenRejected', clockSkewSeconds: undefined }, http],
      [{ kind: 'tokenRejected', clockSkewSeconds: undefined }, integration],
      [{ kind: 'tokenRejected', clockSkewSeconds: -125 }, http],
      [{ kind: 'lockedOut', untilMs: NOW + 41_500 }, http],
      [{ kind: 'licenseLocked' }, http],
    ];
    for (const [state, route] of states) {
      const blocked = blockedStart(state, route, NOW);
      // About what the quick input shows of a line at its default width, before it cuts with "…".
      for (const line of [blocked?.title ?? '', blocked?.placeholder ?? ''])
        assert.ok(
          line.length > 0 && line.length <= 80,
          `${state.kind} (${route.kind}): ${line.length} characters: ${line}`,
        );
    }
  });

  it('leaves the picker to the activities wherever a start may succeed', () => {
    const states: TrackerState[] = [
      { kind: 'idle', onBreak: false, todaySeconds: 0, observedAtMs: NOW },
      { kind: 'offline' },
      { kind: 'failed', message: 'x' },
      { kind: 'unavailable' },
    ];
    for (const state of states) assert.equal(blockedStart(state, http, NOW), undefined, state.kind);
  });
});
