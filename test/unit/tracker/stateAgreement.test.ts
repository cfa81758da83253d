/**
 * Each state's tooltip and menu offer the same ways out, in the same order: a tooltip link leads to
 * what the menu lists, and the menu leads with what the tooltip names first.
 */
import assert from 'node:assert/strict';
import type { TrackerState } from '../../../src/tracker/model/trackerState';
import { menuFor } from '../../../src/tracker/pickers/menu';
import type { StatusBarInputs } from '../../../src/tracker/statusBar/factTypes';
import { statusBarItem } from '../../../src/tracker/statusBar/statusBarItem';

const http: StatusBarInputs = {
  nowMs: 0,
  showTodayTotal: true,
  maxNameLength: 40,
  route: { kind: 'http', port: 40001 },
};
const activity = { activityID: 'a1', activityName: 'Write docs' };
const states: TrackerState[] = [
  { kind: 'noToken' },
  { kind: 'remoteHost' },
  { kind: 'offline' },
  { kind: 'tokenRejected', clockSkewSeconds: undefined },
  { kind: 'tokenRejected', clockSkewSeconds: 300 },
  { kind: 'licenseLocked' },
  { kind: 'lockedOut', untilMs: 42_000 },
  { kind: 'unavailable' },
  { kind: 'failed', message: 'boom' },
  { kind: 'idle', onBreak: false, todaySeconds: 60, observedAtMs: 0 },
  { kind: 'idle', onBreak: true, todaySeconds: 60, observedAtMs: 0 },
  {
    kind: 'tracking',
    activity,
    onBreak: false,
    startedAtMs: 0,
    appClockOffsetMs: 0,
    todaySeconds: 60,
    observedAtMs: 0,
  },
  { kind: 'tracking', activity, onBreak: true, startedAtMs: 0, appClockOffsetMs: 0, todaySeconds: 60, observedAtMs: 0 },
];

/** The extension's commands the tooltip links to, in the order read, each once. */
function tooltipCommands(state: TrackerState): string[] {
  const { tooltip } = statusBarItem(state, http);
  const found = [...tooltip.matchAll(/\(command:timeTracker\.(\w+)\)/g)].map((match) => match[1] ?? '');
  return [...new Set(found)];
}

function isInOrder(part: readonly string[], whole: readonly string[]): boolean {
  let from = 0;
  for (const command of part) {
    const at = whole.indexOf(command, from);
    if (at < 0) return false;
    from = at + 1;
  }
  return true;
}

describe("tracker: each state's tooltip and menu agree", () => {
  for (const state of states) {
    const label = `${state.kind}${'onBreak' in state && state.onBreak ? ' (on break)' : ''}`;
    it(`${label}: the menu leads with the tooltip's first link and lists its others in the same order`, () => {
      const linked = tooltipCommands(state);
      const menu = menuFor(state, true, 0).map((entry) => entry.command.replace('timeTracker.', ''));
      if (linked.length === 0)
        return assert.fail(`the ${label} tooltip offers no way out; the menu offers ${menu.join(', ')}`);
      assert.equal(menu[0], linked[0], `tooltip ${linked.join(', ')}; menu ${menu.join(', ')}`);
      assert.ok(isInOrder(linked, menu), `tooltip ${linked.join(', ')}; menu ${menu.join(', ')}`);
    });
  }
});
