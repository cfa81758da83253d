import assert from 'node:assert/strict';
import { errnoCode, errorMessage, errorPhrase } from '../../../src/platform/errors';
import { processIsRunning } from '../../../src/platform/processes';
import { deadPid } from '../../support/pids';

describe('platform/errors and processes', () => {
  it('says the message of an Error, and any other thrown value as text', () => {
    assert.equal(errorMessage(new Error('Disk full.')), 'Disk full.');
    assert.equal(errorMessage('plain'), 'plain');
    assert.equal(errorMessage(undefined), 'undefined');
    assert.equal(errorPhrase(new Error('Disk full.')), 'Disk full');
    assert.equal(errorPhrase(new Error('No stop')), 'No stop');
  });

  it('reads the system code of a failed call, and nothing from other values', () => {
    assert.equal(errnoCode(Object.assign(new Error('x'), { code: 'ENOENT' })), 'ENOENT');
    assert.equal(errnoCode(new Error('x')), undefined);
    assert.equal(errnoCode({ code: 42 }), undefined);
    assert.equal(errnoCode(null), undefined);
    assert.equal(errnoCode('ENOENT'), undefined);
  });

  it('knows a running process from one that ended, and never addresses a process group', async () => {
    assert.equal(processIsRunning(process.pid), true);
    assert.equal(processIsRunning(await deadPid()), false);
    for (const pid of [0, -1, 1.5, Number.NaN, 2 ** 31]) assert.equal(processIsRunning(pid), false, String(pid));
  });
});
