import assert from 'node:assert/strict';
import { COMMANDS } from '../../../../src/tracker/ids';
import type { TrackerState, TrackerStateKind } from '../../../../src/tracker/model/trackerState';
import type { PresentationSettings } from '../../../../src/tracker/statusBar/factTypes';
import { present } from '../../../../src/tracker/statusBar/presentation';
import { statusFacts } from '../../../../src/tracker/statusBar/statusFacts';

const viaHttp: PresentationSettings = { showTodayTotal: true, maxNameLength: 40, route: { kind: 'http', port: 40001 } };
const viaIntegration: PresentationSettings = {
  showTodayTotal: true,
  maxNameLength: 40,
  route: { kind: 'integration', socketPath: '/tmp/app/api.sock' },
};
const activity = { activityID: 'a1', activityName: '$(bug) fix *all*' };

/** Every kind of state, each variant of it: a kind left out here does not compile. */
const SAMPLES: { readonly [K in TrackerStateKind]: readonly Extract<TrackerState, { kind: K }>[] } = {
  starting: [{ kind: 'starting' }],
  noToken: [{ kind: 'noToken' }],
  remoteHost: [{ kind: 'remoteHost' }],
  offline: [{ kind: 'offline' }],
  tokenRejected: [
    { kind: 'tokenRejected', clockSkewSeconds: undefined },
    { kind: 'tokenRejected', clockSkewSeconds: 90 },
  ],
  licenseLocked: [{ kind: 'licenseLocked' }],
  lockedOut: [{ kind: 'lockedOut', untilMs: 30_000 }],
  unavailable: [{ kind: 'unavailable' }],
  failed: [{ kind: 'failed', message: 'boom' }],
  idle: [
    { kind: 'idle', onBreak: false, todaySeconds: 600, observedAtMs: 0 },
    { kind: 'idle', onBreak: true, todaySeconds: 600, observedAtMs: 0 },
  ],
  tracking: [
    {
      kind: 'tracking',
      activity,
      onBreak: false,
      startedAtMs: -65_000,
      appClockOffsetMs: 0,
      todaySeconds: 600,
      observedAtMs: 0,
    },
    {
      kind: 'tracking',
      activity,
      onBreak: false,
      startedAtMs: undefined,
      appClockOffsetMs: 0,
      todaySeconds: 600,
      observedAtMs: 0,
    },
    {
      kind: 'tracking',
      activity,
      onBreak: true,
      startedAtMs: -65_000,
      appClockOffsetMs: 0,
      todaySeconds: 600,
      observedAtMs: 0,
    },
  ],
};
const samples: TrackerState[] = Object.values(SAMPLES).flat();
/** States whose fix differs by the way to the app, so their words do too. */
const WORDED_PER_ROUTE = new Set<TrackerStateKind>(['offline', 'tokenRejected']);

describe('tracker/statusBar/statusFacts', () => {
  it('gives each state, on either route, one set of facts that present() shows unchanged', () => {
    for (const state of samples) {
      for (const settings of [viaHttp, viaIntegration]) {
        const facts = statusFacts(state, settings, 0);
        const where = `${state.kind} via ${settings.route.kind}`;
        assert.deepEqual(statusFacts(state, settings, 0), facts, `${where}: the same facts every time`);
        assert.deepEqual(
          present(facts),
          present(statusFacts(state, settings, 0)),
          `${where}: present() is the formatter over these facts`,
        );
        assert.match(facts.text.icon, /^[a-z~-]+$/, `${where}: a codicon name, not its $(…) form`);
        assert.equal(
          present(statusFacts(state, settings, 0)).command,
          COMMANDS.showMenu,
          `${where}: a click opens the menu`,
        );
        assert.ok(facts.tooltip.headline.length > 0 && facts.spoken.length > 10, where);
      }
    }
  });

  it('words only offline and a rejected token differently per route, and names the route while the app answers', () => {
    for (const state of samples) {
      const http = statusFacts(state, viaHttp, 0);
      const integration = statusFacts(state, viaIntegration, 0);
      const perRoute =
        WORDED_PER_ROUTE.has(state.kind) && !(state.kind === 'tokenRejected' && state.clockSkewSeconds !== undefined);
      if (perRoute) {
        assert.deepEqual(integration.text, http.text, `${state.kind}: the same text on the status bar`);
        assert.notEqual(integration.spoken, http.spoken, state.kind);
        assert.notDeepEqual(integration.tooltip, http.tooltip, state.kind);
      } else if (state.kind === 'idle' || state.kind === 'tracking') {
        assert.deepEqual(
          { ...integration.tooltip, connection: undefined },
          { ...http.tooltip, connection: undefined },
          state.kind,
        );
        assert.notEqual(integration.tooltip.connection, http.tooltip.connection, state.kind);
      } else {
        assert.deepEqual(integration, http, state.kind);
      }
    }
  });

  it('leaves names as the app wrote them in the text parts, for the formatter to escape once', () => {
    const running = statusFacts(SAMPLES.tracking[0]!, viaHttp, 0);
    assert.deepEqual(running.text, { icon: 'record', activity: '$(bug) fix *all*', elapsed: '1:05', today: '10m' });
    const paused = statusFacts(SAMPLES.tracking[2]!, viaHttp, 0);
    assert.deepEqual(paused.text, { icon: 'coffee', state: 'On break ($(bug) fix *all*)', today: '10m' });
    const unknownStart = statusFacts(SAMPLES.tracking[1]!, { ...viaHttp, showTodayTotal: false }, 0);
    assert.deepEqual(unknownStart.text, {
      icon: 'record',
      activity: '$(bug) fix *all*',
      elapsed: undefined,
      today: undefined,
    });
  });

  it('gives every state its words but a running activity, which its name stands for', () => {
    for (const state of samples) {
      const { text } = statusFacts(state, viaHttp, 0);
      const running = state.kind === 'tracking' && !state.onBreak;
      assert.equal(text.state === undefined, running, state.kind);
      assert.equal(text.activity !== undefined, running, state.kind);
    }
  });
});
