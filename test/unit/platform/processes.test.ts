import assert from 'node:assert/strict';
import { ownProcessIsRunning, processIsRunning, type SignalProbe } from '../../../src/platform/processes';
import { deadPid } from '../../support/pids';

/** kill(pid, 0) on a pid another user's process has now (macOS reuses low pids after a restart). */
const anotherUsers: SignalProbe = () => {
  throw Object.assign(new Error('kill EPERM'), { code: 'EPERM' });
};

describe('platform/processes: whether a pid runs, for locks and for files only this user writes', () => {
  it("reads another user's process as running for a lock, as not the writer for this user's own files", () => {
    assert.equal(processIsRunning(321, anotherUsers), true);
    assert.equal(ownProcessIsRunning(321, anotherUsers), false);
  });

  it('reads this process as running both ways, and an ended one as running neither way', async () => {
    assert.equal(processIsRunning(process.pid), true);
    assert.equal(ownProcessIsRunning(process.pid), true);
    const gone = await deadPid();
    assert.equal(processIsRunning(gone), false);
    assert.equal(ownProcessIsRunning(gone), false);
  });

  it('never asks about a pid that would address a process group', () => {
    const asked: number[] = [];
    const probe: SignalProbe = (pid) => void asked.push(pid);
    for (const pid of [0, -1, 1.5, 2 ** 31]) assert.equal(ownProcessIsRunning(pid, probe), false);
    assert.deepEqual(asked, []);
  });
});
