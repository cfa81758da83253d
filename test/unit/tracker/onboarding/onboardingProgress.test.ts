import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  contextKeysFor,
  NO_PROGRESS,
  progressAfter,
  qualifiedStepId,
  reachabilityOf,
  stepsToMark,
  WALKTHROUGH_STEPS,
  welcomeNoticeFor,
  type OnboardingProgress,
} from '../../../../src/tracker/onboarding/onboardingProgress';
import { WALKTHROUGH_ID } from '../../../../src/tracker/ids';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';

const activity = { activityID: 'a1', activityName: 'Docs' };
const idle: TrackerState = { kind: 'idle', onBreak: false, todaySeconds: 0, observedAtMs: 0 };
const tracking: TrackerState = {
  kind: 'tracking',
  activity,
  onBreak: false,
  startedAtMs: 0,
  appClockOffsetMs: 0,
  todaySeconds: 0,
  observedAtMs: 0,
};
const reachableWithToken: OnboardingProgress = {
  appReachable: true,
  hasToken: true,
  connected: false,
  tracking: false,
};

describe('tracker/onboardingProgress', () => {
  it('counts any answer of the app as reachable, no answer as not, and leaves the rest undecided', () => {
    const cases: [TrackerState, boolean | undefined][] = [
      [idle, true],
      [tracking, true],
      [{ kind: 'tokenRejected', clockSkewSeconds: undefined }, true],
      [{ kind: 'licenseLocked' }, true],
      [{ kind: 'lockedOut', untilMs: 0 }, true],
      [{ kind: 'unavailable' }, true],
      [{ kind: 'offline' }, false],
      [{ kind: 'failed', message: 'timed out' }, undefined],
      [{ kind: 'noToken' }, undefined],
      [{ kind: 'starting' }, undefined],
    ];
    for (const [state, expected] of cases) assert.equal(reachabilityOf(state), expected, state.kind);
  });

  it('walks from no token to tracking, one step per real event', () => {
    let progress = progressAfter({ kind: 'starting' }, NO_PROGRESS, false);
    assert.deepEqual(progress, NO_PROGRESS);
    progress = progressAfter({ kind: 'noToken' }, progress, false);
    assert.deepEqual(progress, NO_PROGRESS, 'without a token only the probe can tell whether the app answers');
    progress = { ...progress, appReachable: true };
    progress = progressAfter({ kind: 'tokenRejected', clockSkewSeconds: undefined }, progress, true);
    assert.deepEqual(progress, reachableWithToken, 'a token, but not accepted: not connected');
    progress = progressAfter(idle, progress, true);
    assert.deepEqual(progress, { ...reachableWithToken, connected: true });
    progress = progressAfter(tracking, progress, true);
    assert.deepEqual(progress, { appReachable: true, hasToken: true, connected: true, tracking: true });
  });

  it('keeps what a state cannot tell, and takes back what it contradicts', () => {
    const all: OnboardingProgress = { appReachable: true, hasToken: true, connected: true, tracking: true };
    assert.deepEqual(progressAfter({ kind: 'starting' }, all, true), all);
    assert.deepEqual(progressAfter({ kind: 'failed', message: 'HTTP 500' }, all, true), {
      ...all,
      connected: false,
      tracking: false,
    });
    assert.deepEqual(progressAfter({ kind: 'offline' }, all, true), {
      appReachable: false,
      hasToken: true,
      connected: false,
      tracking: false,
    });
    assert.deepEqual(progressAfter({ kind: 'noToken' }, all, false), {
      appReachable: true,
      hasToken: false,
      connected: false,
      tracking: false,
    });
    // The app quit while its VS Code integration was in use: offline, and no token to sign with.
    assert.deepEqual(progressAfter({ kind: 'offline' }, all, false), {
      appReachable: false,
      hasToken: false,
      connected: false,
      tracking: false,
    });
  });

  it('sets its own context keys from the progress', () => {
    assert.deepEqual(contextKeysFor(NO_PROGRESS), {
      'timeTracker.appReachable': false,
      'timeTracker.connected': false,
    });
    assert.deepEqual(contextKeysFor({ appReachable: true, hasToken: true, connected: true, tracking: false }), {
      'timeTracker.appReachable': true,
      'timeTracker.connected': true,
    });
  });

  it('marks done in VS Code each step whose condition holds, once, however it got there', () => {
    assert.deepEqual(stepsToMark(NO_PROGRESS, new Set()), []);
    // Opened after connecting and starting: every step holds already, before any page listens.
    const all = { appReachable: true, hasToken: true, connected: true, tracking: true };
    assert.deepEqual(stepsToMark(all, new Set()), ['connectApp', 'setToken', 'checkConnection', 'startTracking']);
    assert.deepEqual(stepsToMark(reachableWithToken, new Set()), ['connectApp', 'setToken']);
    assert.deepEqual(stepsToMark(all, new Set(['connectApp', 'setToken'])), ['checkConnection', 'startTracking']);
    // A step taken back (stopped) stays done in VS Code: nothing to mark, nothing to unmark.
    assert.deepEqual(
      stepsToMark({ ...all, tracking: false }, new Set(['connectApp', 'setToken', 'checkConnection', 'startTracking'])),
      [],
    );
    assert.equal(
      qualifiedStepId('clessira-tools.clessira-time-tracker', 'startTracking'),
      `clessira-tools.clessira-time-tracker#${WALKTHROUGH_ID}#startTracking`,
    );
  });

  it('shows the first-run notice only without a token and unless turned off', () => {
    assert.equal(welcomeNoticeFor({ hasToken: false, turnedOff: false }), 'shown');
    assert.equal(welcomeNoticeFor({ hasToken: true, turnedOff: false }), 'hasToken');
    assert.equal(welcomeNoticeFor({ hasToken: true, turnedOff: true }), 'hasToken');
    assert.equal(welcomeNoticeFor({ hasToken: false, turnedOff: true }), 'turnedOff');
    // A remote machine's host has a message of its own: a token would not help there.
    assert.equal(welcomeNoticeFor({ hasToken: false, turnedOff: false, remoteHost: true }), 'remoteHost');
  });

  it('matches the walkthrough of package.json: steps in order, each completed by its context key, each with a button, in every language', () => {
    const root = join(__dirname, '..', '..', '..', '..', '..');
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      contributes: {
        commands: { command: string }[];
        walkthroughs: {
          id: string;
          steps: { id: string; description: string; completionEvents: string[]; media: { markdown?: string } }[];
        }[];
      };
    };
    const [walkthrough, ...others] = manifest.contributes.walkthroughs;
    assert.equal(others.length, 0);
    assert.equal(walkthrough?.id, WALKTHROUGH_ID);
    assert.deepEqual(
      walkthrough.steps.map((step) => ({ id: step.id, completionEvents: step.completionEvents })),
      WALKTHROUGH_STEPS.map((step) => ({ id: step.id, completionEvents: [`onContext:${step.contextKey}`] })),
    );
    const contributed = new Set(manifest.contributes.commands.map((command) => command.command));
    for (const nls of readdirSync(root).filter((name) => /^package\.nls(\.[\w-]+)?\.json$/.test(name))) {
      const messages = JSON.parse(readFileSync(join(root, nls), 'utf8')) as Record<string, string>;
      // The manifest names its texts as %key%; VS Code takes them from the display language's file.
      const text = (value: string | undefined): string =>
        messages[/^%(.+)%$/.exec(value ?? '')?.[1] ?? ''] ?? value ?? '';
      for (const step of walkthrough.steps) {
        // A command link alone on its line is what the walkthrough shows as a button.
        const buttons = [...text(step.description).matchAll(/^\[[^\]]+\]\(command:([\w.]+)\)$/gm)].map(
          (match) => match[1],
        );
        assert.ok(
          buttons.length > 0 && buttons.every((id) => id !== undefined && contributed.has(id)),
          `${nls} ${step.id}: ${buttons.join(', ')}`,
        );
        const markdown = text(step.media.markdown);
        assert.ok(markdown, `${nls} ${step.id} has no markdown`);
        assert.ok(readFileSync(join(root, markdown), 'utf8').startsWith('# '), `${nls} ${step.id}: ${markdown}`);
      }
    }
    const owned = Object.keys(contextKeysFor(NO_PROGRESS));
    assert.ok(owned.every((key) => WALKTHROUGH_STEPS.some((step) => step.contextKey === key)));
  });
});
