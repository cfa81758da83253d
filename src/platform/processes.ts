/**
 * Whether a process runs on this machine, for files that name their writer's pid: the app's
 * capability file (a pid not running is a quit app), the file locks (a dead holder's lock is
 * stale) and the offline queue's senders. One answer for all of them.
 */
import { errnoCode } from './errors';

/**
 * Signal 0 tests for a process without touching it; EPERM means it runs as another user. Pids
 * of 0 and below are never a process of ours: kill() would address a process group instead.
 */
export function processIsRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid > 0x7fffffff) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoCode(error) === 'EPERM';
  }
}
