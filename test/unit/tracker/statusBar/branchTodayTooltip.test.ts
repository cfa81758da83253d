/** Issue 24: the status bar's tooltip says how long this window's branch ran today. */
import assert from 'node:assert/strict';
import type { TrackerState } from '../../../../src/tracker/model/trackerState';
import type { PresentationSettings } from '../../../../src/tracker/statusBar/factTypes';
import { present } from '../../../../src/tracker/statusBar/presentation';
import { statusFacts } from '../../../../src/tracker/statusBar/statusFacts';

const settings: PresentationSettings = {
  showTodayTotal: true,
  maxNameLength: 40,
  route: { kind: 'http', port: 40001 },
};
const tracking: TrackerState = {
  kind: 'tracking',
  activity: { activityID: 'a1', activityName: 'Write docs' },
  onBreak: false,
  startedAtMs: 0,
  appClockOffsetMs: 0,
  todaySeconds: 3_600,
  observedAtMs: 0,
};

describe('tracker/statusBar: this branch today in the tooltip', () => {
  it("adds one line with the branch's time today while tracking and while idle", () => {
    const branchToday = { branch: 'feature/PROJ_1', duration: '1h 20m' };
    assert.match(
      present(statusFacts(tracking, { ...settings, branchToday }, 0)).tooltip,
      /\n\nToday: 1h\.\n\nThis branch \(feature\/PROJ\\_1\) today: 1h 20m\.\n\n/,
    );
    assert.match(
      present(
        statusFacts(
          { kind: 'idle', onBreak: false, todaySeconds: 60, observedAtMs: 0 },
          { ...settings, branchToday },
          0,
        ),
      ).tooltip,
      /This branch \(feature\/PROJ\\_1\) today: 1h 20m\./,
    );
  });

  it('leaves it out without a branch (no folder, the ledger off)', () => {
    assert.doesNotMatch(present(statusFacts(tracking, settings, 0)).tooltip, /This branch/);
  });
});
